"""cache_read and cache_write: stage a block's input or output through a new buffer."""

from __future__ import annotations

from .. import expr as E
from ..buffer import decl_buffer
from ..stmt import Block, BlockRealize, BufferStore, For, IterVar
from .scope import ReplaceBuffer, set_top_level, top_index, top_level


def _copy_nest(name, src, dst):
    """Loops and a block copying every element of src into dst (same shape)."""
    iter_vars, loop_vars = [], []
    for axis, extent in enumerate(src.shape):
        iter_vars.append(IterVar(E.Range(0, extent), E.Var(f"v{axis}", extent.dtype)))
        loop_vars.append(E.Var(f"ax{axis}", extent.dtype))
    index = [iv.var for iv in iter_vars]
    body = BufferStore(dst, src[tuple(index)], index)
    from ..analysis.access import block_access_regions

    reads, writes = block_access_regions(body)
    stmt = BlockRealize(loop_vars, True, Block(iter_vars, reads, writes, name, body))
    for var, extent in reversed(list(zip(loop_vars, src.shape))):
        stmt = For(var, 0, extent, body=stmt)
    return stmt


def _unique_block_name(sch, base):
    names = set(sch.block_names())
    name, n = base, 1
    while name in names:
        name = f"{base}_{n}"
        n += 1
    return name


def _check_scope(sch, primitive, scope):
    if not isinstance(scope, str) or scope not in ("global", "local", "shared"):
        raise sch._error(
            primitive, f"storage_scope must be 'global', 'local' or 'shared', got {scope!r}"
        )


def _stage(sch, primitive, block_rv, index, scope, regions, kind):
    from .schedule import BlockRV

    _check_scope(sch, primitive, scope)
    path = sch._block_path(block_rv, primitive)
    block = path[-1].block
    regions = getattr(block, regions)
    if not isinstance(index, int) or not 0 <= index < len(regions):
        raise sch._error(
            primitive,
            f"block {block.name_hint!r} {kind} {len(regions)} buffers; "
            f"index {index!r} is out of range",
        )
    buffer = regions[index].buffer
    cached = decl_buffer(buffer.shape, buffer.dtype, name=f"{buffer.name}_{scope}", scope=scope)
    new_block = ReplaceBuffer(buffer, cached).visit(block)
    position = top_index(sch, path, primitive)
    from .tree import replace_at

    items = top_level(sch)
    sub_path = path[path.index(items[position]) :]
    items[position] = replace_at(sub_path, path[-1].with_fields(block=new_block))
    name = _unique_block_name(sch, f"{buffer.name}_{scope}")
    if primitive == "cache_read":
        items.insert(position, _copy_nest(name, buffer, cached))
    else:
        items.insert(position + 1, _copy_nest(name, cached, buffer))
    set_top_level(sch, items, [cached])
    return BlockRV(name)


def cache_read(sch, block_rv, read_buffer_index, storage_scope):
    return _stage(sch, "cache_read", block_rv, read_buffer_index, storage_scope, "reads", "reads")


def cache_write(sch, block_rv, write_buffer_index, storage_scope):
    return _stage(
        sch, "cache_write", block_rv, write_buffer_index, storage_scope, "writes", "writes"
    )
