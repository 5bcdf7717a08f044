"""Copy a reduction operand's tile into a small contiguous buffer before a loop reuses it.

In `C[i, j] += A[i, k] * B[k, j]` tiled over i, the B elements one k-chunk needs do not depend
on i, so every row tile reads the same ones again; when B's rows lie a whole matrix row apart
those reads hit the same few cache sets and keep evicting each other. Copying the tile once
into a (k, j)-ordered local buffer makes every later read sequential and cache-resident.
"""

from __future__ import annotations

from . import expr as E
from .buffer import decl_buffer
from .functor import StmtExprMutator, contains, post_order_visit, substitute
from .stmt import Allocate, BufferStore, DeclBuffer, Evaluate, For, ForKind, SeqStmt


def _uses_any(node, variables) -> bool:
    return contains(node, lambda n: any(n is v for v in variables))


def packable_loads(rhs, row_var, tile_vars) -> list:
    """Distinct loads in rhs whose index does not use row_var but uses every var of tile_vars."""
    loads = []

    def visit(node):
        if (
            isinstance(node, E.BufferLoad)
            and not _uses_any(node, [row_var])
            and all(_uses_any(node, [v]) for v in tile_vars)
            and not any(node is seen for seen in loads)
        ):
            loads.append(node)

    post_order_visit(rhs, visit)
    return loads


class PackedOperand:
    """One load's packed copy: a local buffer indexed by the tile's loop vars in order."""

    def __init__(self, load, tile_loops):
        self.load = load
        self.tile_loops = tile_loops  # (var, extent) outermost first; the last one is vectorized
        shape = [extent for _, extent in tile_loops]
        self.buffer = decl_buffer(shape, load.buffer.dtype, name=f"{load.buffer.name}_packed")

    def read(self):
        """The load of the packed copy that stands for self.load."""
        return E.BufferLoad(self.buffer, [v for v, _ in self.tile_loops])

    def prefetch_next(self, chunk_var, chunks: int, tile_var, tiles: int):
        """Cache hints for the next chunk's source rows at the current inner step, shared out
        over the row tiles: tile tile_var of tiles fetches its part of the k rows. Fetched a
        whole chunk ahead, the copy that packs them then finds them in cache."""
        (_, _), (k_var, k_extent), (j_var, j_extent) = self.tile_loops
        per_tile = -(-k_extent // tiles)
        line = max(1, 64 // self.buffer.dtype.bytes)
        offsets = sorted({*range(0, j_extent, line), j_extent - 1})
        hints = []
        for r in range(per_tile):
            k_row = E.FloorMod(tile_var * per_tile + r, k_extent) if k_extent > 1 else 0
            for offset in offsets:
                address = substitute(
                    self.load,
                    {chunk_var: E.FloorMod(chunk_var + 1, chunks), k_var: k_row, j_var: offset},
                )
                hints.append(Evaluate(E.Call("int32", "tir.prefetch", [address])))
        return hints

    def fill(self):
        """The loop nest that copies the tile (the vars outside the tile keep their values)."""
        fresh = [E.Var(f"{v.name}_pack", v.dtype) for v, _ in self.tile_loops]
        source = substitute(self.load, dict(zip((v for v, _ in self.tile_loops), fresh)))
        body = BufferStore(self.buffer, source, fresh)
        for position in reversed(range(len(fresh))):
            kind = ForKind.VECTORIZED if position == len(fresh) - 1 else ForKind.SERIAL
            body = For(fresh[position], 0, self.tile_loops[position][1], kind, body)
        return body

    def allocate(self, body):
        """body with this packed buffer allocated around it."""
        extents = [E.const(extent, "int32") for _, extent in self.tile_loops]
        return Allocate(self.buffer.data, self.buffer.dtype, extents, DeclBuffer(self.buffer, body))


class _ReplaceLoads(StmtExprMutator):
    def __init__(self, packed):
        self.packed = packed

    def visit_BufferLoad(self, load):
        for operand in self.packed:
            if load is operand.load:
                return operand.read()
        return self.generic_visit(load)


def read_packed(expr, packed):
    """expr with each packed load (the same object) replaced by a read of its packed copy."""
    return _ReplaceLoads(packed).visit(expr)


def with_packing(packed, body):
    """body preceded by the copies that fill packed, all allocations around both."""
    stmt = SeqStmt([*(p.fill() for p in packed), body])
    for operand in reversed(packed):
        stmt = operand.allocate(stmt)
    return stmt
