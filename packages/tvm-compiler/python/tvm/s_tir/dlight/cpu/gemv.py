"""GEMV: the CPU rule for a matmul whose output is one row (a batch-1 dense layer:
y[0, j] = sum_k x[0, k] * w[k, j], plus element-wise steps after it).

Such a layer does two flops per weight it reads, so it runs at the speed the weights stream in
from cache or memory, not at the speed of the FMA units. The schedule reads each row of w once,
in long contiguous runs: columns in blocks of half the vector registers (16 vectors with
AVX-512, 8 with 16 registers), each block's accumulators held in registers over the whole
reduction (RegisterTileReduction's single-row form), the reduction unrolled by a small step.
The column blocks run in parallel when the weights are large enough that streaming them takes
longer than waking a second thread (each thread then reads its own part of w), and only while
the machine has a CPU to spare (tir.stmt.CPU_SPARE, checked at run time).

Columns fewer than a vector (a classifier's 10) are computed on a copy of w padded to one
vector, and the reduction is split into partial sums (Schedule.rfactor) so that several
independent FMA chains run side by side instead of one chain as long as the reduction (for a
static batch of 1; a symbolic batch leaves them to Matmul).

A symbolic batch (`n`) is dispatched inside the kernel: `if n == 1:` the GEMV schedule of the
function with n replaced by 1, `else:` what the Matmul rule makes of it, so every batch stays
correct and batches above 1 run exactly the code they ran before."""

from __future__ import annotations

from tvm.error import ScheduleError
from tvm.tir import expr as E
from tvm.tir.functor import StmtExprMutator, post_order_visit, substitute
from tvm.tir.op import call_extern
from tvm.tir.schedule import Schedule
from tvm.tir.stmt import CPU_SPARE, PARALLEL_IF, Block, For, IfThenElse

from .base import CPUScheduleRule
from .inline import inline_elementwise
from .matmul import Matmul, _step_factor, plan_tile
from .nests import root_nests, simplify_extents, vector_lanes
from .simple import schedule_nest

# Weight bytes from which the column blocks run in parallel: streamed from L2/L3 at ~100 GB/s
# per core, 512 KiB take ~5 us, about what starting a second thread of the team costs.
GEMV_PARALLEL_MIN_BYTES = 1 << 19
# Partial sums of a narrow GEMV's reduction (independent FMA chains), and the unrolled step of
# each; the reduction must be a multiple of both and at least this long to be split.
_NARROW_PARTIALS = 8
_NARROW_STEP = 4
_NARROW_MIN_REDUCTION = 64
# Accumulator vectors per column block: half the vector registers, the rest for operands.
_WIDE_ACCUMULATORS = 16  # 32 registers (AVX-512)
_NARROW_ACCUMULATORS = 8  # 16 registers (AVX2, SSE)


def gemv_plan(nest, lanes: int):
    """Matmul's plan of nest when it is a matmul-like reduction with one output row (every
    spatial loop but the columns of extent 1) and columns at least a vector wide; else None."""
    plan = plan_tile(nest, lanes)
    if plan is None:
        return None
    if any(nest.extent(k) != 1 for k in range(plan.spatial - 1)):
        return None
    return plan


def narrow_gemv_plan(nest, lanes: int):
    """Matmul's plan of nest when it is a one-row matmul-like reduction with 2 to lanes - 1
    columns and one constant reduction loop worth splitting into partial sums; else None."""
    plan = plan_tile(nest, lanes, narrow=True, min_outputs=1)
    if plan is None or any(nest.extent(k) != 1 for k in range(plan.spatial - 1)):
        return None
    j_extent = nest.extent(plan.spatial - 1)
    if j_extent is None or not 2 <= j_extent < lanes or len(nest.loops) != plan.spatial + 1:
        return None
    k_extent = nest.extent(plan.spatial)
    if k_extent is None or k_extent < _NARROW_MIN_REDUCTION:
        return None
    if k_extent % (_NARROW_PARTIALS * _NARROW_STEP):
        return None
    return plan


def pad_narrow_gemv(sch, plan, lanes: int) -> None:
    """Compute plan's nest on columns zero-padded to one vector (Schedule.pad_einsum: a padded
    copy of the operand before it, the padded result's write-back after it)."""
    padding = [1] * len(plan.nest.loops)
    padding[plan.spatial - 1] = lanes
    sch.pad_einsum(sch.get_block(plan.nest.name), padding)


