"""Which buffers a block reads and writes, in order of first access (an access through a
match_buffer view counts as one to the whole region it views, as upstream infers)."""

from __future__ import annotations

from ..expr import Range
from ..functor import StmtExprVisitor
from ..stmt import BufferRegion


class _AccessCollector(StmtExprVisitor):
    def __init__(self):
        self.reads: dict[int, BufferRegion] = {}
        self.writes: dict[int, BufferRegion] = {}
        self.local: set[int] = set()
        self.matched: dict[int, BufferRegion] = {}  # id(view) -> the region it views

    def _record(self, found, buffer, indices):
        source = self.matched.get(id(buffer))
        if source is not None:
            buffer, region = source.buffer, source
        else:
            region = None
        if id(buffer) not in found and id(buffer.data) not in self.local:
            if region is None:
                region = BufferRegion(buffer, [Range.from_min_extent(i, 1) for i in indices])
            found[id(buffer)] = region

    def match(self, match_buffers):
        for match in match_buffers:
            # A view of a view stands for the region of the outermost buffer.
            source = self.matched.get(id(match.source.buffer), match.source)
            self.matched[id(match.buffer)] = source

    def visit_BufferLoad(self, load):
        self._record(self.reads, load.buffer, load.indices)
        self.generic_visit(load)

    def visit_BufferStore(self, store):
        self._record(self.writes, store.buffer, store.indices)
        self.generic_visit(store)

    def visit_Block(self, block):
        self.local.update(id(b.data) for b in block.alloc_buffers)
        self.match(block.match_buffers)
        self.generic_visit(block)


def block_access_regions(body, init=None, alloc_buffers=(), match_buffers=()):
    """(reads, writes) of a block body; a reduction's accumulator (read and written) is a write."""
    collector = _AccessCollector()
    collector.local.update(id(b.data) for b in alloc_buffers)
    collector.match(match_buffers)
    collector.visit(body)
    reads = collector.reads
    if init is not None:
        collector.visit(init)
        reads = {k: v for k, v in reads.items() if k not in collector.writes}
    return list(reads.values()), list(collector.writes.values())
