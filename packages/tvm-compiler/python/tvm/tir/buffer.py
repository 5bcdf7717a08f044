"""Buffers: a typed, shaped view of memory reached through a data pointer variable."""

from __future__ import annotations

from tvm.ir.dtype import DataType
from tvm.ir.node import Node

from .expr import BufferLoad, IntImm, PrimExpr, Var, const, convert


class Buffer(Node):
    """Shape, strides (empty: compact row-major), element offset, scope and alignment of memory.

    Buffers are compared by identity in maps; structurally by their fields.
    """

    _fields = (
        "data",
        "dtype",
        "shape",
        "strides",
        "elem_offset",
        "scope",
        "data_alignment",
        "axis_separators",
    )
    _key_namespace = "tir"
    _ignored_fields = ("span", "name")
    __hash__ = object.__hash__

    def __init__(
        self,
        data,
        dtype,
        shape,
        strides=(),
        elem_offset=0,
        name="buffer",
        scope="global",
        data_alignment=-1,
        span=None,
        axis_separators=(),
    ):
        if not isinstance(data, Var) or not data.dtype.is_handle:
            raise TypeError(f"Buffer {name!r}: data must be a handle Var, got {data!r}")
        dtype = DataType(dtype)
        shape = tuple(_index(s, name, "shape") for s in shape)
        strides = tuple(_index(s, name, "strides") for s in (strides or ()))
        if strides and len(strides) != len(shape):
            raise ValueError(f"Buffer {name!r}: {len(strides)} strides for {len(shape)} dimensions")
        for s in shape:
            if isinstance(s, IntImm) and s.value < 0:
                raise ValueError(f"Buffer {name!r}: negative dimension {s.value} in shape")
        if data_alignment == -1:
            data_alignment = dtype.bytes
        if (
            not isinstance(data_alignment, int)
            or data_alignment <= 0
            or data_alignment & (data_alignment - 1)
        ):
            raise ValueError(
                f"Buffer {name!r}: data_alignment must be a power of two, got {data_alignment!r}"
            )
        if not isinstance(scope, str):
            raise TypeError(f"Buffer {name!r}: scope must be a str, got {scope!r}")
        self._set(
            data=data,
            dtype=dtype,
            shape=shape,
            strides=strides,
            elem_offset=_index(elem_offset, name, "elem_offset"),
            name=name,
            scope=scope,
            data_alignment=data_alignment,
            span=span,
            # Axes where a new physical dimension starts (Schedule.set_axis_separator).
            axis_separators=tuple(int(a) for a in axis_separators),
        )

    def __getitem__(self, indices) -> BufferLoad:
        if not isinstance(indices, tuple):
            indices = (indices,)
        return BufferLoad(self, indices)

    def vload(self, indices) -> BufferLoad:
        return BufferLoad(self, indices)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def elem_strides(self) -> tuple[PrimExpr, ...]:
        """Strides in elements: the declared ones, else those of a compact row-major layout."""
        if self.strides:
            return self.strides
        strides = []
        acc: PrimExpr = const(1, _index_dtype(self.shape))
        for extent in reversed(self.shape):
            strides.append(acc)
            acc = acc * extent
        return tuple(reversed(strides))

    def num_elements(self) -> PrimExpr:
        acc: PrimExpr = const(1, _index_dtype(self.shape))
        for extent in self.shape:
            acc = acc * extent
        return acc


def _index_dtype(shape) -> str:
    total = 1
    for s in shape:
        if not isinstance(s, IntImm):
            return "int64"
        total *= max(s.value, 1)
    return "int32" if total < 2**31 else "int64"


def _index(value, name, what) -> PrimExpr:
    expr = convert(value)
    if not expr.dtype.is_integer:
        raise TypeError(f"Buffer {name!r}: {what} entries must be integers, got {expr!r}")
    return expr


def decl_buffer(
    shape,
    dtype="float32",
    name="buffer",
    data=None,
    strides=None,
    elem_offset=0,
    scope="global",
    data_alignment=-1,
) -> Buffer:
    """A new Buffer with its own data variable (unless data is given)."""
    if not isinstance(shape, (list, tuple)):
        shape = (shape,)
    if data is None:
        data = Var(name, "handle")
    return Buffer(data, dtype, shape, strides or (), elem_offset, name, scope, data_alignment)