def schedule_narrow_gemv(sch, plan) -> None:
    """plan's padded nest (pad_narrow_gemv) with its reduction in _NARROW_PARTIALS partial
    sums, each a vector of accumulators, then their sum."""
    block = sch.get_block(plan.nest.name)
    *rows, j, k = sch.get_loops(block)
    ko, kr = sch.split(k, [None, _NARROW_PARTIALS])
    partial = sch.rfactor(kr, 0)
    *rows, j, ko, kr = sch.get_loops(partial)
    koo, koi = sch.split(ko, [None, _NARROW_STEP])
    sch.reorder(*rows, koo, koi, kr, j)
    sch.vectorize(j)
    sch.decompose_reduction(partial, koo)
    block = sch.get_block(plan.nest.name)
    *rows, j, kr = sch.get_loops(block)
    sch.reorder(*rows, kr, j)
    sch.vectorize(j)
    sch.decompose_reduction(block, kr)


def _column_block(j_extent: int, lanes: int, wide: bool) -> int:
    cols = (_WIDE_ACCUMULATORS if wide else _NARROW_ACCUMULATORS) * lanes
    if j_extent <= cols:
        return j_extent
    if j_extent % cols:
        # A narrower block that divides the columns, if any, leaves no ragged last block.
        cols = next((c for c in range(cols - lanes, 0, -lanes) if j_extent % c == 0), cols)
    return cols


def schedule_gemv(sch, plan, lanes: int) -> None:
    """Tile plan's nest (a block of sch's function) as a GEMV (see the module doc)."""
    nest, m = plan.nest, plan.spatial
    block = sch.get_block(nest.name)
    loops = sch.get_loops(block)
    rows, j_loop, reductions = list(loops[: m - 1]), loops[m - 1], list(loops[m:])
    dtype_bytes = nest.store().buffer.dtype.bytes
    wide = lanes * dtype_bytes >= 64
    j_extent = nest.extent(m - 1)
    cols = _column_block(j_extent, lanes, wide)
    jo, jj = (None, j_loop) if cols == j_extent else sch.split(j_loop, [None, cols])
    ki = None
    if plan.k_index is not None:
        k_loop = loops[plan.k_index]
        factor = _step_factor(nest.extent(plan.k_index))
        if factor is not None:
            if factor == nest.extent(plan.k_index):
                ki = k_loop
                reductions = [lp for lp in reductions if lp is not k_loop]
            else:
                ko, ki = sch.split(k_loop, [None, factor])
                reductions = [ko if lp is k_loop else lp for lp in reductions]
    outer = rows + ([jo] if jo is not None else [])
    sch.reorder(*outer, *reductions, *[lp for lp in (ki, jj) if lp is not None])
    sch.vectorize(jj)
    weight_bytes = nest.work() * dtype_bytes  # one row: a weight per multiply-add
    if jo is not None and weight_bytes >= GEMV_PARALLEL_MIN_BYTES:
        sch.parallel(jo)
        # Threads only while the machine has a CPU to spare: a loaded one leaves the closing
        # barrier waiting for a worker it does not run, 30x the loop's own time.
        spare = call_extern("int32", CPU_SPARE)
        sch.annotate(jo, PARALLEL_IF, E.NE(spare, E.const(0, "int32")))
    sch.decompose_reduction(block, (reductions + [ki])[0])


class _RenameBlocks(StmtExprMutator):
    def __init__(self, suffix: str):
        self.suffix = suffix

    def visit_Block(self, block):
        block = self.generic_visit(block)
        if block.name_hint == "root":
            return block
        return block.with_fields(name_hint=block.name_hint + self.suffix)


def _with_fresh_variables(stmt):
    """stmt with new Vars for the loops and block iterators it defines. The two branches of the
    dispatch are schedules of one function and share Var objects where neither transformed a
    loop; a function must define each variable once (printing and parsing it again otherwise
    gives other names, and passes that map variables would see one defined twice)."""
    defined = []

    def collect(node):
        if isinstance(node, For):
            defined.append(node.loop_var)
        elif isinstance(node, Block):
            defined.extend(iv.var for iv in node.iter_vars)

    post_order_visit(stmt, collect)
    return substitute(stmt, {v: E.Var(v.name, v.dtype) for v in defined})


