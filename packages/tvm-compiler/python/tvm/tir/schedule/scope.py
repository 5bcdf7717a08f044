"""The root scope of a scheduled function: its top-level statements and allocations."""

from __future__ import annotations

from .. import expr as E
from ..buffer import Buffer
from ..functor import StmtExprMutator
from ..stmt import Block, BlockRealize, BufferRegion, BufferStore, SeqStmt, seq


def root_block(sch) -> Block:
    body = sch.func.body
    if not (isinstance(body, BlockRealize) and body.block.name_hint == "root"):
        raise sch._error(
            "schedule", "the function has no root block (make it with te.create_prim_func)"
        )
    return body.block


def top_level(sch) -> list:
    body = root_block(sch).body
    return list(body.seq) if isinstance(body, SeqStmt) else [body]


def top_index(sch, path: list, primitive: str) -> int:
    """Index among the top-level statements of the one that path goes through."""
    items = top_level(sch)
    for node in path:
        for i, item in enumerate(items):
            if item is node:
                return i
    raise sch._error(primitive, "the block is not inside the root scope")


def set_top_level(sch, items, extra_allocs=()) -> None:
    root = root_block(sch)
    new_root = root.with_fields(
        body=seq(*items), alloc_buffers=root.alloc_buffers + tuple(extra_allocs)
    )
    sch._set_body(sch.func.body.with_fields(block=new_root))


class ReplaceBuffer(StmtExprMutator):
    """Use buffer new wherever old is loaded or stored."""

    def __init__(self, old: Buffer, new: Buffer):
        self.old, self.new = old, new

    def visit_BufferLoad(self, load):
        indices = tuple(self.visit(i) for i in load.indices)
        if load.buffer is self.old:
            return E.BufferLoad(self.new, indices)
        return load.with_fields(indices=indices)

    def visit_BufferStore(self, store):
        value = self.visit(store.value)
        indices = tuple(self.visit(i) for i in store.indices)
        if store.buffer is self.old:
            return BufferStore(self.new, value, indices)
        return store.with_fields(value=value, indices=indices)

    def visit_BufferRegion(self, region):
        if region.buffer is self.old:
            return BufferRegion(self.new, region.region)
        return region
