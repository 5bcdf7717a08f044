"""blockize: wrap a loop nest (or consecutive blocks) in an outer block whose iterators are the
parts of the inner blocks' bindings that the wrapped loops do not cover."""

from __future__ import annotations

from tvm.arith import Analyzer
from tvm.arith.linear import from_linear, to_linear

from .. import expr as E
from ..analysis.access import block_access_regions
from ..functor import StmtExprVisitor, substitute
from ..stmt import Block, BlockRealize, BufferRegion, For, IterVar, SeqStmt, seq
from .cache import _unique_block_name
from .region import RegionError, access_region
from .tree import find_all, find_path, replace_at

PRIMITIVE = "blockize"


class _Division:
    """One block iterator v = outer * extent + inner: outer in the loops outside the wrapped
    region, inner in the loops inside it (ranging densely over [0, extent))."""

    def __init__(self, iv, outer, inner, extent):
        self.iv, self.outer, self.inner, self.extent = iv, outer, inner, extent


def _divide(sch, realize, inner_loops: dict, where: str) -> list[_Division]:
    analyzer = Analyzer()
    block = realize.block
    out = []
    for iv, value in zip(block.iter_vars, realize.iter_values):
        form = to_linear(analyzer.simplify(value))
        inner_terms, outer = [], form.copy()
        for key, (atom, coeff) in form.terms.items():
            if isinstance(atom, E.Var) and id(atom) in inner_loops:
                inner_terms.append((coeff, inner_loops[id(atom)], atom))
                del outer.terms[key]
            elif _uses_any(atom, inner_loops):
                raise _cannot(sch, block, where)
        inner_terms.sort(key=lambda t: t[0])
        extent = 1
        for coeff, loop_extent, _atom in inner_terms:  # mixed radix: dense over [0, extent)
            if coeff != extent:
                raise _cannot(sch, block, where)
            extent *= loop_extent
        dom_extent = iv.dom.extent
        if (
            not isinstance(iv.dom.min, E.IntImm)
            or iv.dom.min.value != 0
            or not isinstance(dom_extent, E.IntImm)
            or dom_extent.value % extent
            or outer.const % extent
            or any(c % extent for _a, c in outer.terms.values())
        ):
            raise _cannot(sch, block, where)
        outer = outer.scale(1) if extent == 1 else _divided(outer, extent)
        inner = E.const(0, iv.var.dtype)
        for coeff, _ext, atom in inner_terms:
            term = atom if coeff == 1 else atom * coeff
            inner = term if _is_zero(inner) else inner + term
        out.append(_Division(iv, analyzer.simplify(from_linear(outer)), inner, extent))
    return out


def _divided(form, factor):
    form = form.copy()
    for entry in form.terms.values():
        entry[1] //= factor
    form.const //= factor
    return form


def _is_zero(e) -> bool:
    return isinstance(e, E.IntImm) and e.value == 0


def _uses_any(expr, var_ids) -> bool:
    found = []

    class _Find(StmtExprVisitor):
        def visit_Var(self, var):
            if id(var) in var_ids:
                found.append(var)

    _Find().visit(expr)
    return bool(found)


def _cannot(sch, block, where):
    return sch._error(
        PRIMITIVE,
        f"the bindings of the inner block {block.name_hint!r} can not be blockized by the "
        f"loops starting at {where}",
    )


def _inner_loops(stmt) -> dict:
    return {
        id(n.loop_var): n.extent.value
        for n in find_all(stmt, lambda n: isinstance(n, For))
        if isinstance(n.extent, E.IntImm) and isinstance(n.min, E.IntImm) and n.min.value == 0
    }


def _outer_iters(sch, divisions_per_block, preserve_unit_iters):
    """The outer block's iterators (one per distinct outer part, shared by blocks whose
    iterators divide the same way) and, per block, the outer var of each of its iterators."""
    from tvm.ir.structural import structural_equal

    iters, values, per_block = [], [], []
    for divisions in divisions_per_block:
        chosen = []
        for d in divisions:
            outer_extent = d.iv.dom.extent.value // d.extent
            if outer_extent == 1 and not preserve_unit_iters:
                chosen.append(None)
                continue
            match = None
            for k, (iv, value) in enumerate(zip(iters, values)):
                if (
                    iv.var.name == f"{d.iv.var.name}_o"
                    and iv.iter_type == d.iv.iter_type
                    and iv.dom.extent.value == outer_extent
                    and structural_equal(value, d.outer)
                ):
                    match = k
            if match is None:
                iters.append(
                    IterVar(
                        E.Range(0, E.const(outer_extent, d.iv.var.dtype)),
                        E.Var(f"{d.iv.var.name}_o", d.iv.var.dtype),
                        d.iv.iter_type,
                    )
                )
                values.append(d.outer)
                match = len(iters) - 1
            chosen.append(iters[match].var)
        per_block.append(chosen)
    return iters, values, per_block


