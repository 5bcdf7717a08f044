"""Folding element-wise steps into the nests that read them, so that a fused kernel's chain
(conv, subtract, multiply, add, relu) makes one pass over memory instead of one per step."""

from __future__ import annotations

from tvm.error import ScheduleError
from tvm.tir import expr as E
from tvm.tir.functor import contains

from .nests import Nest, root_nests


def _reads(nest: Nest, buffer) -> bool:
    return contains(
        nest.block.body, lambda n: isinstance(n, E.BufferLoad) and n.buffer is buffer
    ) or (nest.block.init is not None and contains(nest.block.init, lambda n: n is buffer))


def inline_elementwise(sch, nests: list[Nest]) -> list[Nest]:
    """Inline each element-wise nest that writes an intermediate buffer read only by
    element-wise nests into its readers (sch changes); the nests of the result, in order."""
    intermediates = {id(b) for b in sch.func.body.block.alloc_buffers}
    left = list(nests)
    for nest in nests[:-1]:
        store = nest.store()
        if nest.is_reduction or store is None or id(store.buffer) not in intermediates:
            continue
        readers = [n for n in left if n is not nest and _reads(n, store.buffer)]
        if not readers or any(r.is_reduction for r in readers):
            continue
        try:
            sch.compute_inline(sch.get_block(nest.name))
        except ScheduleError:
            continue
        left.remove(nest)
    return root_nests(sch.func) if len(left) < len(nests) else nests
