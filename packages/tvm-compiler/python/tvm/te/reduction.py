"""Commutative reductions for te.compute: CommReducer, the Reduce expression, sum/max/min."""

from __future__ import annotations

from tvm.ir.node import Node
from tvm.tir import expr as E
from tvm.tir import op as tir_op
from tvm.tir.stmt import IterVar


class CommReducer(Node):
    """combine(lhs, rhs) -> result over tuples of values (one per reduced value, as upstream:
    argmax reduces (index, value) pairs); identity_element is the value of an empty reduction."""

    _fields = ("lhs", "rhs", "result", "identity_element")
    _def_fields = ("lhs", "rhs")

    def __init__(self, lhs, rhs, result, identity_element, name="reduce"):
        self._set(
            lhs=tuple(lhs),
            rhs=tuple(rhs),
            result=tuple(result),
            identity_element=tuple(identity_element),
            name=name,
        )

    def __call__(self, a, b):
        """combine applied to the tuples a and b (a list of results, one per value)."""
        from tvm.tir.functor import substitute

        vmap = dict(zip(self.lhs, a))
        vmap.update(zip(self.rhs, b))
        return [substitute(r, vmap) for r in self.result]


class Reduce(E.PrimExprWithOp):
    """Value value_index of combiner over source (a tuple) for every point of axis."""

    _fields = ("combiner", "source", "axis", "condition", "value_index", "init")

    def __init__(self, combiner, source, axis, condition=None, value_index=0, init=None):
        axis = tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
        for ax in axis:
            if not isinstance(ax, IterVar) or not ax.is_reduce:
                raise TypeError(
                    f"{combiner.name}: axis must be te.reduce_axis IterVars, got {ax!r}"
                )
        if not axis:
            raise ValueError(f"{combiner.name}: axis must list at least one reduce axis")
        source = tuple(E.convert(s) for s in source)
        condition = (
            E.IntImm("bool", 1) if condition is None else E._as_bool(condition, combiner.name)
        )
        init = tuple(E.convert(v).astype(s.dtype) for v, s in zip(init or (), source))
        self._set(
            combiner=combiner,
            source=source,
            axis=axis,
            condition=condition,
            value_index=value_index,
            init=init,
            dtype=source[value_index].dtype,
            span=None,
        )

    def same_as_except_value_index(self, other) -> bool:
        return (
            isinstance(other, Reduce)
            and other.combiner is self.combiner
            and len(other.source) == len(self.source)
            and all(a is b for a, b in zip(other.source, self.source))
            and all(a is b for a, b in zip(other.axis, self.axis))
            and other.condition is self.condition
        )


def _as_tuple(value, who, what):
    values = tuple(value) if isinstance(value, (list, tuple)) else (value,)
    try:
        return tuple(E.convert(v) for v in values)
    except TypeError:
        raise TypeError(f"{who}: {what} must be expressions, got {value!r}") from None


def _empty(axis) -> bool:
    """Some reduce axis has a static extent of 0 (so the reduction covers no element)."""
    axes = axis if isinstance(axis, (list, tuple)) else [axis]
    for iv in axes:
        extent = getattr(getattr(iv, "dom", None), "extent", None)
        if isinstance(extent, E.IntImm) and extent.value == 0:
            return True
    return False


def comm_reducer(fcombine, fidentity, name: str = "reduce"):
    """A reduction function f(expr, axis, where=None, init=None) from a combiner and identity.

    With expr a tuple (as for argmax's (index, value) pairs) fcombine(x, y) gets and returns
    tuples, fidentity(*dtypes) returns a tuple, and the reduction gives one Reduce per value.
    """

    def reducer(expr, axis, where=None, init=None):
        multi = isinstance(expr, (list, tuple))
        if not multi and not isinstance(axis, (IterVar, list, tuple)):
            # te.max(x, y) on two expressions combines them elementwise, as in a ReLU.
            if where is not None or init is not None:
                raise TypeError(f"{name}: 'where' and 'init' need reduce axes, got axis {axis!r}")
            return E.convert(fcombine(E.convert(expr), E.convert(axis)))
        source = _as_tuple(expr, name, "the reduced values")
        if not source:
            raise ValueError(f"{name}: expr must hold at least one value")
        dtypes = [s.dtype for s in source]
        lhs = tuple(E.Var(f"x_{k}" if multi else "x", t) for k, t in enumerate(dtypes))
        rhs = tuple(E.Var(f"y_{k}" if multi else "y", t) for k, t in enumerate(dtypes))
        if multi:
            result, identity = fcombine(lhs, rhs), fidentity(*dtypes)
        else:
            result, identity = fcombine(lhs[0], rhs[0]), fidentity(dtypes[0])
        result = _as_tuple(result, name, "fcombine's results")
        identity = _as_tuple(identity, name, "fidentity's values")
        for what, values in (("fcombine", result), ("fidentity", identity)):
            if len(values) != len(source):
                raise ValueError(
                    f"{name}: {what} returned {len(values)} values for {len(source)} reduced values"
                )
        combiner = CommReducer(
            lhs,
            rhs,
            [r.astype(t) for r, t in zip(result, dtypes)],
            [v.astype(t) for v, t in zip(identity, dtypes)],
            name,
        )
        if init is not None:
            init = _as_tuple(init, name, "init")
            if len(init) != len(source):
                raise ValueError(f"{name}: init has {len(init)} values for {len(source)}")
        if _empty(axis):
            # Nothing to reduce: the value is the init (else the identity). A reduction loop of
            # extent 0 would never run the init of its block, leaving the output unwritten.
            values = [v.astype(t) for v, t in zip(init or combiner.identity_element, dtypes)]
            return tuple(values) if multi else values[0]
        where = E.IntImm("bool", 1) if where is None else E._as_bool(where, name)
        reduces = [Reduce(combiner, source, axis, where, k, init) for k in range(len(source))]
        return tuple(reduces) if multi else reduces[0]

    reducer.__name__ = name
    return reducer


sum = comm_reducer(lambda x, y: x + y, lambda t: E.const(0, t), name="sum")  # noqa: A001
max = comm_reducer(lambda x, y: tir_op.max(x, y), tir_op.min_value, name="max")  # noqa: A001
min = comm_reducer(lambda x, y: tir_op.min(x, y), tir_op.max_value, name="min")  # noqa: A001
