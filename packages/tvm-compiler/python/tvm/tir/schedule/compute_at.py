"""compute_at / reverse_compute_at: move a block under a loop, computing the region used there."""

from __future__ import annotations

from tvm.arith import Analyzer
from tvm.arith.linear import to_linear

from .. import expr as E
from ..functor import StmtExprVisitor, substitute
from ..stmt import BlockRealize, For, seq
from .region import RegionError, access_region
from .scope import set_top_level, top_index, top_level
from .tree import find_all, find_path, replace_at


class _Accesses(StmtExprVisitor):
    def __init__(self, buffer, want_stores):
        self.buffer, self.want_stores = buffer, want_stores
        self.found = []

    def visit_BufferLoad(self, load):
        if not self.want_stores and load.buffer is self.buffer:
            self.found.append(load.indices)
        self.generic_visit(load)

    def visit_BufferStore(self, store):
        if self.want_stores and store.buffer is self.buffer:
            self.found.append(store.indices)
        self.generic_visit(store)


def _loop_bindings(root, realize):
    """Loops (var -> (min, extent)) enclosing realize inside root (root itself included)."""
    path = find_path(root, lambda n: n is realize)
    return {n.loop_var: (n.min, n.extent) for n in path if isinstance(n, For)}


def _region_under(sch, primitive, loop, buffer, want_stores):
    """The region of buffer that blocks under loop store to (or load from), per axis."""
    analyzer = Analyzer()
    index_lists = []
    varying = {}
    for realize in find_all(loop, lambda n: isinstance(n, BlockRealize)):
        block = realize.block
        collector = _Accesses(buffer, want_stores)
        collector.visit(block.body)
        if block.init is not None:
            collector.visit(block.init)
        if not collector.found:
            continue
        vmap = {iv.var: value for iv, value in zip(block.iter_vars, realize.iter_values)}
        loops = _loop_bindings(loop, realize)
        del loops[loop.loop_var]
        varying.update(loops)
        index_lists += [[substitute(i, vmap) for i in indices] for indices in collector.found]
    if not index_lists:
        verb = "writes" if want_stores else "reads"
        raise sch._error(
            primitive, f"no block under loop {loop.loop_var.name!r} {verb} buffer {buffer.name!r}"
        )
    try:
        return access_region(index_lists, varying, analyzer)
    except RegionError as err:
        raise sch._error(
            primitive,
            f"cannot determine the region of {buffer.name!r} under loop "
            f"{loop.loop_var.name!r}: {err}",
        ) from None


