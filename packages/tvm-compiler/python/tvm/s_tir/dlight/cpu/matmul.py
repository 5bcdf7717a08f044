"""Matmul: the CPU rule for matmul-like reductions (dense, batched matmul, convolution):
C[..., i, j] += f(...) with j contiguous (or strided by 2) in C and every operand using it.

The block is tiled so that the lowering passes can keep a tile of C in vector registers:
`for <outer spatial, one parallel>: for <reductions>: for k (<= 16): for i (32 rows):
for j (2 vectors, 4 with AVX-512, 8 with AVX-512 when rows may not fill a tile; vectorized)`.
PartitionFullTiles gives the tiles inside the bounds (of a symbolic batch, or an extent the
tile does not divide) a copy without bound checks, and RegisterTileReduction turns them into
register tiles. Element-wise steps after the reduction are folded into one nest; that and the
other nests of the function (a padding prologue) get the simple schedule. Columns fewer than
a vector are computed zero-padded to one vector (pad_einsum)."""

from __future__ import annotations

from tvm.arith.linear import to_linear
from tvm.error import ScheduleError
from tvm.tir import expr as E
from tvm.tir.functor import accumulated_rhs, contains, post_order_visit, uses_var
from tvm.tir.schedule import Schedule
from tvm.tir.stmt import PARALLEL_IF

from .base import CPUScheduleRule
from .inline import inline_elementwise
from .nests import Nest, root_nests, simplify_extents, vector_lanes
from .simple import PARALLEL_MIN_WORK, schedule_nest

ROWS = 32  # rows of C per tile (RegisterTileReduction keeps 4 at a time in registers)
MAX_INNER_REDUCTION = 16  # RegisterTileReduction unrolls reduction loops up to this extent
# Below this many multiply-adds per output element, or this many outputs, a tile's setup and
# the extra code (compile time) cost more than the registers save.
MIN_REDUCTION = 8
MIN_OUTPUTS = 64
# Multiply-adds below which a matmul runs on one thread: vectorized and register-tiled, this
# many take ~10 us, about what waking a second thread costs on a busy machine (a batch-1
# dense layer of the MLP, 784x512, stays on one thread; batch 7 gets threads).
MATMUL_PARALLEL_MIN_WORK = 1 << 20


def _contiguous_in(rhs, var) -> bool:
    """Whether every load in rhs uses var only in its last index, with coefficient 1."""
    ok = [True]

    def check(node):
        if not isinstance(node, E.BufferLoad) or not ok[0]:
            return
        *leading, last = node.indices
        if any(uses_var(i, var) for i in leading):
            ok[0] = False
        elif uses_var(last, var):
            form = to_linear(last)
            coeff = [c for atom, c in form.terms.values() if atom is var]
            others = [a for a, _ in form.terms.values() if a is not var]
            ok[0] = coeff in ([1], [2]) and not any(uses_var(a, var) for a in others)

    post_order_visit(rhs, check)
    return ok[0]


class _Plan:
    """How one nest is tiled: the number of spatial loops and the loop used as the unrolled
    reduction step."""

    def __init__(self, nest: Nest, spatial: int, k_index: int | None, i_index: int | None):
        self.nest, self.spatial, self.k_index, self.i_index = nest, spatial, k_index, i_index