def _rewrite_inner(realize, divisions, outer_vars):
    """The inner block over the inner parts only; its body reads v as v_o * extent + v_i.
    Returns (realize, init statement for the outer block or None)."""
    block = realize.block
    inner_ivs, inner_values, vmap, init_ivs = [], [], {}, []
    for d, outer_var in zip(divisions, outer_vars):
        var = d.iv.var
        outer_part = E.const(0, var.dtype) if outer_var is None else outer_var
        if d.extent == 1:
            vmap[var] = outer_part
            continue
        inner_iv = IterVar(
            E.Range(0, E.const(d.extent, var.dtype)),
            E.Var(f"{var.name}_i", var.dtype),
            d.iv.iter_type,
        )
        inner_ivs.append(inner_iv)
        inner_values.append(d.inner)
        scaled = inner_iv.var if _is_zero(outer_part) else outer_part * d.extent + inner_iv.var
        vmap[var] = scaled
        if not d.iv.is_reduce:
            init_ivs.append((d, outer_part, inner_iv))
    body = substitute(block.body, vmap)
    reads, writes = block_access_regions(body, None, block.alloc_buffers)
    new_block = block.with_fields(
        iter_vars=tuple(inner_ivs), body=body, init=None, reads=tuple(reads), writes=tuple(writes)
    )
    new_realize = BlockRealize(inner_values, realize.predicate, new_block)
    init = None
    if block.init is not None:
        init = _init_nest(block, init_ivs, vmap)
    return new_realize, init


def _init_nest(block, init_ivs, vmap):
    """The reduction's init over the inner spatial iterators, a block of its own."""
    ivs, loop_vars, ivmap = [], [], dict(vmap)
    for d, outer_part, inner_iv in init_ivs:
        # Named as the loop the inner iterator is bound to, as upstream's init loops are.
        name = d.inner.name if isinstance(d.inner, E.Var) else f"{inner_iv.var.name}_l"
        loop_var = E.Var(name, inner_iv.var.dtype)
        iv = IterVar(inner_iv.dom, E.Var(f"{inner_iv.var.name}_init", inner_iv.var.dtype))
        ivs.append(iv)
        loop_vars.append(loop_var)
        ivmap[d.iv.var] = iv.var if _is_zero(outer_part) else outer_part * d.extent + iv.var
    body = substitute(block.init, ivmap)
    reads, writes = block_access_regions(body)
    stmt = BlockRealize(loop_vars, True, Block(ivs, reads, writes, f"{block.name_hint}_init", body))
    for lv, iv in reversed(list(zip(loop_vars, ivs))):
        stmt = For(lv, 0, iv.dom.extent, body=stmt)
    return stmt


class _Sites(StmtExprVisitor):
    """Every load and store index list, with block iterators replaced by their bindings."""

    def __init__(self):
        self.loads, self.stores = {}, {}
        self.vmap = {}

    def visit_BlockRealize(self, realize):
        for iv, value in zip(realize.block.iter_vars, realize.iter_values):
            self.vmap[iv.var] = substitute(value, self.vmap)
        self.generic_visit(realize)

    def visit_BufferLoad(self, load):
        self._add(self.loads, load.buffer, load.indices)
        self.generic_visit(load)

    def visit_BufferStore(self, store):
        self._add(self.stores, store.buffer, store.indices)
        self.generic_visit(store)

    def _add(self, table, buffer, indices):
        entry = table.setdefault(id(buffer), (buffer, []))
        entry[1].append([substitute(i, self.vmap) for i in indices])


def outer_regions(body, init, loops: dict, local=()):
    """reads, writes of an outer block over body (and init): each buffer's region while the
    loops inside (var -> (min, extent)) run; the whole buffer where it is not affine."""
    sites = _Sites()
    sites.visit(body)
    if init is not None:
        sites.visit(init)
    analyzer = Analyzer()
    local_ids = {id(b) for b in local}

    def regions(table, skip=()):
        out = []
        for key, (buffer, index_lists) in table.items():
            if key in local_ids or key in skip:
                continue
            try:
                region = access_region(index_lists, loops, analyzer)
                ranges = [E.Range.from_min_extent(s, e) for s, e in region]
            except RegionError:
                ranges = [E.Range(0, d) for d in buffer.shape]
            out.append(BufferRegion(buffer, ranges))
        return out

    writes = regions(sites.stores)
    reads = regions(sites.loads, set(sites.stores) if init is not None else ())
    return reads, writes


