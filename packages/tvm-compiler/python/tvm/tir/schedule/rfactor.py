"""rfactor: factor a reduction over one loop into a partial-result block and a write-back block."""

from __future__ import annotations

from tvm.ir.structural import structural_equal

from .. import expr as E
from ..analysis.access import block_access_regions
from ..buffer import decl_buffer
from ..functor import substitute
from ..stmt import Block, BlockRealize, BufferStore, For, IterVar
from .cache import _unique_block_name
from .reduction import _conjuncts, _is_true, _vars_in
from .scope import set_top_level, top_index, top_level
from .tree import enclosing_loops, find_all, find_path, replace_at

_COMBINERS = (E.Add, E.Mul, E.Min, E.Max)


def _same_access(load, store) -> bool:
    return (
        isinstance(load, E.BufferLoad)
        and load.buffer is store.buffer
        and all(structural_equal(a, b) for a, b in zip(load.indices, store.indices))
    )


def _reduction_parts(sch, block):
    """(store, combiner class, the value combined in, init value), or a ScheduleError."""
    store, init = block.body, block.init
    ok = (
        isinstance(store, BufferStore)
        and isinstance(init, BufferStore)
        and init.buffer is store.buffer
        and len(block.writes) == 1
        and type(store.value) in _COMBINERS
    )
    if ok:
        a, b = store.value.a, store.value.b
        if _same_access(a, store):
            return store, type(store.value), b, init.value
        if _same_access(b, store):
            return store, type(store.value), a, init.value
    raise sch._error(
        "rfactor",
        f"block {block.name_hint!r} is not a reduction block of the form "
        "`buf[idx] = buf[idx] op value` (op one of +, *, min, max) with an init",
    )


def _fresh(var, prefix="") -> E.Var:
    return E.Var(prefix + var.name, var.dtype)


