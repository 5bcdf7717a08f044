"""The plain CPU schedule of one nest: outer spatial loops fused and run in parallel when the
nest has enough work, the innermost loop of an element-wise nest vectorized."""

from __future__ import annotations

from .nests import Nest

# Iterations below which starting the thread team costs more than sharing the work saves (an
# OpenMP fork-join is a few microseconds idle, far more on a loaded machine, where a thread
# the barrier waits for may not be running).
PARALLEL_MIN_WORK = 1 << 18


def parallel_outer(sch, loops) -> None:
    """Fuse loops (outermost first, directly nested) into one parallel loop."""
    if not loops:
        return
    loop = sch.fuse(*loops) if len(loops) > 1 else loops[0]
    sch.parallel(loop)


def schedule_nest(sch, nest: Nest) -> None:
    """nest (a block of sch's function) with parallel outer loops and, when element-wise over
    plain vector types and stored along its innermost loop, that loop vectorized."""
    block = sch.get_block(nest.name)
    loops = sch.get_loops(block)
    spatial = 0
    while spatial < len(loops) and not nest.loop_is_reduce(spatial):
        spatial += 1
    outer = loops[:spatial]
    store = nest.store()
    inner_extent = nest.extent(len(loops) - 1) if loops else None
    if (
        not nest.is_reduction
        and loops
        and nest.vector_dtypes_only()
        and store.indices
        and store.indices[-1] is nest.block.iter_vars[-1].var
        and (inner_extent is None or inner_extent >= 2)
    ):
        sch.vectorize(loops[-1])
        outer = loops[:-1]
    if nest.work() >= PARALLEL_MIN_WORK:
        parallel_outer(sch, outer)
