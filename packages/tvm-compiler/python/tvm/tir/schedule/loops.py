"""Loop primitives: split, fuse, reorder, and marking loops parallel, vectorized or unrolled."""

from __future__ import annotations

from tvm.arith import Analyzer

from .. import expr as E
from ..functor import StmtExprMutator, post_order_visit, substitute
from ..stmt import BlockRealize, For, ForKind
from .tree import find_all, replace_at


def _extent(sch, primitive, loop: For):
    """The loop's extent: an int when constant, else the symbolic PrimExpr (the loop must
    start at 0 either way)."""
    if not isinstance(loop.min, E.IntImm) or loop.min.value != 0:
        raise sch._error(
            primitive, f"loop {loop.loop_var.name!r} must start at 0, starts at {loop.min}"
        )
    if isinstance(loop.extent, E.IntImm):
        return loop.extent.value
    return loop.extent


def _product(values):
    total = 1
    for value in values:
        total = total * value
    return total


class _RebindRealizes(StmtExprMutator):
    """Put new loop variables in block bindings and inner loop bounds, simplify, add a predicate."""

    def __init__(self, vmap, analyzer, predicate):
        self.vmap = vmap
        self.analyzer = analyzer
        self.predicate = predicate

    def visit_BlockRealize(self, realize):
        values = tuple(
            self.analyzer.simplify(substitute(v, self.vmap)) for v in realize.iter_values
        )
        pred = substitute(realize.predicate, self.vmap)
        if self.predicate is not None:
            pred = E.And(self.predicate, pred) if not _is_true(pred) else self.predicate
        return realize.with_fields(iter_values=values, predicate=self.analyzer.simplify(pred))

    def visit_For(self, loop):
        with_bounds = loop.with_fields(
            min=self.analyzer.simplify(substitute(loop.min, self.vmap)),
            extent=self.analyzer.simplify(substitute(loop.extent, self.vmap)),
        )
        lo, ext = with_bounds.min, with_bounds.extent
        with self.analyzer.constraint_scope(loop.loop_var, E.Range.from_min_extent(lo, ext)):
            return with_bounds.with_fields(body=self.visit(loop.body))


def _is_true(e) -> bool:
    return isinstance(e, E.IntImm) and e.value == 1


def _rebind(body, vmap, new_loops, predicate=None):
    analyzer = Analyzer()
    for var, extent in new_loops:
        analyzer.bind(var, E.Range(0, extent))
    return _RebindRealizes(vmap, analyzer, predicate).visit(body)


