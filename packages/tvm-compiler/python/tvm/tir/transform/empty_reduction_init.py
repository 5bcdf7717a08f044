"""Reduction inits that also run when the reduction is empty.

A block's init is lowered to run on the first iteration of its reduction loops (`if k == 0`),
which never comes when a reduction loop's extent is zero at run time (a symbolic axis of
length 0): the output kept whatever memory held. Each reduction loop whose extent cannot be
proved positive gets, just before it, the init nest of its body (its spatial loops and the
inits of its reduction blocks, every reduction loop at its first value) guarded by
`extent <= 0`, so an empty sum is 0, an empty product 1, an empty max the lowest value.
A loop fused from spatial and reduction loops gets the init of every output its blocks bind
through it, guarded by the emptiness of the reduction iterators it binds."""

from __future__ import annotations

from ...arith import Analyzer
from .. import expr as E
from ..functor import StmtExprMutator, post_order_visit, substitute
from ..stmt import (
    Allocate,
    Block,
    BlockRealize,
    DeclBuffer,
    For,
    ForKind,
    IfThenElse,
    LetStmt,
    SeqStmt,
    seq,
)


def _vars_of(expr) -> set[int]:
    found = set()
    post_order_visit(expr, lambda n: found.add(id(n)) if isinstance(n, E.Var) else None)
    return found


def _reduction_loop_vars(stmt) -> set[int]:
    """ids of the variables that bind only reduction iterators of blocks with an init."""
    reduce, spatial = set(), set()

    def visit(node):
        if isinstance(node, BlockRealize) and node.block.init is not None:
            for iv, value in zip(node.block.iter_vars, node.iter_values):
                (reduce if iv.is_reduce else spatial).update(_vars_of(value))

    post_order_visit(stmt, visit)
    return reduce - spatial


def _mixed_reduce_extents(stmt, var_id: int) -> list:
    """Domain extents of the reduction iterators that loop var_id binds in blocks where it also
    binds a spatial iterator (a loop fused from a spatial and a reduction loop)."""
    extents = []

    def visit(node):
        if not isinstance(node, BlockRealize) or node.block.init is None:
            return
        bound = [
            (iv, var_id in _vars_of(value))
            for iv, value in zip(node.block.iter_vars, node.iter_values)
        ]
        if any(b and not iv.is_reduce for iv, b in bound):
            extents.extend(iv.dom.extent for iv, b in bound if b and iv.is_reduce)

    post_order_visit(stmt, visit)
    return extents


def _conjuncts(cond):
    if isinstance(cond, E.And):
        return _conjuncts(cond.a) + _conjuncts(cond.b)
    return [cond]


class _InitNest:
    """The statement that only initialises what stmt reduces: reduction loops (ids in
    reduction_vars) replaced by their first iteration, blocks by their init, the rest dropped."""

    def __init__(self, reduction_vars: set[int], mixed_var=None):
        self.reduction_vars = reduction_vars
        # A loop fused from spatial and reduction loops: each block iterator it binds runs over
        # its whole domain instead (spatial) or sits at its first value (reduction).
        self.mixed_var = mixed_var

    def __call__(self, stmt, vmap):
        if isinstance(stmt, For):
            if id(stmt.loop_var) in self.reduction_vars:
                return self(stmt.body, {**vmap, stmt.loop_var: stmt.min})
            body = self(stmt.body, vmap)
            return None if body is None else stmt.with_fields(body=body)
        if isinstance(stmt, SeqStmt):
            parts = [p for p in (self(s, vmap) for s in stmt.seq) if p is not None]
            return seq(*parts) if parts else None
        if isinstance(stmt, BlockRealize):
            return self._block(stmt, vmap)
        if isinstance(stmt, IfThenElse):
            then = self(stmt.then_case, vmap)
            other = None if stmt.else_case is None else self(stmt.else_case, vmap)
            if then is None and other is None:
                return None
            cond = substitute(stmt.condition, vmap)
            if then is None:
                return IfThenElse(E.Not(cond), other)
            return IfThenElse(cond, then, other)
        if isinstance(stmt, (LetStmt, Allocate, DeclBuffer)):
            body = self(stmt.body, vmap)
            return None if body is None else stmt.with_fields(body=body)
        return None

    def _block(self, realize, vmap):
        block = realize.block
        if block.init is None:
            if block.body is None:
                return None
            inner = self(block.body, vmap)  # the root block, or one around nested blocks
            return (
                None if inner is None else realize.with_fields(block=block.with_fields(body=inner))
            )
        # Conditions on the reduction loops (a split axis' bound) do not hold at their first
        # iteration when the axis is empty; those on spatial loops still guard the init.
        dropped = set(self.reduction_vars)
        if self.mixed_var is not None:
            dropped.add(id(self.mixed_var))
        kept = [c for c in _conjuncts(realize.predicate) if not (_vars_of(c) & dropped)]
        predicate = kept[0] if kept else E.const(True, "bool")
        for c in kept[1:]:
            predicate = E.And(predicate, c)
        values = [substitute(v, vmap) for v in realize.iter_values]
        whole = []  # (var, dom) of the spatial iterators the mixed loop bound
        if self.mixed_var is not None:
            for i, (iv, value) in enumerate(zip(block.iter_vars, realize.iter_values)):
                if id(self.mixed_var) not in _vars_of(value):
                    continue
                if iv.is_reduce:
                    values[i] = iv.dom.min
                else:
                    fresh = E.Var(iv.var.name + "_init", iv.var.dtype)
                    whole.append((fresh, iv.dom))
                    values[i] = fresh + iv.dom.min
        init_block = Block(
            block.iter_vars,
            block.reads,
            block.writes,
            block.name_hint + "_init",
            block.init,
            alloc_buffers=block.alloc_buffers,
        )
        nest = BlockRealize(values, predicate, init_block)
        for fresh, dom in reversed(whole):
            nest = For(fresh, E.const(0, fresh.dtype), dom.extent, ForKind.SERIAL, nest)
        return nest


class _EmptyReductionInit(StmtExprMutator):
    def __init__(self):
        super().__init__()
        self.analyzer = Analyzer()

    def visit_For(self, loop):
        lowered = self.generic_visit(loop)
        zero = E.const(0, loop.extent.dtype)
        if self.analyzer.can_prove(E.GT(loop.extent, zero)):
            return lowered
        reduction_vars = _reduction_loop_vars(loop.body)
        if id(loop.loop_var) in reduction_vars:
            nest = _InitNest(reduction_vars)(loop.body, {loop.loop_var: loop.min})
            if nest is None:
                return lowered
            return seq(IfThenElse(E.LE(loop.extent, zero), nest), lowered)
        # A loop fused from a spatial and a reduction loop runs zero times when the reduction
        # is empty; every output of its blocks is then the init value.
        empty = None
        for extent in _mixed_reduce_extents(loop.body, id(loop.loop_var)):
            if not self.analyzer.can_prove(E.GT(extent, E.const(0, extent.dtype))):
                cond = E.LE(extent, E.const(0, extent.dtype))
                empty = cond if empty is None else E.Or(empty, cond)
        if empty is None:
            return lowered
        nest = _InitNest(reduction_vars, loop.loop_var)(loop.body, {loop.loop_var: loop.min})
        if nest is None:
            return lowered
        return seq(IfThenElse(empty, nest), lowered)


def init_empty_reductions(body):
    """body with an init nest beside each reduction loop that may run zero times."""
    return _EmptyReductionInit().visit(body)