def plan_tile(
    nest: Nest, lanes: int, narrow: bool = False, min_outputs: int = MIN_OUTPUTS
) -> _Plan | None:
    """A _Plan when nest is a matmul-like reduction worth a register tile, else None. narrow:
    whether columns fewer than a vector count (they are to be padded to one vector);
    min_outputs: the fewest outputs worth a tile."""
    block, store = nest.block, nest.store()
    if not nest.is_reduction or store is None or not nest.vector_dtypes_only():
        return None
    if str(store.buffer.dtype) not in ("float32", "float64"):
        return None
    kinds = [iv.is_reduce for iv in block.iter_vars]
    spatial = kinds.index(True)
    if spatial == 0 or any(not k for k in kinds[spatial:]):
        return None  # spatial iterators first, then reductions
    spatial_vars = [iv.var for iv in block.iter_vars[:spatial]]
    if len(store.indices) != spatial or any(
        a is not b for a, b in zip(store.indices, spatial_vars)
    ):
        return None
    rhs = accumulated_rhs(store)
    if rhs is None or uses_var(rhs, store.buffer.data) or _reads(rhs, store.buffer):
        return None
    j_var = spatial_vars[-1]
    if not uses_var(rhs, j_var) or not _contiguous_in(rhs, j_var):
        return None
    j_extent = nest.extent(spatial - 1)
    if j_extent is not None and j_extent < lanes and not narrow:
        return None
    reduction, outputs = 1, 1
    for k in range(len(nest.loops)):
        ext = nest.extent(k)
        ext = 16 if ext is None else ext
        if narrow and k == spatial - 1:
            ext = max(ext, lanes)
        if k < spatial:
            outputs *= ext
        else:
            reduction *= ext
    if reduction < MIN_REDUCTION or outputs < min_outputs:
        return None
    # The unrolled step: the innermost reduction loop with a constant extent above 1 (a
    # symbolic one stays a plain loop around the tile, for the same reason).
    constant = [k for k in range(spatial, len(nest.loops)) if (nest.extent(k) or 0) > 1]
    k_index = constant[-1] if constant else None
    return _Plan(nest, spatial, k_index, _row_axis(rhs, spatial_vars))


def _row_axis(rhs, spatial_vars) -> int | None:
    """The spatial iterator (j aside) to tile rows of: the innermost one that no load using j
    uses, so that each vector of those loads serves every row of the tile (a matmul's rows;
    a convolution's output channels, not its output rows). None when there is none."""
    j_var = spatial_vars[-1]
    loads = []
    post_order_visit(rhs, lambda n: loads.append(n) if isinstance(n, E.BufferLoad) else None)
    j_loads = [ld for ld in loads if any(uses_var(i, j_var) for i in ld.indices)]
    for k in range(len(spatial_vars) - 2, -1, -1):
        var = spatial_vars[k]
        used = any(uses_var(i, var) for ld in loads for i in ld.indices)
        if used and not any(uses_var(i, var) for ld in j_loads for i in ld.indices):
            return k
    return None


def _reads(expr, buffer) -> bool:
    return contains(expr, lambda n: isinstance(n, E.BufferLoad) and n.buffer is buffer)


def _step_factor(extent: int) -> int | None:
    """The unrolled reduction step for a loop of this extent: the loop itself when short, else
    a small factor that divides it (None when none does)."""
    if extent <= MAX_INNER_REDUCTION:
        return extent
    return next((f for f in (4, 8, 2, 3) if extent % f == 0), None)