def split(sch, loop_rv, factors):
    path = sch._loop_path(loop_rv, "split")
    loop = path[-1]
    name = loop.loop_var.name
    if not isinstance(factors, (list, tuple)) or len(factors) < 2:
        raise sch._error(
            "split", f"factors for loop {name!r} must be a list of at least two entries"
        )
    extent = _extent(sch, "split", loop)
    symbolic = not isinstance(extent, int)
    values = []
    for f in factors:
        if f is None:
            values.append(None)
        elif isinstance(f, int) and not isinstance(f, bool) and f > 0:
            values.append(f)
        elif isinstance(f, E.IntImm) and f.value > 0:
            values.append(f.value)
        else:
            raise sch._error(
                "split", f"factors of loop {name!r} must be positive ints or None, got {f!r}"
            )
    if values.count(None) > 1:
        raise sch._error("split", f"at most one factor of loop {name!r} may be None")
    known = _product(f for f in values if f is not None)
    open_factor = None in values  # asked before the None becomes an expression
    if open_factor:
        # The open factor covers the extent; a symbolic one is ceildiv(extent, known).
        values[values.index(None)] = (
            -(-extent // known)
            if not symbolic
            else E.FloorDiv(extent + (known - 1), known)
            if known > 1
            else extent
        )
    elif not symbolic and known < extent:
        raise sch._error(
            "split",
            f"factors {values} multiply to {known}, less than the extent {extent} of loop {name!r}",
        )
    dtype = loop.loop_var.dtype
    new_vars = [E.Var(f"{name}_{k}", dtype) for k in range(len(values))]
    fused = None
    for var, f in zip(new_vars, values):
        fused = var if fused is None else fused * f + var
    total = _product(values)
    # A symbolic extent leaves a guarded tail, as upstream: the last outer iteration may
    # cover more than the extent.
    exact = not symbolic and total == extent or symbolic and known == 1 and open_factor
    predicate = None if exact else fused < extent
    body = _rebind(loop.body, {loop.loop_var: fused}, list(zip(new_vars, values)), predicate)
    for var, f in reversed(list(zip(new_vars, values))):
        body = For(var, 0, f, ForKind.SERIAL, body)
    sch._set_body(replace_at(path, body))
    from .schedule import LoopRV

    return [LoopRV(v) for v in new_vars]


def fuse(sch, loop_rvs):
    if len(loop_rvs) < 2:
        raise sch._error("fuse", "needs at least two loops")
    if len({id(rv.var) for rv in loop_rvs}) != len(loop_rvs):
        raise sch._error("fuse", "a loop is listed twice")
    paths = [sch._loop_path(rv, "fuse") for rv in loop_rvs]
    chain = [p[-1] for p in paths]
    for outer, inner in zip(chain, chain[1:]):
        if outer.body is not inner:
            raise sch._error(
                "fuse",
                f"loops {outer.loop_var.name!r} and {inner.loop_var.name!r} "
                "are not directly nested (something sits between them)",
            )
    extents = [_extent(sch, "fuse", loop) for loop in chain]
    fused_var = E.Var(
        "_".join(loop.loop_var.name for loop in chain) + "_fused", chain[0].loop_var.dtype
    )
    total = _product(extents)
    vmap = {}
    for k, (loop, extent) in enumerate(zip(chain, extents)):
        inner_size = _product(extents[k + 1 :])
        value = (
            fused_var // inner_size
            if not (isinstance(inner_size, int) and inner_size == 1)
            else fused_var
        )
        if loop is not chain[0]:
            value = value % extent
        vmap[loop.loop_var] = value
    body = _rebind(chain[-1].body, vmap, [(fused_var, total)])
    new_loop = For(fused_var, 0, total, ForKind.SERIAL, body)
    sch._set_body(replace_at(paths[0], new_loop))
    from .schedule import LoopRV

    return LoopRV(fused_var)


def reorder(sch, ordered):
    if len({id(rv.var) for rv in ordered}) != len(ordered):
        raise sch._error("reorder", "a loop is listed twice")
    paths = [sch._loop_path(rv, "reorder") for rv in ordered]
    outer_path = min(paths, key=len)
    inner_path = max(paths, key=len)
    chain = []
    for node in inner_path[len(outer_path) - 1 :]:
        if isinstance(node, For):
            chain.append(node)
    chosen = {id(p[-1]) for p in paths}
    if not all(any(p[-1] is c for c in chain) for p in paths):
        raise sch._error(
            "reorder",
            "the loops are not nested in one another: "
            + ", ".join(repr(rv.var.name) for rv in ordered),
        )
    chain = chain[: max(i for i, c in enumerate(chain) if id(c) in chosen) + 1]
    for outer, inner in zip(chain, chain[1:]):
        if outer.body is not inner:
            raise sch._error(
                "reorder",
                f"loop {outer.loop_var.name!r} has other statements "
                f"besides loop {inner.loop_var.name!r}",
            )
    chain_vars = {id(c.loop_var) for c in chain}
    for loop in chain:
        for bound in (loop.min, loop.extent):
            used = []
            post_order_visit(
                bound, lambda n, used=used: used.append(n) if isinstance(n, E.Var) else None
            )
            if any(id(v) in chain_vars for v in used):
                raise sch._error(
                    "reorder",
                    f"the bounds of loop {loop.loop_var.name!r} depend on "
                    "another loop being reordered",
                )
    replacements = iter([p[-1] for p in paths])
    new_order = [next(replacements) if id(c) in chosen else c for c in chain]
    body = chain[-1].body
    for loop in reversed(new_order):
        body = loop.with_fields(body=body)
    sch._set_body(replace_at(outer_path, body))


_KINDS = {"parallel": ForKind.PARALLEL, "vectorize": ForKind.VECTORIZED, "unroll": ForKind.UNROLLED}


def set_kind(sch, loop_rv, primitive):
    path = sch._loop_path(loop_rv, primitive)
    loop = path[-1]
    if primitive in ("parallel", "vectorize"):
        for realize in find_all(loop.body, lambda n: isinstance(n, BlockRealize)):
            for iv, value in zip(realize.block.iter_vars, realize.iter_values):
                used = []
                post_order_visit(
                    value, lambda n, used=used: used.append(n) if n is loop.loop_var else None
                )
                if iv.is_reduce and used:
                    raise sch._error(
                        primitive,
                        f"loop {loop.loop_var.name!r} is bound to reduction "
                        f"iterator {iv.var.name!r} of block "
                        f"{realize.block.name_hint!r}",
                    )
    sch._set_body(replace_at(path, loop.with_fields(kind=_KINDS[primitive])))


def add_unit_loop(sch, rv):
    """Wrap a block (its realize) or a loop in a new loop of extent 1; returns its LoopRV."""
    from .schedule import BlockRV, LoopRV

    if isinstance(rv, BlockRV):
        path = sch._block_path(rv, "add_unit_loop")
    elif isinstance(rv, LoopRV):
        path = sch._loop_path(rv, "add_unit_loop")
    else:
        raise TypeError(
            "add_unit_loop: argument 'block_or_loop' must be a BlockRV or LoopRV, "
            f"got {type(rv).__name__}"
        )
    if len(path) == 1:
        raise sch._error("add_unit_loop", "cannot wrap the function's root block")
    var = E.Var("u", "int32")
    sch._set_body(replace_at(path, For(var, 0, 1, body=path[-1])))
    return LoopRV(var)
