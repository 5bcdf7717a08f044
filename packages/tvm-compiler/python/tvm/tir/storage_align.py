"""Storage alignment: give buffers named by blocks' "buffer_dim_align" annotations (set by
Schedule.storage_align) padded strides, so that FlattenBuffer indexes them with those strides."""

from __future__ import annotations

from . import expr as E
from .buffer import Buffer
from .functor import StmtExprMutator, post_order_visit
from .stmt import Block

ANNOTATION = "buffer_dim_align"


def aligned_strides(buf: Buffer, aligns: dict[int, tuple[int, int]]) -> tuple:
    """Row-major strides where each axis in aligns gets the next stride s with
    s % factor == offset (innermost axis first, as each stride builds on the one inside)."""
    strides = []
    stride = E.const(1, "int32")
    for axis in reversed(range(len(buf.shape))):
        if axis in aligns:
            factor, offset = aligns[axis]
            stride = stride + (factor + offset - stride % factor) % factor
        strides.append(stride)
        stride = stride * buf.shape[axis]
    return tuple(reversed(strides))


class _Restride(StmtExprMutator):
    def __init__(self, new_of: dict[int, Buffer]):
        self.new_of = new_of

    def _buf(self, buf):
        return self.new_of.get(id(buf), buf)

    def visit_BufferLoad(self, load):
        load = self.generic_visit(load)
        return load.with_fields(buffer=self._buf(load.buffer))

    def visit_BufferStore(self, store):
        store = self.generic_visit(store)
        return store.with_fields(buffer=self._buf(store.buffer))

    def visit_BufferRegion(self, region):
        return region.with_fields(buffer=self._buf(region.buffer))

    def visit_Block(self, block):
        block = self.generic_visit(block)
        return block.with_fields(alloc_buffers=tuple(self._buf(b) for b in block.alloc_buffers))


def apply_storage_align(func):
    from tvm.arith import Analyzer

    aligns: dict[int, tuple[Buffer, dict]] = {}

    def collect(node):
        if isinstance(node, Block):
            for index, axis, factor, offset in node.annotations.get(ANNOTATION, ()):
                buf = node.writes[index].buffer
                aligns.setdefault(id(buf), (buf, {}))[1][axis] = (factor, offset)

    post_order_visit(func.body, collect)
    if not aligns:
        return func
    analyzer = Analyzer()
    new_of = {}
    for buf, per_axis in aligns.values():
        strides = [analyzer.simplify(s) for s in aligned_strides(buf, per_axis)]
        new_of[id(buf)] = buf.with_fields(strides=tuple(strides))
    return func.with_body(_Restride(new_of).visit(func.body))
