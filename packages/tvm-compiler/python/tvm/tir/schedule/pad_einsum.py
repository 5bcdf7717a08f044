"""pad_einsum: round an einsum block's iteration domain up to multiples of the padding, reading
zero-padded copies of its inputs and writing a padded output copied back after it."""

from __future__ import annotations

from tvm.ir.structural import structural_equal

from .. import expr as E
from ..analysis.access import block_access_regions
from ..buffer import decl_buffer
from ..op import all as all_of
from ..op import if_then_else
from ..stmt import Block, BlockRealize, BufferStore, For, IterVar
from .block_layout import _loop_nest
from .cache import _unique_block_name
from .compute_at import _Accesses
from .scope import ReplaceBuffer, set_top_level, top_index, top_level

PRIMITIVE = "pad_einsum"


def _check_padding(sch, block, padding):
    n = len(block.iter_vars)
    if (
        not isinstance(padding, (list, tuple))
        or len(padding) != n
        or any(isinstance(p, bool) or not isinstance(p, int) or p <= 0 for p in padding)
    ):
        raise sch._error(
            PRIMITIVE,
            f"the padding for the block {block.name_hint!r} is invalid: it should be a list of "
            f"{n} positive integers, got {padding!r}",
        )


def _padded_shape(sch, block, buffer, extents):
    """The shape buffer takes once each iterator indexing it has its padded extent; None when
    it needs no padding. Every access must index it by iterators or constants, the same way."""
    sites = []
    for want_stores in (False, True):
        collector = _Accesses(buffer, want_stores)
        collector.visit(block.body)
        if block.init is not None:
            collector.visit(block.init)
        sites += collector.found
    first = sites[0]
    shape = []
    for axis, index in enumerate(first):
        if any(not _same(s[axis], index) for s in sites):
            raise _not_einsum(sch, block, buffer)
        if isinstance(index, E.Var) and id(index) in extents:
            shape.append(extents[id(index)])
        elif isinstance(index, E.IntImm):
            shape.append(index.value + 1)
        else:
            raise _not_einsum(sch, block, buffer)
    if all(_same_extent(n, d) for n, d in zip(shape, buffer.shape)):
        return None
    return shape


def _same_extent(a, b) -> bool:
    """Whether two extents (ints, constants or the same symbolic expression) are equal."""
    a = a.value if isinstance(a, E.IntImm) else a
    b = b.value if isinstance(b, E.IntImm) else b
    if isinstance(a, int) or isinstance(b, int):
        return a == b
    return structural_equal(a, b)


def _same(a, b) -> bool:
    if isinstance(a, E.IntImm) and isinstance(b, E.IntImm):
        return a.value == b.value
    return a is b


def _not_einsum(sch, block, buffer):
    return sch._error(
        PRIMITIVE,
        f"block {block.name_hint!r} is not an einsum: it must access {buffer.name!r} at its "
        "iterators or constants, the same way everywhere",
    )


def _copy(name, shape, src, dst, value_of):
    # Constant extents get int32 iterators; a symbolic one (a batch) iterators of its type.
    shape = [E.const(int(n), "int32") if isinstance(n, (int, E.IntImm)) else n for n in shape]
    ivs = [
        IterVar(E.Range(E.const(0, n.dtype), n), E.Var(f"v{k}", n.dtype))
        for k, n in enumerate(shape)
    ]
    loops = [E.Var(f"i{k}", n.dtype) for k, n in enumerate(shape)]
    index = [iv.var for iv in ivs]
    body = BufferStore(dst, value_of(index), index)
    reads, writes = block_access_regions(body)
    stmt = BlockRealize(loops, True, Block(ivs, reads, writes, name, body))
    for var, n in reversed(list(zip(loops, shape))):
        stmt = For(var, E.const(0, n.dtype), n, body=stmt)
    return stmt


def pad_einsum(sch, block_rv, padding) -> None:
    path = sch._block_path(block_rv, PRIMITIVE)
    realize = path[-1]
    block = realize.block
    _check_padding(sch, block, padding)
    start, loops = _loop_nest(sch, path, realize, PRIMITIVE, symbolic=True)
    position = top_index(sch, path, PRIMITIVE)
    items = top_level(sch)
    if items[position] is not path[start]:
        raise sch._error(PRIMITIVE, f"the loops of block {block.name_hint!r} must be at the root")
    # A symbolic extent (a batch) is allowed on an iterator that is not padded (padding 1).
    for iv, p in zip(block.iter_vars, padding):
        if not isinstance(iv.dom.min, E.IntImm) or (
            p != 1 and not isinstance(iv.dom.extent, E.IntImm)
        ):
            raise sch._error(PRIMITIVE, f"block {block.name_hint!r} must have constant extents")
    extents = {
        id(iv.var): -(-iv.dom.extent.value // p) * p
        if isinstance(iv.dom.extent, E.IntImm)
        else iv.dom.extent
        for iv, p in zip(block.iter_vars, padding)
    }
    written = {id(w.buffer) for w in block.writes}
    before, after, allocs = [], [], []
    new_block = block
    seen = set()
    for region in (*block.reads, *block.writes):
        buf = region.buffer
        if id(buf) in seen:
            continue
        seen.add(id(buf))
        shape = _padded_shape(sch, block, buf, extents)
        if shape is None:
            continue
        if id(buf) in written and any(
            isinstance(i, E.Var) and iv.is_reduce and i is iv.var
            for i in _store_indices(block, buf)
            for iv in block.iter_vars
        ):
            raise _not_einsum(sch, block, buf)
        padded = decl_buffer(shape, buf.dtype, name=f"{buf.name}_pad", scope=buf.scope)
        allocs.append(padded)
        new_block = ReplaceBuffer(buf, padded).visit(new_block)
        name = _unique_block_name(sch, padded.name)
        if id(buf) in written:
            after.append(_copy(name, buf.shape, padded, buf, lambda idx, p=padded: p[tuple(idx)]))
        else:
            before.append(
                _copy(
                    name,
                    shape,
                    buf,
                    padded,
                    lambda idx, b=buf: if_then_else(
                        all_of(*[i < d for i, d in zip(idx, b.shape)]),
                        b[tuple(idx)],
                        E.const(0, b.dtype),
                    ),
                )
            )
    new_ivs = [
        iv.with_fields(dom=E.Range(iv.dom.min, _extent(extents[id(iv.var)], iv.dom.extent.dtype)))
        for iv in block.iter_vars
    ]
    new_block = new_block.with_fields(iter_vars=tuple(new_ivs))
    reads, writes = block_access_regions(new_block.body, new_block.init, new_block.alloc_buffers)
    new_block = new_block.with_fields(reads=tuple(reads), writes=tuple(writes))
    stmt = realize.with_fields(block=new_block)
    by_var = {id(v): iv for v, iv in zip(realize.iter_values, block.iter_vars)}
    for loop in reversed(loops):
        padded_extent = extents[id(by_var[id(loop.loop_var)].var)]
        stmt = loop.with_fields(extent=_extent(padded_extent, loop.loop_var.dtype), body=stmt)
    items[position : position + 1] = [*before, stmt, *after]
    set_top_level(sch, items, allocs)


def _extent(extent, dtype):
    return E.const(extent, dtype) if isinstance(extent, int) else extent


def _store_indices(block, buffer):
    collector = _Accesses(buffer, True)
    collector.visit(block.body)
    return [i for indices in collector.found for i in indices]
