"""LowerBlocks: blocks become plain statements (iterators inlined, inits guarded, allocations)."""

from __future__ import annotations

from .. import expr as E
from ..functor import StmtExprMutator, substitute
from ..stmt import Allocate, DeclBuffer, IfThenElse, seq
from ..storage_align import apply_storage_align
from .empty_reduction_init import init_empty_reductions
from .flatten_buffer import flat_buffer


def allocate_buffers(buffers, body):
    """Wrap body in an Allocate + DeclBuffer per buffer (first buffer outermost)."""
    for buf in reversed(buffers):
        extents = [flat_buffer(buf).shape[0]]  # with padded strides, more than the elements
        body = Allocate(buf.data, buf.dtype, extents, DeclBuffer(buf, body))
    return body


class _BlockLowerer(StmtExprMutator):
    def visit_BlockRealize(self, realize):
        block = realize.block
        vmap = {iv.var: value for iv, value in zip(block.iter_vars, realize.iter_values)}
        body = self.visit(substitute(block.body, vmap))
        if block.init is not None:
            init = self.visit(substitute(block.init, vmap))
            first = [
                E.EQ(value, iv.dom.min)
                for iv, value in zip(block.iter_vars, realize.iter_values)
                if iv.is_reduce
            ]
            if first:
                cond = first[0]
                for c in first[1:]:
                    cond = E.And(cond, c)
                init = IfThenElse(cond, init)
            body = seq(init, body)
        body = allocate_buffers(block.alloc_buffers, body)
        predicate = realize.predicate
        if not (isinstance(predicate, E.IntImm) and predicate.value):
            body = IfThenElse(predicate, body)
        return body


def lower_blocks(func):
    func = apply_storage_align(func)  # before the blocks holding the annotations go
    body = _BlockLowerer().visit(init_empty_reductions(func.body))
    return func.with_body(body)