def _iterator_ranges(sch, primitive, block, buffer, sites, region, analyzer):
    """(start, extent) of each spatial iterator of block whose accesses at sites cover region:
    each index a constant or c * v + b of one iterator v (c > 0, each v in one axis); the
    range over-approximates where c does not divide evenly, which only recomputes points."""
    spatial = {id(iv.var): iv for iv in block.iter_vars if not iv.is_reduce}
    refuse = sch._error(
        primitive,
        f"block {block.name_hint!r} must access {buffer.name!r} at an affine function "
        "(c * v + b, c > 0) of one of its spatial iterators per axis to be moved",
    )
    if not sites or any(
        len(s) != len(sites[0])
        or not all(analyzer.can_prove_equal(a, b) for a, b in zip(s, sites[0]))
        for s in sites
    ):
        raise sch._error(
            primitive,
            f"block {block.name_hint!r} accesses {buffer.name!r} at more than one place; "
            "it cannot be moved",
        )
    ranges = {}
    for index, (start, extent) in zip(sites[0], region):
        form = to_linear(analyzer.simplify(index))
        if not form.terms:
            continue
        if len(form.terms) != 1:
            raise refuse
        ((atom, coeff),) = form.terms.values()
        if id(atom) not in spatial or coeff <= 0 or id(atom) in ranges:
            raise refuse
        offset = start - form.const
        if coeff == 1:
            ranges[id(atom)] = (analyzer.simplify(offset), extent, None)
            continue
        # Exactly the v with c * v + b in [start, start + extent): from ceil(offset / c), at
        # most ceil(extent / c) of them, the last guarded when c does not divide evenly.
        first = analyzer.simplify(E.FloorDiv(offset + (coeff - 1), coeff))
        bound = (coeff, form.const, analyzer.simplify(start + extent))
        ranges[id(atom)] = (first, -(-extent // coeff), bound)
    return ranges


def _moved_nest(sch, primitive, realize, buffer, region, want_store_index, outer_loops):
    """New loops around realize covering region of the buffer it accesses by its spatial iterators;
    outer_loops (the target loop and those around it) bound the region's start."""
    block = realize.block
    collector = _Accesses(buffer, want_store_index)
    collector.visit(block.body)
    analyzer = Analyzer()
    for outer in outer_loops:
        analyzer.bind(outer.loop_var, E.Range.from_min_extent(outer.min, outer.extent))
    ranges = _iterator_ranges(sch, primitive, block, buffer, collector.found, region, analyzer)
    loops, values, preds = [], {}, []
    for iv in block.iter_vars:
        if iv.is_reduce or id(iv.var) not in ranges:
            # Reductions and iterators the buffer's index does not use: their whole domain.
            var = E.Var(f"r{len(loops)}" if iv.is_reduce else f"ax{len(loops)}", iv.var.dtype)
            loops.append((var, iv.dom.extent))
            values[id(iv.var)] = iv.dom.min + var
            continue
        start, extent, bound = ranges[id(iv.var)]
        var = E.Var(f"ax{len(loops)}", iv.var.dtype)
        loops.append((var, E.const(extent, iv.var.dtype)))
        value = analyzer.simplify(start + var)
        values[id(iv.var)] = value
        analyzer.bind(var, E.Range(0, extent))
        guards = [value < iv.dom.min + iv.dom.extent, iv.dom.min <= value]
        if bound is not None:
            coeff, offset, end = bound
            guards.append(value * coeff + offset < end)
        for pred in guards:
            pred = analyzer.simplify(pred)
            if not (isinstance(pred, E.IntImm) and pred.value):
                preds.append(pred)
    iter_values = [values[id(iv.var)] for iv in block.iter_vars]
    predicate = E.IntImm("bool", 1)
    for p in preds:
        predicate = p if (isinstance(predicate, E.IntImm)) else E.And(predicate, p)
    stmt = BlockRealize(iter_values, predicate, block)
    for var, extent in reversed(loops):
        stmt = For(var, 0, extent, body=stmt)
    return stmt


def _move(sch, primitive, block_rv, loop_rv, reverse):
    block_path = sch._block_path(block_rv, primitive)
    loop_path = sch._loop_path(loop_rv, primitive)
    realize, loop = block_path[-1], loop_path[-1]
    block = realize.block
    if any(node is realize for node in find_all(loop, lambda n: isinstance(n, BlockRealize))):
        raise sch._error(
            primitive, f"block {block.name_hint!r} is already under loop {loop.loop_var.name!r}"
        )
    block_pos = top_index(sch, block_path, primitive)
    loop_pos = top_index(sch, loop_path, primitive)
    items = top_level(sch)
    nest = items[block_pos]
    if len(find_all(nest, lambda n: isinstance(n, BlockRealize))) != 1:
        raise sch._error(primitive, f"the loops around block {block.name_hint!r} hold other blocks")
    if reverse and block_pos < loop_pos:
        raise sch._error(
            primitive,
            f"block {block.name_hint!r} runs before loop {loop.loop_var.name!r}; use compute_at",
        )
    if not reverse and block_pos > loop_pos:
        raise sch._error(
            primitive,
            f"block {block.name_hint!r} runs after loop "
            f"{loop.loop_var.name!r}; use reverse_compute_at",
        )
    outer_loops = [n for n in loop_path if isinstance(n, For)]
    if reverse:
        reads = [r.buffer for r in block.reads]
        produced = [b for b in reads if _writes_under(loop, b)]
        if not produced:
            raise sch._error(
                primitive,
                f"block {block.name_hint!r} reads nothing written under "
                f"loop {loop.loop_var.name!r}",
            )
        buffer = produced[0]
        region = _region_under(sch, primitive, loop, buffer, want_stores=True)
        moved = _moved_nest(sch, primitive, realize, buffer, region, False, outer_loops)
        new_loop = loop.with_fields(body=seq(loop.body, moved))
    else:
        if len(block.writes) != 1:
            raise sch._error(primitive, f"block {block.name_hint!r} must write exactly one buffer")
        buffer = block.writes[0].buffer
        region = _region_under(sch, primitive, loop, buffer, want_stores=False)
        moved = _moved_nest(sch, primitive, realize, buffer, region, True, outer_loops)
        new_loop = loop.with_fields(body=seq(moved, loop.body))
    sub_path = loop_path[loop_path.index(items[loop_pos]) :]
    items[loop_pos] = replace_at(sub_path, new_loop)
    del items[block_pos]
    set_top_level(sch, items)


def _writes_under(loop, buffer) -> bool:
    collector = _Accesses(buffer, want_stores=True)
    collector.visit(loop)
    return bool(collector.found)


def compute_at(sch, block_rv, loop_rv):
    _move(sch, "compute_at", block_rv, loop_rv, reverse=False)


def reverse_compute_at(sch, block_rv, loop_rv):
    _move(sch, "reverse_compute_at", block_rv, loop_rv, reverse=True)
