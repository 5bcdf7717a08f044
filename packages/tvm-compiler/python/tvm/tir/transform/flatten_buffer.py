"""FlattenBuffer: turn multi-dimensional buffer accesses into one-dimensional ones."""

from __future__ import annotations

from .. import expr as E
from ..buffer import Buffer
from ..functor import StmtExprMutator
from ..stmt import BufferStore


def flat_buffer(buf: Buffer) -> Buffer:
    """The one-dimensional view over the same data (the buffer itself when already flat)."""
    if buf.axis_separators:
        raise ValueError(
            f"FlattenBuffer: buffer {buf.name!r} has axis_separators "
            f"{list(buf.axis_separators)} (Schedule.set_axis_separator), a multi-dimensional "
            "physical buffer; the C backend supports flat (one-dimensional) buffers only"
        )
    if len(buf.shape) == 1 and not buf.strides:
        return buf
    extent = buf.num_elements()
    if buf.strides:
        extent = E.const(1, extent.dtype)
        for dim, stride in zip(buf.shape, buf.strides):
            extent = extent + (dim - 1) * stride
    return Buffer(
        buf.data, buf.dtype, (extent,), (), buf.elem_offset, buf.name, buf.scope, buf.data_alignment
    )


def flat_index(buf: Buffer, indices):
    offset = None
    for index, stride in zip(indices, buf.elem_strides()):
        term = index * stride if not (isinstance(stride, E.IntImm) and stride.value == 1) else index
        offset = term if offset is None else offset + term
    return offset if offset is not None else E.const(0)


class _Flattener(StmtExprMutator):
    def __init__(self):
        self.flat: dict[int, Buffer] = {}

    def _flat(self, buf):
        key = id(buf)
        if key not in self.flat:
            self.flat[key] = flat_buffer(buf)
        return self.flat[key]

    def visit_BufferLoad(self, load):
        indices = tuple(self.visit(i) for i in load.indices)
        flat = self._flat(load.buffer)
        if flat is load.buffer:
            return (
                load
                if all(a is b for a, b in zip(indices, load.indices))
                else E.BufferLoad(flat, indices)
            )
        return E.BufferLoad(flat, [flat_index(load.buffer, indices)])

    def visit_BufferStore(self, store):
        indices = tuple(self.visit(i) for i in store.indices)
        value = self.visit(store.value)
        flat = self._flat(store.buffer)
        if flat is store.buffer:
            if all(a is b for a, b in zip(indices, store.indices)):
                indices = store.indices  # unchanged: keep the node itself (copy-on-write)
            return store.with_fields(value=value, indices=indices)
        return BufferStore(flat, value, [flat_index(store.buffer, indices)])

    def visit_DeclBuffer(self, decl):
        return decl.with_fields(buffer=self._flat(decl.buffer), body=self.visit(decl.body))


def flatten_buffer(func):
    return func.with_body(_Flattener().visit(func.body))
