"""tvm.tir.transform: the lowering passes from schedulable TIR to what code generators take."""

from tvm.arith import Analyzer
from tvm.transform import Sequential, prim_func_pass

from .compact_buffer import compact_buffer_allocation
from .flatten_buffer import flatten_buffer
from .interleave_row_reductions import interleave_row_reductions
from .lower_blocks import lower_blocks
from .lower_match_buffer import lower_match_buffer
from .partition_full_tiles import partition_full_tiles
from .register_tile_reduction import register_tile_reduction
from .vectorize_loop import vectorize_loop


def LowerBlocks():  # noqa: N802  (pass constructors are capitalised)
    """Replace blocks by loops' bodies with iterators inlined, init guarded, allocations made."""
    return prim_func_pass(lambda f, m, c: lower_blocks(f), opt_level=0, name="tir.LowerBlocks")


def LowerMatchBuffer():  # noqa: N802
    """Replace each block's match_buffer views by accesses to the buffers they view, their
    offset, shape and stride variables bound to what the viewed region gives."""
    return prim_func_pass(
        lambda f, m, c: lower_match_buffer(f), opt_level=0, name="tir.LowerMatchBuffer"
    )


def Simplify():  # noqa: N802
    """Simplify every expression, with loop variables bound to their ranges."""
    return prim_func_pass(
        lambda f, m, c: f.with_body(Analyzer().rewrite(f.body)), opt_level=0, name="tir.Simplify"
    )


def FlattenBuffer():  # noqa: N802
    """Make every buffer access one-dimensional."""
    return prim_func_pass(lambda f, m, c: flatten_buffer(f), opt_level=0, name="tir.FlattenBuffer")


def CompactBufferAllocation():  # noqa: N802
    """Allocate each buffer inside the innermost loop holding all its uses, shrunk to what one
    iteration touches (private to each thread of a parallel loop, small enough for the stack)."""
    return prim_func_pass(
        lambda f, m, c: compact_buffer_allocation(f),
        opt_level=0,
        name="tir.CompactBufferAllocation",
    )


def PartitionFullTiles():  # noqa: N802
    """Give tiles wholly inside the bounds a copy of the loop body without bound checks
    (see partition_full_tiles.py)."""
    return prim_func_pass(
        lambda f, m, c: partition_full_tiles(f), opt_level=2, name="tir.PartitionFullTiles"
    )


def RegisterTileReduction():  # noqa: N802
    """Keep rows of a vectorized reduction's accumulator in registers (register_tile_reduction)."""
    return prim_func_pass(
        lambda f, m, c: register_tile_reduction(f), opt_level=2, name="tir.RegisterTileReduction"
    )


def InterleaveRowReductions():  # noqa: N802
    """Run the scalar reductions of several rows side by side, bit-identically
    (interleave_row_reductions.py)."""
    return prim_func_pass(
        lambda f, m, c: interleave_row_reductions(f),
        opt_level=2,
        name="tir.InterleaveRowReductions",
    )


def VectorizeLoop():  # noqa: N802
    """Rewrite vectorized loops as vector expressions where they allow it (vectorize_loop.py)."""
    return prim_func_pass(lambda f, m, c: vectorize_loop(f), opt_level=2, name="tir.VectorizeLoop")


def default_lowering() -> Sequential:
    """The passes tvm.compile runs before code generation."""
    return Sequential(
        [
            LowerMatchBuffer(),
            LowerBlocks(),
            CompactBufferAllocation(),
            Simplify(),
            PartitionFullTiles(),
            Simplify(),
            RegisterTileReduction(),
            InterleaveRowReductions(),
            FlattenBuffer(),
            Simplify(),
            VectorizeLoop(),
        ],
        name="tir.DefaultLowering",
    )


__all__ = [
    "CompactBufferAllocation",
    "FlattenBuffer",
    "InterleaveRowReductions",
    "LowerBlocks",
    "LowerMatchBuffer",
    "PartitionFullTiles",
    "RegisterTileReduction",
    "Simplify",
    "VectorizeLoop",
    "default_lowering",
]
