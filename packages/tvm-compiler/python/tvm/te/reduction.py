"""Commutative reductions for te.compute: CommReducer, the Reduce expression, sum/max/min."""

from __future__ import annotations

from tvm.ir.node import Node
from tvm.tir import expr as E
from tvm.tir import op as tir_op
from tvm.tir.stmt import IterVar


class CommReducer(Node):
    """combine(lhs, rhs) -> result, with identity the value of an empty reduction."""

    _fields = ("lhs", "rhs", "result", "identity")
    _def_fields = ("lhs", "rhs")

    def __init__(self, lhs, rhs, result, identity, name="reduce"):
        self._set(lhs=lhs, rhs=rhs, result=result, identity=identity, name=name)

    def combine(self, a, b):
        from tvm.tir.functor import substitute

        return substitute(self.result, {self.lhs: a, self.rhs: b})


class Reduce(E.PrimExprWithOp):
    """combiner over source for every point of axis (reduce IterVars), where condition holds."""

    _fields = ("combiner", "source", "axis", "condition", "init")

    def __init__(self, combiner, source, axis, condition=None, init=None):
        axis = tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
        for ax in axis:
            if not isinstance(ax, IterVar) or not ax.is_reduce:
                raise TypeError(
                    f"{combiner.name}: axis must be te.reduce_axis IterVars, got {ax!r}"
                )
        if not axis:
            raise ValueError(f"{combiner.name}: axis must list at least one reduce axis")
        source = E.convert(source)
        condition = (
            E.IntImm("bool", 1) if condition is None else E._as_bool(condition, combiner.name)
        )
        self._set(
            combiner=combiner,
            source=source,
            axis=axis,
            condition=condition,
            init=None if init is None else E.convert(init).astype(source.dtype),
            dtype=source.dtype,
            span=None,
        )


def comm_reducer(fcombine, fidentity, name: str = "reduce"):
    """A reduction function f(expr, axis, where=None, init=None) from a combiner and identity."""

    def reducer(expr, axis, where=None, init=None):
        if not isinstance(axis, (IterVar, list, tuple)):
            # te.max(x, y) on two expressions combines them elementwise, as in a ReLU.
            if where is not None or init is not None:
                raise TypeError(f"{name}: 'where' and 'init' need reduce axes, got axis {axis!r}")
            return E.convert(fcombine(E.convert(expr), E.convert(axis)))
        expr = E.convert(expr)
        lhs, rhs = E.Var("x", expr.dtype), E.Var("y", expr.dtype)
        combiner = CommReducer(
            lhs, rhs, E.convert(fcombine(lhs, rhs)), E.convert(fidentity(expr.dtype)), name
        )
        return Reduce(combiner, expr, axis, where, init)

    reducer.__name__ = name
    return reducer


sum = comm_reducer(lambda x, y: x + y, lambda t: E.const(0, t), name="sum")  # noqa: A001
max = comm_reducer(lambda x, y: tir_op.max(x, y), tir_op.min_value, name="max")  # noqa: A001
min = comm_reducer(lambda x, y: tir_op.min(x, y), tir_op.max_value, name="min")  # noqa: A001
