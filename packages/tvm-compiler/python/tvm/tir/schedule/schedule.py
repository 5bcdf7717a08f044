"""tvm.tir.Schedule: apply loop and block transformations to a PrimFunc step by step."""

from __future__ import annotations

import random

from tvm.ir.module import IRModule

from ..function import PrimFunc
from ..stmt import Block, BlockRealize, For
from . import (
    annotation,
    binding,
    block_layout,
    blockize,
    cache,
    compute_at,
    inline,
    layout,
    loops,
    pad_einsum,
    query,
    reduction,
    reindex,
    rfactor,
    sampling,
    storage,
    tensorize,
)
from .trace import Trace
from .tree import enclosing_loops, find_all, find_path


class BlockRV:
    """A handle to a block, by name."""

    _trace_prefix = "b"

    def __init__(self, name: str):
        self.name = name

    def __repr__(self):
        return f"BlockRV({self.name!r})"


class LoopRV:
    """A handle to a loop, by its loop variable (stable until the loop is transformed away)."""

    _trace_prefix = "l"

    def __init__(self, var):
        self.var = var

    def __repr__(self):
        return f"LoopRV({self.var.name!r})"


def _schedule_error(message: str):
    from tvm.error import ScheduleError

    return ScheduleError(message)


class Schedule:
    """Schedule(mod_or_func): transformations on one PrimFunc (mod["main"] or the only one)."""

    def __init__(
        self,
        mod,
        func_name: str | None = None,
        *,
        seed: int | None = None,
        debug_mask="none",
        error_render_level="detail",
        enable_check=True,
    ):
        if isinstance(mod, PrimFunc):
            mod = IRModule({"main": mod})
        if not isinstance(mod, IRModule):
            raise TypeError(f"Schedule: expected an IRModule or PrimFunc, got {type(mod).__name__}")
        prims = [gv.name_hint for gv, f in mod.functions.items() if isinstance(f, PrimFunc)]
        if func_name is None:
            func_name = "main" if "main" in prims else (prims[0] if len(prims) == 1 else None)
        if func_name not in prims:
            raise ValueError(f"Schedule: choose the PrimFunc to schedule among {prims}")
        self._mod = mod
        self._func_name = func_name
        self._func = mod[func_name]
        self.trace = Trace()
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise TypeError(f"Schedule: argument 'seed' must be an int, got {type(seed).__name__}")
        # seed -1 or None: nondeterministic, as upstream.
        self._rng = random.Random(None if seed in (None, -1) else seed)

    # -- state -----------------------------------------------------------------------------
    @property
    def mod(self) -> IRModule:
        return self._mod.with_function(self._func_name, self._func)

    @property
    def func(self) -> PrimFunc:
        return self._func

    def _set_body(self, body) -> None:
        self._func = self._func.with_body(body)

    def _error(self, primitive: str, message: str):
        return _schedule_error(f"{primitive}: {message}")

    def _block_path(self, block_rv, primitive: str) -> list:
        if not isinstance(block_rv, BlockRV):
            raise TypeError(f"{primitive}: expected a BlockRV, got {type(block_rv).__name__}")
        path = find_path(
            self._func.body,
            lambda n: isinstance(n, BlockRealize) and n.block.name_hint == block_rv.name,
        )
        if path is None:
            raise self._error(primitive, f"block {block_rv.name!r} is not in the function")
        return path

    def _loop_path(self, loop_rv, primitive: str) -> list:
        if not isinstance(loop_rv, LoopRV):
            raise TypeError(f"{primitive}: expected a LoopRV, got {type(loop_rv).__name__}")
        path = find_path(
            self._func.body, lambda n: isinstance(n, For) and n.loop_var is loop_rv.var
        )
        if path is None:
            raise self._error(
                primitive,
                f"loop {loop_rv.var.name!r} no longer exists (an earlier step replaced it)",
            )
        return path

    def block_names(self) -> list[str]:
        found = find_all(self._func.body, lambda n: isinstance(n, Block))
        return [b.name_hint for b in found if b.name_hint != "root"]

    # -- queries ---------------------------------------------------------------------------
    def work_on(self, func_name: str) -> None:
        """Schedule the PrimFunc func_name of the module from now on (the others keep their
        state); not an instruction of the trace, as upstream."""
        prims = [gv.name_hint for gv, f in self._mod.functions.items() if isinstance(f, PrimFunc)]
        if not isinstance(func_name, str) or func_name not in prims:
            raise ValueError(f"work_on: no PrimFunc {func_name!r}; candidates are: {prims}")
        self._mod = self.mod
        self._func_name = func_name
        self._func = self._mod[func_name]

    def get_block(self, name: str, func_name: str | None = None) -> BlockRV:
        """The block called name; with func_name, in that PrimFunc, which becomes the one
        worked on (a handle names a block of the function being scheduled)."""
        if not isinstance(name, str):
            raise TypeError(f"get_block: name must be a str, got {type(name).__name__}")
        if func_name is not None:
            self.work_on(func_name)
        if name not in self.block_names():
            raise self._error("get_block", f"no block named {name!r}; blocks: {self.block_names()}")
        rv = BlockRV(name)
        inputs = {"name": name} if func_name is None else {"name": name, "func_name": func_name}
        self.trace.append("get_block", inputs, rv)
        return rv

    get_sblock = get_block  # upstream 0.27's name (tvm.s_tir.Schedule.get_sblock)

    def get_loops(self, block: BlockRV) -> list[LoopRV]:
        path = self._block_path(block, "get_loops")
        rvs = [LoopRV(loop.loop_var) for loop in enclosing_loops(path)]
        self.trace.append("get_loops", {"block": block}, rvs)
        return rvs

    def get(self, rv):
        """The current node a handle refers to (For or Block), or a sampled int's value."""
        if isinstance(rv, sampling.ExprRV):
            return rv.value
        if isinstance(rv, LoopRV):
            return self._loop_path(rv, "get")[-1]
        return self._block_path(rv, "get")[-1].block

    # -- primitives --------------------------------------------------------------------------
    def _apply(self, kind, inputs, fn, *args):
        result = fn(self, *args)
        self.trace.append(kind, inputs, result)
        return result

    def split(self, loop: LoopRV, factors) -> list[LoopRV]:
        # loops.split reports factors that are not a list; the trace must not fail on them first.
        listed = list(factors) if isinstance(factors, (list, tuple)) else factors
        if isinstance(factors, (list, tuple)):  # sampled factors split by their values
            factors = [f.value if isinstance(f, sampling.ExprRV) else f for f in factors]
        return self._apply("split", {"loop": loop, "factors": listed}, loops.split, loop, factors)

    def fuse(self, *loop_rvs: LoopRV) -> LoopRV:
        return self._apply("fuse", {"*": list(loop_rvs)}, loops.fuse, loop_rvs)

    def reorder(self, *ordered: LoopRV) -> None:
        self._apply("reorder", {"*": list(ordered)}, loops.reorder, ordered)

    def parallel(self, loop: LoopRV) -> None:
        self._apply("parallel", {"loop": loop}, loops.set_kind, loop, "parallel")

    def vectorize(self, loop: LoopRV) -> None:
        self._apply("vectorize", {"loop": loop}, loops.set_kind, loop, "vectorize")

    def unroll(self, loop: LoopRV) -> None:
        self._apply("unroll", {"loop": loop}, loops.set_kind, loop, "unroll")

    def bind(self, loop: LoopRV, thread_axis: str) -> None:
        """Bind loop to GPU thread axis thread_axis ("blockIdx.x", "threadIdx.y", "vthread"...)."""
        self._apply(
            "bind", {"loop": loop, "thread_axis": thread_axis}, binding.bind, loop, thread_axis
        )

    def cache_read(self, block: BlockRV, read_buffer_index: int, storage_scope: str) -> BlockRV:
        return self._apply(
            "cache_read",
            {
                "block": block,
                "read_buffer_index": read_buffer_index,
                "storage_scope": storage_scope,
            },
            cache.cache_read,
            block,
            read_buffer_index,
            storage_scope,
        )

    def cache_write(self, block: BlockRV, write_buffer_index: int, storage_scope: str) -> BlockRV:
        return self._apply(
            "cache_write",
            {
                "block": block,
                "write_buffer_index": write_buffer_index,
                "storage_scope": storage_scope,
            },
            cache.cache_write,
            block,
            write_buffer_index,
            storage_scope,
        )

    def cache_inplace(
        self, block: BlockRV, read_buffer_index: int, storage_scope: str
    ) -> list[BlockRV]:
        """Stage a buffer block both reads and writes through a storage_scope cache: copied in
        before the block, out after it; returns [copy-in block, copy-out block]."""
        return self._apply(
            "cache_inplace",
            {
                "block": block,
                "read_buffer_index": read_buffer_index,
                "storage_scope": storage_scope,
            },
            reindex.cache_inplace,
            block,
            read_buffer_index,
            storage_scope,
        )

    def reindex(self, block: BlockRV, buffer) -> BlockRV:
        """Give block's buffer (("read" | "write", index) or its name) a copy indexed by the
        block's iterators, filled before (read) or written back after (write) the block."""
        return self._apply(
            "reindex", {"block": block, "buffer": buffer}, reindex.reindex, block, buffer
        )

    def compute_at(self, block: BlockRV, loop: LoopRV) -> None:
        self._apply(
            "compute_at", {"block": block, "loop": loop}, compute_at.compute_at, block, loop
        )

    def reverse_compute_at(self, block: BlockRV, loop: LoopRV) -> None:
        self._apply(
            "reverse_compute_at",
            {"block": block, "loop": loop},
            compute_at.reverse_compute_at,
            block,
            loop,
        )

    def blockize(self, target, preserve_unit_iters: bool = True) -> BlockRV:
        """Wrap the loop target (or the consecutive blocks of a list) in an outer block whose
        iterators are what the wrapped loops leave of the inner bindings."""
        return self._apply(
            "blockize",
            {"target": target, "preserve_unit_iters": preserve_unit_iters},
            blockize.blockize,
            target,
            preserve_unit_iters,
        )

    def tensorize(
        self, block_or_loop, tensor_intrin: str, preserve_unit_iters: bool = True
    ) -> None:
        """Replace the body of block_or_loop (a loop is blockized first) with the
        implementation of the registered TensorIntrin tensor_intrin, whose description
        it must match."""
        self._apply(
            "tensorize",
            {
                "block_or_loop": block_or_loop,
                "tensor_intrin": tensor_intrin,
                "preserve_unit_iters": preserve_unit_iters,
            },
            tensorize.tensorize,
            block_or_loop,
            tensor_intrin,
            preserve_unit_iters,
        )

    def decompose_reduction(self, block: BlockRV, loop: LoopRV) -> BlockRV:
        return self._apply(
            "decompose_reduction",
            {"block": block, "loop": loop},
            reduction.decompose_reduction,
            block,
            loop,
        )

    def rfactor(self, loop: LoopRV, factor_axis: int) -> BlockRV:
        """Factor the reduction over loop: a block computing partial results into a new buffer
        (loop's extent inserted at factor_axis) and a write-back block reducing them."""
        return self._apply(
            "rfactor",
            {"loop": loop, "factor_axis": factor_axis},
            rfactor.rfactor,
            loop,
            factor_axis,
        )

    def storage_align(
        self, block: BlockRV, buffer_index: int, axis: int, factor: int, offset: int
    ) -> None:
        """Pad the stride of axis of the buffer block writes at buffer_index so that
        stride % factor == offset (a "buffer_dim_align" block annotation lowering honours)."""
        self._apply(
            "storage_align",
            {
                "block": block,
                "buffer_index": buffer_index,
                "axis": axis,
                "factor": factor,
                "offset": offset,
            },
            storage.storage_align,
            block,
            buffer_index,
            axis,
            factor,
            offset,
        )

    def set_scope(self, block: BlockRV, buffer_index: int, storage_scope: str) -> None:
        """Put the buffer block writes at buffer_index (allocated by a block) in storage_scope."""
        self._apply(
            "set_scope",
            {"block": block, "buffer_index": buffer_index, "storage_scope": storage_scope},
            storage.set_scope,
            block,
            buffer_index,
            storage_scope,
        )

    def set_axis_separator(self, block: BlockRV, buffer_index, axis_separators) -> None:
        """Split the buffer block writes at buffer_index (or ("read" | "write", index), or its
        name) into physical dimensions before each axis in axis_separators."""
        self._apply(
            "set_axis_separator",
            {"block": block, "buffer_index": buffer_index, "axis_separators": axis_separators},
            storage.set_axis_separator,
            block,
            buffer_index,
            axis_separators,
        )

    def compute_inline(self, block: BlockRV) -> None:
        """Inline an elementwise block into its consumers; its buffer goes away."""
        self._apply("compute_inline", {"block": block}, inline.compute_inline, block)

    def reverse_compute_inline(self, block: BlockRV) -> None:
        """Inline an elementwise block into the block producing what it reads."""
        self._apply(
            "reverse_compute_inline", {"block": block}, inline.reverse_compute_inline, block
        )

    def annotate(self, block_or_loop, ann_key: str, ann_val) -> None:
        self._apply(
            "annotate",
            {"block_or_loop": block_or_loop, "ann_key": ann_key, "ann_val": ann_val},
            annotation.annotate,
            block_or_loop,
            ann_key,
            ann_val,
        )

    def unannotate(self, block_or_loop, ann_key: str) -> None:
        self._apply(
            "unannotate",
            {"block_or_loop": block_or_loop, "ann_key": ann_key},
            annotation.unannotate,
            block_or_loop,
            ann_key,
        )

    def add_unit_loop(self, block_or_loop) -> LoopRV:
        return self._apply(
            "add_unit_loop", {"block_or_loop": block_or_loop}, loops.add_unit_loop, block_or_loop
        )

    def transform_layout(self, block: BlockRV, buffer, index_map, pad_value=None) -> None:
        """Give buffer (a name or ("read"|"write", index) of block) the layout index_map makes."""
        index_map = layout.as_index_map(index_map)
        self._apply(
            "transform_layout",
            {"block": block, "buffer": buffer, "index_map": index_map, "pad_value": pad_value},
            layout.transform_layout,
            block,
            buffer,
            index_map,
            pad_value,
        )

    def transform_block_layout(self, block: BlockRV, index_map) -> None:
        """Give block the iterators index_map makes of its own (a bijective affine map), with
        new loops over them."""
        index_map = layout.as_index_map(index_map)
        self._apply(
            "transform_block_layout",
            {"block": block, "index_map": index_map},
            block_layout.transform_block_layout,
            block,
            index_map,
        )

    def pad_einsum(self, block: BlockRV, padding) -> None:
        """Round block's iterator extents up to multiples of padding (one per iterator): its
        inputs are read from zero-padded copies, its output written to a padded buffer that
        is copied back after it."""
        self._apply(
            "pad_einsum",
            {"block": block, "padding": padding},
            pad_einsum.pad_einsum,
            block,
            padding,
        )

    def get_producers(self, block: BlockRV) -> list[BlockRV]:
        return self._query("get_producers", {"block": block}, query.producers(self, block))

    def get_consumers(self, block: BlockRV) -> list[BlockRV]:
        return self._query("get_consumers", {"block": block}, query.consumers(self, block))

    def get_child_blocks(self, block_or_loop) -> list[BlockRV]:
        return self._query(
            "get_child_blocks",
            {"block_or_loop": block_or_loop},
            query.child_blocks(self, block_or_loop),
        )

    def _query(self, kind, inputs, names) -> list[BlockRV]:
        rvs = [BlockRV(name) for name in names]
        self.trace.append(kind, inputs, rvs)
        return rvs

    # -- sampling ---------------------------------------------------------------------------
    def sample_perfect_tile(
        self, loop: LoopRV, n: int, max_innermost_factor: int = 16, decision=None
    ) -> list:
        """n factors multiplying to loop's extent (innermost at most max_innermost_factor),
        drawn from the schedule's seed unless decision gives them."""
        values = sampling.perfect_tile(self, loop, n, max_innermost_factor, decision)
        rvs = [sampling.ExprRV(v) for v in values]
        inputs = {"loop": loop, "n": n, "max_innermost_factor": max_innermost_factor}
        self.trace.append("sample_perfect_tile", {**inputs, "decision": values}, rvs)
        return rvs

    def sample_categorical(self, candidates, probs, decision=None):
        """One of candidates, drawn with probabilities probs; decision is its index."""
        candidates, probs = list(candidates), [float(p) for p in probs]
        index = sampling.categorical(self, candidates, probs, decision)
        rv = sampling.ExprRV(candidates[index])
        inputs = {"candidates": candidates, "probs": probs, "decision": index}
        self.trace.append("sample_categorical", inputs, rv)
        return rv

    def sample_compute_location(self, block: BlockRV, decision=None) -> LoopRV:
        """A loop of block's consumer to compute it at (decision its index; -1: the root,
        where the returned LoopRV refers to no loop)."""
        index, var = sampling.compute_location(self, block, decision)
        rv = LoopRV(var)
        self.trace.append("sample_compute_location", {"block": block, "decision": index}, rv)
        return rv

    def enter_postproc(self) -> None:
        """Mark in the trace where post-processing starts."""
        self.trace.append("enter_postproc", {}, None)

    def copy(self) -> Schedule:
        """An independent schedule in the same state (the IR is immutable, so it is shared)."""
        other = Schedule.__new__(Schedule)
        other.__dict__.update(self.__dict__)
        other.trace = self.trace.copy()
        return other

    def fork_seed(self) -> int:
        """A new seed drawn from this schedule's random state (for a forked schedule)."""
        return self._rng.randint(1, 2**31 - 1)

    def show(self, black_format: bool = False) -> None:
        """Print the scheduled function's script (`sch.mod.script()` gives it as text)."""
        from tvm.ir.printer import show_text

        show_text(self._func.script(), black_format)
