"""Reduction: the CPU rule for row-wise reductions with element-wise steps (softmax, layer norm,
RMS norm): every nest shares leading spatial axes, so the last nest's are fused into one
parallel loop and the earlier nests are computed under it, one row at a time, while the row is
in cache; element-wise nests get their innermost loop vectorized."""

from __future__ import annotations

from tvm.error import ScheduleError
from tvm.ir.structural import structural_equal
from tvm.tir import expr as E
from tvm.tir.functor import contains, post_order_visit
from tvm.tir.schedule import Schedule

from .base import CPUScheduleRule
from .simple import PARALLEL_MIN_WORK


def _leading_spatial(nest) -> int:
    count = 0
    while count < len(nest.loops) and not nest.loop_is_reduce(count):
        count += 1
    return count


def _is_contraction(nest) -> bool:
    """Whether nest reduces over two different buffers (a matmul, a convolution): its rows are
    single outputs whose operands span whole inputs, so computing them row by row repeats
    the producers' work."""
    reduce_vars = {id(iv.var) for iv in nest.block.iter_vars if iv.is_reduce}
    buffers = set()

    def visit(node):
        if isinstance(node, E.BufferLoad) and any(
            contains(i, lambda n: id(n) in reduce_vars) for i in node.indices
        ):
            buffers.add(id(node.buffer))

    post_order_visit(nest.block.body, visit)
    return len(buffers) >= 2


class Reduction(CPUScheduleRule):
    """Rows in parallel, each row's reductions and element-wise steps together (see the
    module doc); None unless the function is such a chain ending in an element-wise nest."""

    def apply(self, func, target, _tunable=False):
        found = self.plain_nests(func, target)
        if found is None:
            return None
        func, nests = found
        if len(nests) < 2 or nests[-1].is_reduction:
            return None
        if not any(n.is_reduction for n in nests) or any(_is_contraction(n) for n in nests):
            return None
        # The rows: the leading spatial loops every nest has, with the same extents.
        last = nests[-1]
        leading = 0
        while leading < min(_leading_spatial(n) for n in nests) and all(
            structural_equal(n.loops[leading].extent, last.loops[leading].extent) for n in nests
        ):
            leading += 1
        if leading == 0:
            return None
        sch = Schedule(func)
        try:
            block = sch.get_block(last.name)
            loops = sch.get_loops(block)
            rows = sch.fuse(*loops[:leading]) if leading > 1 else loops[0]
            for nest in reversed(nests[:-1]):
                sch.compute_at(sch.get_block(nest.name), rows)
            for nest in nests:
                inner = sch.get_loops(sch.get_block(nest.name))
                store = nest.store()
                if (
                    not nest.is_reduction
                    and len(inner) > 1
                    and nest.vector_dtypes_only()
                    and store.indices
                    and store.indices[-1] is nest.block.iter_vars[-1].var
                ):
                    sch.vectorize(inner[-1])
            if sum(n.work() for n in nests) >= PARALLEL_MIN_WORK:
                sch.parallel(rows)
        except (ScheduleError, ValueError):
            return None
        return sch
