"""cache_inplace (stage a buffer a block reads and writes through a cache, copied in before and
out after) and reindex (give one of a block's buffers a copy indexed by the block's iterators)."""

from __future__ import annotations

from tvm.ir.structural import structural_equal

from .. import expr as E
from ..analysis.access import block_access_regions
from ..buffer import decl_buffer
from ..functor import StmtExprMutator, substitute
from ..stmt import Block, BlockRealize, BufferStore, For, IterVar
from .cache import _check_scope, _copy_nest, _unique_block_name
from .compute_at import _Accesses
from .reduction import _vars_in
from .scope import ReplaceBuffer, set_top_level, top_index, top_level
from .tree import replace_at


def _replace_block(sch, path, new_block, before=(), after=(), allocs=()):
    """Swap the block at the end of path, with statements put around its root-level nest."""
    position = top_index(sch, path, "schedule")
    items = top_level(sch)
    sub_path = path[path.index(items[position]) :]
    items[position] = replace_at(sub_path, path[-1].with_fields(block=new_block))
    items[position : position + 1] = [*before, items[position], *after]
    set_top_level(sch, items, allocs)


def cache_inplace(sch, block_rv, read_buffer_index, storage_scope):
    from .schedule import BlockRV

    _check_scope(sch, "cache_inplace", storage_scope)
    path = sch._block_path(block_rv, "cache_inplace")
    block = path[-1].block
    if not isinstance(read_buffer_index, int) or not 0 <= read_buffer_index < len(block.reads):
        raise sch._error(
            "cache_inplace",
            f"block {block.name_hint!r} reads {len(block.reads)} buffers; "
            f"read_buffer_index {read_buffer_index!r} is out of range",
        )
    buf = block.reads[read_buffer_index].buffer
    if not any(w.buffer is buf for w in block.writes):
        raise sch._error(
            "cache_inplace",
            f"block {block.name_hint!r} does not both read and write buffer {buf.name!r}",
        )
    cached = decl_buffer(
        buf.shape, buf.dtype, name=f"{buf.name}_{storage_scope}", scope=storage_scope
    )
    new_block = ReplaceBuffer(buf, cached).visit(block)
    read_name = _unique_block_name(sch, cached.name)
    copy_in = _copy_nest(read_name, buf, cached)
    names = {*sch.block_names(), read_name}
    write_name, n = f"{cached.name}_1", 2
    while write_name in names:
        write_name, n = f"{cached.name}_{n}", n + 1
    copy_out = _copy_nest(write_name, cached, buf)
    _replace_block(sch, path, new_block, [copy_in], [copy_out], [cached])
    return [BlockRV(read_name), BlockRV(write_name)]


class _Reindex(StmtExprMutator):
    def __init__(self, old, new, index):
        self.old, self.new, self.index = old, new, index

    def visit_BufferLoad(self, load):
        if load.buffer is self.old:
            return E.BufferLoad(self.new, self.index)
        return self.generic_visit(load)

    def visit_BufferStore(self, store):
        if store.buffer is self.old:
            return BufferStore(self.new, self.visit(store.value), self.index)
        return self.generic_visit(store)


def _buffer_of(sch, block, buffer, primitive="reindex"):
    if isinstance(buffer, str):
        for region in (*block.reads, *block.writes):
            if region.buffer.name == buffer:
                is_write = any(w.buffer is region.buffer for w in block.writes)
                return region.buffer, is_write
        raise sch._error(primitive, f"block {block.name_hint!r} accesses no buffer {buffer!r}")
    if not (isinstance(buffer, (tuple, list)) and len(buffer) == 2):
        raise TypeError(
            f"{primitive}: argument 'buffer' must be a buffer name or ('read' | 'write', index), "
            f"got {buffer!r}"
        )
    kind, index = buffer
    if kind not in ("read", "write"):
        raise sch._error(primitive, f"the buffer kind must be 'read' or 'write', got {kind!r}")
    regions = block.reads if kind == "read" else block.writes
    if not isinstance(index, int) or not 0 <= index < len(regions):
        raise sch._error(
            primitive,
            f"block {block.name_hint!r} has {len(regions)} {kind} buffers; "
            f"index {index!r} is out of range",
        )
    return regions[index].buffer, kind == "write"


def reindex(sch, block_rv, buffer):
    from .schedule import BlockRV

    path = sch._block_path(block_rv, "reindex")
    block = path[-1].block
    buf, is_write = _buffer_of(sch, block, buffer)
    collector = _Accesses(buf, want_stores=is_write)
    collector.visit(block.body)
    sites = collector.found
    if not sites or any(
        not all(structural_equal(x, y) for x, y in zip(a, sites[0])) for a in sites
    ):
        raise sch._error(
            "reindex", f"block {block.name_hint!r} accesses {buf.name!r} at different indices"
        )
    used = set().union(*(_vars_in(i) for i in sites[0]))
    iters = [iv for iv in block.iter_vars if id(iv.var) in used]
    new_buf = decl_buffer(
        [iv.dom.extent for iv in iters], buf.dtype, name=f"{buf.name}_reindex", scope=buf.scope
    )
    index = [iv.var for iv in iters]
    new_block = _Reindex(buf, new_buf, index).visit(block)
    if new_block.init is not None:
        new_block = new_block.with_fields(init=_Reindex(buf, new_buf, index).visit(block.init))
    reads, writes = block_access_regions(new_block.body)
    new_block = new_block.with_fields(reads=tuple(reads), writes=tuple(writes))
    # The copy: over the iterators' domains, between buf at the block's indices and new_buf.
    copy_iters = [IterVar(iv.dom, E.Var(f"v{k}", iv.var.dtype)) for k, iv in enumerate(iters)]
    loop_vars = [E.Var(f"ax{k}", iv.var.dtype) for k, iv in enumerate(iters)]
    vmap = {iv.var: c.var for iv, c in zip(iters, copy_iters)}
    orig = [substitute(i, vmap) for i in sites[0]]
    mine = [c.var for c in copy_iters]
    body = (
        BufferStore(buf, new_buf[tuple(mine)], orig)
        if is_write
        else BufferStore(new_buf, buf[tuple(orig)], mine)
    )
    r, w = block_access_regions(body)
    name = _unique_block_name(sch, new_buf.name)
    stmt = BlockRealize(loop_vars, True, Block(copy_iters, r, w, name, body))
    for var, iv in reversed(list(zip(loop_vars, iters))):
        stmt = For(var, iv.dom.min, iv.dom.extent, body=stmt)
    before, after = ([], [stmt]) if is_write else ([stmt], [])
    _replace_block(sch, path, new_block, before, after, [new_buf])
    return BlockRV(name)