def tile_nest(sch, plan: _Plan, lanes: int) -> None:
    nest, m = plan.nest, plan.spatial
    block = sch.get_block(nest.name)
    loops = sch.get_loops(block)
    spatial, reductions = list(loops[:m]), list(loops[m:])
    # Columns: four vectors per row with 32 vector registers (AVX-512), two with 16, or all
    # of them when there are fewer; RegisterTileReduction then keeps 4 rows of them (8 rows
    # of 2-vector parts with AVX-512).
    j_extent = nest.extent(m - 1)
    wide = lanes * nest.store().buffer.dtype.bytes >= 64
    cols = (4 if wide else 2) * lanes
    i_extent = nest.extent(plan.i_index) if plan.i_index is not None else None
    if wide and (i_extent is None or i_extent < ROWS):
        # Rows that fill no tile (batch 1, or a symbolic batch's tail) go one at a time, each
        # a chain of dependent FMAs per vector: 8 vectors keep the FMA units busy where 4
        # wait on latency. RegisterTileReduction still makes full tiles 2 vectors wide.
        cols *= 2
    if j_extent is not None and j_extent > cols and j_extent % cols:
        # A narrower tile that divides the columns, if any, leaves no ragged last tile.
        cols = next((c for c in range(cols - lanes, 0, -lanes) if j_extent % c == 0), cols)
    outer = spatial[:-1]
    if j_extent is not None and j_extent <= cols:
        jj, jo = spatial[-1], None
    else:
        jo, jj = sch.split(spatial[-1], [None, cols])
    ii = io = None
    if plan.i_index is not None:
        i_loop = spatial[plan.i_index]
        outer = [lp for lp in spatial[:-1] if lp is not i_loop]
        if i_extent is not None and i_extent <= ROWS:
            ii = i_loop
        else:
            io, ii = sch.split(i_loop, [None, ROWS])
    outer = outer + [lp for lp in (io, jo) if lp is not None]
    # Reductions: the step loop innermost (split off a long loop), the others outside it.
    ki = None
    if plan.k_index is not None:
        k_loop = loops[plan.k_index]
        factor = _step_factor(nest.extent(plan.k_index))
        if factor is not None:
            rest = [lp for lp in reductions if lp is not k_loop]
            if factor == nest.extent(plan.k_index):
                ki = k_loop
            else:
                ko, ki = sch.split(k_loop, [None, factor])
                rest = [ko if lp is k_loop else lp for lp in reductions]
            reductions = [*rest]
    # The parallel loop: the outer loop with the largest constant extent (a symbolic batch
    # may be 1), moved outermost; the outermost loop when all are symbolic.
    par, best = None, 1
    for lp in outer:
        ext = sch.get(lp).extent
        if isinstance(ext, E.IntImm) and ext.value > best:
            par, best = lp, ext.value
    if par is not None:
        outer = [par] + [lp for lp in outer if lp is not par]
    elif outer:
        par = outer[0]
    inner = [lp for lp in (ki, ii, jj) if lp is not None]
    order = outer + reductions + inner
    sch.reorder(*order)
    sch.vectorize(jj)
    if par is not None and nest.work() >= PARALLEL_MIN_WORK:
        extents = [lp.extent for lp in nest.loops]
        if all(isinstance(e, E.IntImm) for e in extents):
            if nest.work() >= MATMUL_PARALLEL_MIN_WORK:
                sch.parallel(par)
        else:
            # A symbolic extent (a batch): threads only for the calls with enough work.
            work = extents[0]
            for e in extents[1:]:
                work = work * e
            sch.parallel(par)
            sch.annotate(par, PARALLEL_IF, work >= E.const(MATMUL_PARALLEL_MIN_WORK, work.dtype))
    first_reduction = (reductions + [ki])[0]
    sch.decompose_reduction(block, first_reduction)


def _pad_narrow(func, nests, target):
    """func with each matmul-like nest whose output rows are narrower than a vector (a
    classifier's 10 columns) computed on columns zero-padded to one vector, so that it gets
    the register tile; None when there is none."""
    sch = None
    for nest in nests:
        store = nest.store()
        if store is None or not nest.is_reduction:
            continue
        lanes = vector_lanes(target, store.buffer.dtype.bytes)
        spatial = sum(1 for iv in nest.block.iter_vars if not iv.is_reduce)
        j_extent = nest.extent(spatial - 1) if spatial else None
        if j_extent is None or j_extent >= lanes or j_extent < 2:
            continue
        if plan_tile(nest, lanes, narrow=True) is None:
            continue
        sch = sch or Schedule(func)
        padding = [1] * len(nest.loops)
        padding[spatial - 1] = lanes
        try:
            sch.pad_einsum(sch.get_block(nest.name), padding)
        except ScheduleError:
            return None
    return None if sch is None else sch.mod["main"]


class Matmul(CPUScheduleRule):
    """Register-tiled matmul-like reductions (see the module doc); None for a function with
    none worth a tile."""

    def apply(self, func, target, _tunable=False):
        found = self.plain_nests(func, target)
        if found is None:
            return None
        func, nests = found
        padded = _pad_narrow(func, nests, target)
        if padded is not None:
            func = simplify_extents(padded)
            nests = root_nests(func)
            if nests is None:
                return None
        plans = {}
        for nest in nests:
            store = nest.store()
            lanes = vector_lanes(target, store.buffer.dtype.bytes) if store is not None else 1
            plan = plan_tile(nest, lanes)
            if plan is not None:
                plans[nest.name] = (plan, lanes)
        if not plans:
            return None
        sch = Schedule(func)
        for nest in inline_elementwise(sch, nests):
            if nest.name in plans:
                tile_nest(sch, *plans[nest.name])
            else:
                schedule_nest(sch, nest)
        return sch