def _batch_var(nests, target):
    """The Var every row loop of the function's one matmul-like nest runs to (a symbolic
    batch), when the nest would be a GEMV with that Var equal to 1; else None."""
    plans = []
    for nest in nests:
        store = nest.store()
        if store is None or not nest.is_reduction:
            continue
        lanes = vector_lanes(target, store.buffer.dtype.bytes)
        # Narrow columns are left to Matmul: the padding copy inside the dispatching kernel
        # compiles (GCC) to a loop slower than the single-row GEMV saves.
        plan = plan_tile(nest, lanes)
        if plan is not None:
            plans.append(plan)
    if len(plans) != 1:
        return None
    plan = plans[0]
    if plan.nest.extent(plan.spatial - 1) is None:
        return None  # symbolic columns
    found = None
    for loop in plan.nest.loops[: plan.spatial - 1]:
        ext = loop.extent
        if isinstance(ext, E.IntImm) and ext.value == 1:
            continue
        if not isinstance(ext, E.Var) or (found is not None and ext is not found):
            return None
        found = ext
    return found


class GEMV(CPUScheduleRule):
    """Row-vector matmuls (see the module doc); None for a function without one."""

    def apply(self, func, target, _tunable=False):
        found = self.plain_nests(func, target)
        if found is None:
            return None
        func, nests = found
        sch = self._static(func, nests, target)
        if sch is not None:
            return sch
        return self._dispatch(func, nests, target)

    def _static(self, func, nests, target):
        plans = {}
        for nest in nests:
            store = nest.store()
            if store is None or not nest.is_reduction:
                continue
            lanes = vector_lanes(target, store.buffer.dtype.bytes)
            plan = gemv_plan(nest, lanes)
            schedule = schedule_gemv
            if plan is None:
                plan, schedule = narrow_gemv_plan(nest, lanes), schedule_narrow_gemv
            if plan is None:
                return None  # a reduction that is no GEMV: the function is not one
            plans[nest.name] = (schedule, plan, lanes)
        if not plans:
            return None
        sch = Schedule(func)
        nests = inline_elementwise(sch, nests)
        try:
            before = set(sch.block_names())
            for schedule, plan, lanes in plans.values():
                if schedule is schedule_narrow_gemv:
                    pad_narrow_gemv(sch, plan, lanes)
            padding = set(sch.block_names()) - before
            for nest in nests:
                if nest.name not in plans:
                    schedule_nest(sch, nest)
                elif plans[nest.name][0] is schedule_narrow_gemv:
                    schedule_narrow_gemv(sch, plans[nest.name][1])
                else:
                    schedule_gemv(sch, *plans[nest.name][1:])
            # The padding copies and the padded results' write-backs: element-wise copies.
            for name in sorted(padding):
                loops = sch.get_loops(sch.get_block(name))
                if loops:
                    sch.vectorize(loops[-1])
        except (ScheduleError, ValueError):
            return None
        return sch

    def _dispatch(self, func, nests, target):
        batch = _batch_var(nests, target)
        if batch is None:
            return None
        one = simplify_extents(func.with_body(substitute(func.body, {batch: 1})))
        one_nests = root_nests(one)
        gemv = self._static(one, one_nests, target) if one_nests is not None else None
        general = Matmul().apply(func, target)
        if gemv is None or general is None:
            return None
        gemv_func = gemv.mod["main"]
        gemv_body = _with_fresh_variables(_RenameBlocks("_gemv").visit(gemv_func.body))
        gemv_func = gemv_func.with_body(gemv_body)
        general_func = general.mod["main"]
        g_root, m_root = gemv_func.body.block, general_func.body.block
        allocs = list(m_root.alloc_buffers)
        allocs += [b for b in g_root.alloc_buffers if not any(b is a for a in allocs)]
        condition = E.EQ(batch, E.const(1, batch.dtype))
        root = m_root.with_fields(
            alloc_buffers=allocs, body=IfThenElse(condition, g_root.body, m_root.body)
        )
        return Schedule(general_func.with_body(general_func.body.with_fields(block=root)))
