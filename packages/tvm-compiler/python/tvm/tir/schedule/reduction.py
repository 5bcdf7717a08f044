"""decompose_reduction: split a reduction block's init into its own block placed before a loop."""

from __future__ import annotations

from .. import expr as E
from ..analysis.access import block_access_regions
from ..functor import post_order_visit, substitute
from ..stmt import Block, BlockRealize, For, IterVar, seq
from .tree import replace_at


def _vars_in(expr) -> set[int]:
    found = set()
    post_order_visit(expr, lambda n: found.add(id(n)) if isinstance(n, E.Var) else None)
    return found


def _conjuncts(cond):
    if isinstance(cond, E.And):
        return _conjuncts(cond.a) + _conjuncts(cond.b)
    return [] if _is_true(cond) else [cond]


def _is_true(cond) -> bool:
    return isinstance(cond, E.IntImm) and cond.value == 1


def decompose_reduction(sch, block_rv, loop_rv):
    from .schedule import BlockRV

    block_path = sch._block_path(block_rv, "decompose_reduction")
    loop_path = sch._loop_path(loop_rv, "decompose_reduction")
    realize, loop = block_path[-1], loop_path[-1]
    block = realize.block
    if block.init is None:
        raise sch._error(
            "decompose_reduction",
            f"block {block.name_hint!r} is not a reduction block (it has no init)",
        )
    if not any(node is loop for node in block_path):
        raise sch._error(
            "decompose_reduction",
            f"loop {loop.loop_var.name!r} does not enclose block {block.name_hint!r}",
        )
    inner_loops = [n for n in block_path[block_path.index(loop) :] if isinstance(n, For)]
    reduce_vars: set[int] = set()
    for iv, value in zip(block.iter_vars, realize.iter_values):
        if iv.is_reduce:
            reduce_vars |= _vars_in(value)
    # Loops that only drive spatial iterators are copied around the init block.
    copied = [lp for lp in inner_loops if id(lp.loop_var) not in reduce_vars]
    vmap = {lp.loop_var: E.Var(lp.loop_var.name + "_init", lp.loop_var.dtype) for lp in copied}
    inner_ids = {id(lp.loop_var) for lp in inner_loops}
    copied_ids = {id(lp.loop_var) for lp in copied}
    init_iters, init_values, block_map = [], [], {}
    for iv, value in zip(block.iter_vars, realize.iter_values):
        if iv.is_reduce:
            continue
        used = _vars_in(value)
        if used & inner_ids - copied_ids:
            raise sch._error(
                "decompose_reduction",
                f"spatial iterator {iv.var.name!r} of block "
                f"{block.name_hint!r} depends on a reduction loop",
            )
        new_var = E.Var(iv.var.name + "_init", iv.var.dtype)
        init_iters.append(IterVar(iv.dom, new_var, IterVar.DataPar))
        init_values.append(substitute(value, vmap))
        block_map[iv.var] = new_var
    # Conditions on reduction loops do not apply to the init; the others carry over.
    init_pred = E.IntImm("bool", 1)
    for cond in _conjuncts(realize.predicate):
        if not _vars_in(cond) & (inner_ids - copied_ids):
            cond = substitute(cond, vmap)
            init_pred = cond if _is_true(init_pred) else E.And(init_pred, cond)
    init_body = substitute(block.init, block_map)
    reads, writes = block_access_regions(init_body)
    init_block = Block(init_iters, reads, writes, f"{block.name_hint}_init", init_body)
    stmt = BlockRealize(init_values, init_pred, init_block)
    for lp in reversed(copied):
        stmt = For(
            vmap[lp.loop_var],
            lp.min,
            lp.extent,
            lp.kind,
            stmt,
            lp.annotations,
            thread_binding=lp.thread_binding,
        )
    body = replace_at(
        block_path[block_path.index(loop) :],
        realize.with_fields(block=block.with_fields(init=None)),
    )
    new_loop_stmt = seq(stmt, body)
    sch._set_body(replace_at(loop_path, new_loop_stmt))
    return BlockRV(init_block.name_hint)