def _loop_ranges(stmt) -> dict:
    return {n.loop_var: (n.min, n.extent) for n in find_all(stmt, lambda n: isinstance(n, For))}


def _outer_block(sch, name, realizes, stmt, preserve_unit_iters, where):
    """(outer BlockRealize around stmt, its name) for the block realizes inside stmt."""
    inner = _inner_loops(stmt)
    divisions = [_divide(sch, r, inner, where) for r in realizes]
    iters, values, outer_vars = _outer_iters(sch, divisions, preserve_unit_iters)
    inits = []
    new_stmt = stmt
    for realize, divs, ovars in zip(realizes, divisions, outer_vars):
        new_realize, init = _rewrite_inner(realize, divs, ovars)
        if init is not None:
            inits.append(init)
        path = find_path(new_stmt, lambda n, r=realize: n is r)
        new_stmt = replace_at(path, new_realize)
    init = seq(*inits) if inits else None
    loops = _loop_ranges(new_stmt) | (_loop_ranges(init) if init is not None else {})
    reads, writes = outer_regions(new_stmt, init, loops)
    block = Block(iters, reads, writes, name, new_stmt, init=init)
    return BlockRealize(values, True, block)


def blockize(sch, target, preserve_unit_iters=True):
    from .schedule import BlockRV, LoopRV

    if isinstance(target, LoopRV):
        path = sch._loop_path(target, PRIMITIVE)
        loop = path[-1]
        realizes = find_all(loop, lambda n: isinstance(n, BlockRealize))
        if len(realizes) != 1 or not _only_loops_above(loop, realizes[0]):
            raise sch._error(
                PRIMITIVE,
                f"the loop {loop.loop_var.name!r} is required to have only one child block",
            )
        name = _unique_block_name(sch, f"{realizes[0].block.name_hint}_o")
        where = f"loop {loop.loop_var.name!r}"
        outer = _outer_block(sch, name, realizes, loop, preserve_unit_iters, where)
        sch._set_body(replace_at(path, outer))
        return BlockRV(name)
    if not isinstance(target, (list, tuple)) or not target:
        raise TypeError(
            f"{PRIMITIVE}: argument 'target' must be a LoopRV or a non-empty list of BlockRVs, "
            f"got {target!r}"
        )
    paths = [sch._block_path(b, PRIMITIVE) for b in target]
    parent, stmts = _common_parent(sch, paths)
    realizes = [p[-1] for p in paths]
    name = _unique_block_name(sch, "outer_" + "".join(f"{r.block.name_hint}_" for r in realizes))
    where = "the blocks " + ", ".join(repr(r.block.name_hint) for r in realizes)
    group = seq(*stmts)
    outer = _outer_block(sch, name, realizes, group, preserve_unit_iters, where)
    parent_path = find_path(sch.func.body, lambda n: n is parent)
    items = list(parent.seq)
    first = next(k for k, s in enumerate(items) if s is stmts[0])
    items[first : first + len(stmts)] = [outer]
    sch._set_body(replace_at(parent_path, seq(*items)))
    return BlockRV(name)


def _only_loops_above(loop, realize) -> bool:
    path = find_path(loop, lambda n: n is realize)
    return all(isinstance(n, For) for n in path[:-1])


def _common_parent(sch, paths):
    """The sequence holding each block (with its own loops) as consecutive statements."""
    heads = []
    for path in paths:
        k = len(path) - 1
        while k > 0 and isinstance(path[k - 1], For) and path[k - 1].body is path[k]:
            k -= 1
        if k == 0 or not isinstance(path[k - 1], SeqStmt):
            heads.append((None, path[k]))
        else:
            heads.append((path[k - 1], path[k]))
    parent = heads[0][0]
    names = ", ".join(repr(p[-1].block.name_hint) for p in paths)
    if parent is None or any(h[0] is not parent for h in heads):
        raise sch._error(PRIMITIVE, f"the blocks {names} must be siblings under one parent")
    items = list(parent.seq)
    positions = sorted(next(k for k, s in enumerate(items) if s is h[1]) for h in heads)
    if len(set(positions)) != len(positions) or positions != list(
        range(positions[0], positions[0] + len(positions))
    ):
        raise sch._error(PRIMITIVE, f"the blocks {names} must be consecutive statements, once each")
    return parent, [items[k] for k in positions]


__all__ = ["blockize", "outer_regions"]
