"""Which buffers a block reads and writes, in order of first access."""

from __future__ import annotations

from ..expr import Range
from ..functor import StmtExprVisitor
from ..stmt import BufferRegion


class _AccessCollector(StmtExprVisitor):
    def __init__(self):
        self.reads: dict[int, BufferRegion] = {}
        self.writes: dict[int, BufferRegion] = {}
        self.local: set[int] = set()

    def visit_BufferLoad(self, load):
        if id(load.buffer) not in self.reads and id(load.buffer.data) not in self.local:
            self.reads[id(load.buffer)] = BufferRegion(
                load.buffer, [Range.from_min_extent(i, 1) for i in load.indices]
            )
        self.generic_visit(load)

    def visit_BufferStore(self, store):
        if id(store.buffer) not in self.writes and id(store.buffer.data) not in self.local:
            self.writes[id(store.buffer)] = BufferRegion(
                store.buffer, [Range.from_min_extent(i, 1) for i in store.indices]
            )
        self.generic_visit(store)

    def visit_Block(self, block):
        self.local.update(id(b.data) for b in block.alloc_buffers)
        self.generic_visit(block)


def block_access_regions(body, init=None, alloc_buffers=()):
    """(reads, writes) of a block body; a reduction's accumulator (read and written) is a write."""
    collector = _AccessCollector()
    collector.local.update(id(b.data) for b in alloc_buffers)
    collector.visit(body)
    reads = collector.reads
    if init is not None:
        collector.visit(init)
        reads = {k: v for k, v in reads.items() if k not in collector.writes}
    return list(reads.values()), list(collector.writes.values())