def rfactor(sch, loop_rv, factor_axis):
    from .schedule import BlockRV

    loop = sch._loop_path(loop_rv, "rfactor")[-1]
    name = loop.loop_var.name
    realizes = find_all(loop, lambda n: isinstance(n, BlockRealize))
    if len(realizes) != 1:
        raise sch._error(
            "rfactor", f"loop {name!r} must hold exactly one block, it holds {len(realizes)}"
        )
    realize = realizes[0]
    block = realize.block
    store, combiner, value, init_value = _reduction_parts(sch, block)
    buf = store.buffer
    if isinstance(factor_axis, bool) or not isinstance(factor_axis, int):
        raise TypeError(f"rfactor: argument 'factor_axis' must be an int, got {factor_axis!r}")
    ndim = len(buf.shape)
    if not -(ndim + 1) <= factor_axis <= ndim:
        raise sch._error(
            "rfactor",
            f"the write buffer {buf.name} has {ndim} dimension(s), so factor_axis must be in "
            f"[{-(ndim + 1)}, {ndim}]; got {factor_axis}",
        )
    axis = factor_axis + ndim + 1 if factor_axis < 0 else factor_axis
    pairs = list(zip(block.iter_vars, realize.iter_values))
    lv = id(loop.loop_var)
    if any(not iv.is_reduce and lv in _vars_in(v) for iv, v in pairs):
        raise sch._error(
            "rfactor",
            f"loop {name!r} is bound to a spatial iterator of block {block.name_hint!r}; "
            "it must drive reduction iterators only",
        )
    reduce_loop_ids = set()
    for iv, v in pairs:
        if iv.is_reduce:
            reduce_loop_ids |= _vars_in(v)
    if lv not in reduce_loop_ids:
        raise sch._error(
            "rfactor", f"loop {name!r} is not bound to a reduction iterator of {block.name_hint!r}"
        )
    block_path = find_path(sch.func.body, lambda n: n is realize)
    position = top_index(sch, block_path, "rfactor")
    items = top_level(sch)
    if len(find_all(items[position], lambda n: isinstance(n, BlockRealize))) != 1:
        raise sch._error("rfactor", f"the loops around block {block.name_hint!r} hold other blocks")
    loops = enclosing_loops(block_path)

    # The partial-result block: the factored loop becomes a spatial iterator, the other
    # reduction loops reduction iterators of their own; it writes buf with one more axis.
    rf_iter = IterVar(E.Range.from_min_extent(loop.min, loop.extent), _fresh(loop.loop_var, "v"))
    iters, values, vmap = [rf_iter], [loop.loop_var], {loop.loop_var: rf_iter.var}
    spatial = [(iv, v) for iv, v in pairs if not iv.is_reduce]
    for iv, v in spatial:
        iters.append(IterVar(iv.dom, _fresh(iv.var), IterVar.DataPar))
        values.append(v)
    for other in loops:
        if id(other.loop_var) in reduce_loop_ids and other is not loop:
            new = IterVar(
                E.Range.from_min_extent(other.min, other.extent),
                _fresh(other.loop_var, "v"),
                IterVar.CommReduce,
            )
            iters.append(new)
            values.append(other.loop_var)
            vmap[other.loop_var] = new.var
    bmap = {iv.var: new.var for (iv, _), new in zip(spatial, iters[1:])}
    for iv, v in pairs:
        if iv.is_reduce:
            bmap[iv.var] = substitute(v, vmap)
    shape = list(buf.shape)
    shape.insert(axis, loop.extent)
    rf_buf = decl_buffer(shape, buf.dtype, name=f"{buf.name}_rf", scope=buf.scope)
    rf_index = [substitute(i, bmap) for i in store.indices]
    rf_index.insert(axis, rf_iter.var)
    rhs = substitute(value, bmap)
    has_reduce = any(it.is_reduce for it in iters)
    rf_body = BufferStore(
        rf_buf, combiner(rf_buf[tuple(rf_index)], rhs) if has_reduce else rhs, rf_index
    )
    rf_init = BufferStore(rf_buf, init_value, rf_index) if has_reduce else None
    reads, writes = block_access_regions(rf_body)
    rf_name = _unique_block_name(sch, f"{block.name_hint}_rf")
    rf_block = Block(iters, reads, writes, rf_name, rf_body, rf_init, annotations=block.annotations)
    rf_nest = replace_at(
        block_path[block_path.index(items[position]) :],
        BlockRealize(values, realize.predicate, rf_block),
    )

    # The write-back block: reduces the partial results over the factored loop into buf.
    kept = [lp for lp in loops if lp is loop or id(lp.loop_var) not in reduce_loop_ids]
    lmap = {lp.loop_var: _fresh(lp.loop_var) for lp in kept}
    wb_rf = IterVar(rf_iter.dom, _fresh(loop.loop_var, "v"), IterVar.CommReduce)
    wb_iters, wb_values = [wb_rf], [lmap[loop.loop_var]]
    wmap = {}
    for iv, v in spatial:
        new = IterVar(iv.dom, _fresh(iv.var), IterVar.DataPar)
        wb_iters.append(new)
        wb_values.append(substitute(v, lmap))
        wmap[iv.var] = new.var
    out_index = [substitute(i, wmap) for i in store.indices]
    part_index = list(out_index)
    part_index.insert(axis, wb_rf.var)
    wb_body = BufferStore(
        buf, combiner(buf[tuple(out_index)], rf_buf[tuple(part_index)]), out_index
    )
    wb_init = BufferStore(buf, init_value, out_index)
    reads, writes = block_access_regions(wb_body)
    wb_block = Block(
        wb_iters, reads, writes, block.name_hint, wb_body, wb_init, annotations=block.annotations
    )
    kept_ids = {id(v) for v in lmap}
    dropped = {id(lp.loop_var) for lp in loops} - kept_ids
    predicate = E.IntImm("bool", 1)
    for cond in _conjuncts(realize.predicate):
        if not _vars_in(cond) & dropped:
            cond = substitute(cond, lmap)
            predicate = cond if _is_true(predicate) else E.And(predicate, cond)
    wb_nest = BlockRealize(wb_values, predicate, wb_block)
    for lp in reversed(kept):
        wb_nest = For(
            lmap[lp.loop_var],
            lp.min,
            lp.extent,
            lp.kind,
            wb_nest,
            lp.annotations,
            thread_binding=lp.thread_binding,
        )
    items[position : position + 1] = [rf_nest, wb_nest]
    set_top_level(sch, items, [rf_buf])
    return BlockRV(rf_name)
