"""te tensors: placeholders and computed tensors described by an index function."""

from __future__ import annotations

import inspect

from tvm.ir.node import Node
from tvm.tir import expr as E
from tvm.tir.buffer import decl_buffer
from tvm.tir.functor import post_order_visit
from tvm.tir.stmt import IterVar

from .reduction import Reduce


class Tensor(Node):
    """A tensor of a te program; indexing it gives a load usable in other compute bodies."""

    _fields = ("name", "shape", "dtype", "op", "value_index")

    def __init__(self, name, shape, dtype, op, value_index=0, buffer_name=None):
        buffer = decl_buffer(shape, dtype, name=buffer_name or name)
        self._set(
            name=name,
            shape=buffer.shape,
            dtype=buffer.dtype,
            op=op,
            value_index=value_index,
            buffer=buffer,
        )

    def __getitem__(self, indices):
        if not isinstance(indices, tuple):
            indices = (indices,)
        if len(indices) != len(self.shape):
            raise IndexError(
                f"tensor {self.name!r} has {len(self.shape)} dimensions, got {len(indices)} indices"
            )
        return self.buffer[indices]

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __repr__(self):
        return f"Tensor({self.name!r}, shape={[str(s) for s in self.shape]}, dtype={self.dtype!r})"


class _Operation(Node):
    """An op's output tensors, filled once when the op's tensors are made."""

    _late_fields = ("_outputs",)

    def output_tensors(self) -> tuple:
        return self._outputs

    @property
    def num_outputs(self) -> int:
        return len(self._outputs)

    def output(self, index: int) -> Tensor:
        if not 0 <= index < self.num_outputs:
            raise IndexError(
                f"{type(self).__name__}.output: index {index} out of range for "
                f"{self.num_outputs} outputs"
            )
        return self._outputs[index]


class PlaceholderOp(_Operation):
    _fields = ("name",)

    def __init__(self, name):
        self._set(name=name)


class ComputeOp(_Operation):
    """axis: the output's IterVars; body: one value per output at a point (PrimExprs, or
    Reduces that differ only in value_index)."""

    _fields = ("name", "axis", "body", "tag", "attrs")

    def __init__(self, name, axis, body, tag="", attrs=None):
        self._set(
            name=name,
            axis=tuple(axis),
            body=tuple(body),
            tag=tag,
            attrs=dict(attrs or {}),
        )

    @property
    def reduce_axis(self):
        return self.body[0].axis if isinstance(self.body[0], Reduce) else ()


def var(name: str = "tindex", dtype="int32") -> E.Var:
    return E.Var(name, dtype)


def size_var(name: str = "size", dtype="int32") -> E.SizeVar:
    return E.SizeVar(name, dtype)


def _shape(shape, who):
    if not isinstance(shape, (list, tuple)):
        shape = (shape,)
    out = []
    for s in shape:
        try:
            s = E.convert(s)
        except TypeError:
            raise TypeError(
                f"{who}: shape entries must be ints or integer expressions, got {s!r}"
            ) from None
        if not s.dtype.is_integer:
            raise TypeError(f"{who}: shape entries must be integers, got {s!r}")
        if isinstance(s, E.IntImm) and s.value < 0:
            raise ValueError(f"{who}: shape entries must be non-negative, got {s.value}")
        out.append(s)
    return tuple(out)


def placeholder(shape, dtype="float32", name: str = "placeholder") -> Tensor:
    """An input tensor of the given shape and dtype."""
    op = PlaceholderOp(name)
    tensor = Tensor(name, _shape(shape, "placeholder"), dtype, op)
    op._fill_late_field("_outputs", (tensor,))
    return tensor


def reduce_axis(dom, name: str = "rv") -> IterVar:
    """A reduction iterator over dom: an extent, a (min, max) pair or a Range."""
    if isinstance(dom, (list, tuple)):
        if len(dom) != 2:
            raise ValueError(f"reduce_axis: dom must be (begin, end), got {dom!r}")
        dom = E.Range(*dom)
    elif not isinstance(dom, E.Range):
        dom = E.Range(0, dom)
    return IterVar(dom, E.Var(name, dom.extent.dtype), IterVar.CommReduce)


def _index_names(name, fcompute, ndim) -> list[str]:
    """Index variable names: fcompute's parameter names, or i0, i1, ... for *args."""
    try:
        params = list(inspect.signature(fcompute).parameters.values())
    except (TypeError, ValueError):
        return [f"i{k}" for k in range(ndim)]
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return [f"i{k}" for k in range(ndim)]
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(positional) != ndim:
        raise ValueError(
            f"compute {name!r}: fcompute takes {len(positional)} index arguments but the shape "
            f"has {ndim} dimensions"
        )
    return positional


def _contains_nested_reduce(body) -> bool:
    found = []

    def check(node):
        if isinstance(node, Reduce) and node is not body:
            found.append(node)

    post_order_visit(body, check)
    return bool(found)


def _check_body(name, body) -> tuple:
    """fcompute's result as a tuple of expressions, one per output."""
    values = tuple(body) if isinstance(body, (list, tuple)) else (body,)
    if not values:
        raise ValueError(f"compute {name!r}: fcompute returned no values")
    try:
        values = tuple(E.convert(v) for v in values)
    except TypeError:
        raise TypeError(
            f"compute {name!r}: fcompute must return an expression or a tuple of expressions, "
            f"got {body!r}"
        ) from None
    for v in values:
        if _contains_nested_reduce(v):
            raise ValueError(
                f"compute {name!r}: a reduction (te.sum/max/min) must be the whole body, "
                "not part of a larger expression"
            )
    reduces = [isinstance(v, Reduce) for v in values]
    if any(reduces) and not all(reduces):
        raise ValueError(f"compute {name!r}: fcompute mixes reductions and plain expressions")
    if all(reduces) and len(values) > 1:
        for k, v in enumerate(values):
            if v.value_index != k or not v.same_as_except_value_index(values[0]):
                raise ValueError(
                    f"compute {name!r}: the reductions of a multi-output compute must be the "
                    "values of one tuple reduction, in order"
                )
    return values


def compute(shape, fcompute, name: str = "compute", tag: str = "", attrs=None):
    """A tensor whose element at index (i, j, ...) is fcompute(i, j, ...); a list of tensors
    when fcompute returns a tuple (as a tuple reduction such as argmax does)."""
    shape = _shape(shape, f"compute {name!r}")
    if not callable(fcompute):
        raise TypeError(
            f"compute {name!r}: fcompute must be callable, got {type(fcompute).__name__}"
        )
    arg_names = _index_names(name, fcompute, len(shape))
    axis = [
        # The 0 in the extent's dtype: an int64 shape gets int64 loops throughout.
        IterVar(
            E.Range.from_min_extent(E.IntImm(extent.dtype, 0), extent),
            E.Var(arg, extent.dtype),
            IterVar.DataPar,
        )
        for arg, extent in zip(arg_names, shape)
    ]
    body = _check_body(name, fcompute(*[iv.var for iv in axis]))
    op = ComputeOp(name, axis, body, tag, attrs)
    if len(body) == 1:
        outputs = (Tensor(name, shape, body[0].dtype, op),)
    else:
        outputs = tuple(
            Tensor(f"{name}.v{k}", shape, v.dtype, op, k, buffer_name=f"{name}_v{k}")
            for k, v in enumerate(body)
        )
    op._fill_late_field("_outputs", outputs)
    return outputs[0] if len(outputs) == 1 else list(outputs)
