"""RegisterTileReduction: keep a few rows of a reduction's accumulator in registers.

It rewrites the nest `for k (small): for i: for j (vectorized): C[f(i, j)] += g(k, i, j)`, where
f does not use k, is one-to-one in (i, j) and g never reads C, into
`for io: for j (vectorized): acc[0:U] = C rows; for k (unrolled): acc[u] += g(k, io*U+u, j);
C rows = acc`, so that the accumulators stay in vector registers and each load of g's operands
serves U rows.

When that nest is the whole body of an outer reduction loop `for ko` (a split reduction axis),
the row tiles move outside a chunk of ko: `for ko_outer: pack; for io: for j: acc = C rows;
for ko_inner: for k: acc[u] += ...; C rows = acc`. The accumulators then stay in registers for
a whole chunk instead of one ko step, and the operands that do not depend on i are first copied
("packed") into a small contiguous buffer that all row tiles read (see operand_pack).

Rows that fill no tile of two or more (the tail of a symbolic batch split into tiles, whose
row count is only known at run time, or an odd count) go one at a time, and in the chunked
case the whole reduction moves inside that row: `for i: for j (vectorized): acc = C row;
for ko: for k (unrolled): acc += g(...); C row = acc`. A row has nothing to share an operand
copy with, so nothing is packed; its accumulator stays in registers from the first term to
the last.

A single row (a GEMV: a batch-1 matmul, whose row loop of extent 1 Simplify has removed) is
the nest `for k: for j (vectorized)` and is tiled as one row.

Either way each element of C still adds its terms in the same order, so results are
bit-identical to the untransformed loops.
"""

from __future__ import annotations

from tvm.arith import Analyzer
from tvm.arith.linear import to_linear
from tvm.target.simd import target_vector_bytes

from .. import expr as E
from ..buffer import decl_buffer
from ..functor import StmtExprMutator, accumulated_rhs, contains, substitute, uses_var
from ..operand_pack import PackedOperand, packable_loads, read_packed, with_packing
from ..stmt import Allocate, BufferStore, DeclBuffer, For, ForKind, SeqStmt

_MAX_REDUCE_EXTENT = 16
# A packed operand chunk stays well inside a 32 KiB L1 data cache.
_PACK_BYTES = 32 * 1024


def _const(e):
    return e.value if isinstance(e, E.IntImm) else None


def _reads_buffer(expr, data) -> bool:
    return contains(expr, lambda n: isinstance(n, E.BufferLoad) and n.buffer.data is data)


def _one_to_one(store, i_loop, j_loop, single_row: bool = False) -> bool:
    # The strides come from every extent but the outermost. Symbolic ones (a sequence length)
    # stay expressions: only the coefficients of i and j need to be constants. Legalised
    # shapes may spell a constant as an expression (`(31 // 1 + 1 + 2 - 2 - 1) + 1`).
    analyzer = Analyzer()
    inner_shape = []
    for extent in store.buffer.shape[1:]:
        extent = analyzer.simplify(extent)
        inner_shape.append(_const(extent) if isinstance(extent, E.IntImm) else extent)
    strides = [1]
    for extent in reversed(inner_shape):
        strides.insert(0, strides[0] * extent)
    offset = None
    for index, stride in zip(store.indices, strides):
        term = index * stride
        offset = term if offset is None else offset + term
    form = to_linear(offset)
    coeffs = {}
    for atom, coeff in form.terms.values():
        if atom is i_loop.loop_var or atom is j_loop.loop_var:
            coeffs[id(atom)] = abs(coeff)
        elif uses_var(atom, i_loop.loop_var) or uses_var(atom, j_loop.loop_var):
            return False
    ci, cj = coeffs.get(id(i_loop.loop_var)), coeffs.get(id(j_loop.loop_var))
    if single_row:
        return bool(cj)
    if not ci or not cj:
        return False
    ei, ej = _const(i_loop.extent), _const(j_loop.extent)
    return ci >= ej * cj or (ei is not None and cj >= ei * ci)


def _row_factor(rows, row_vectors: int, vector_bytes: int) -> int:
    """Rows per register tile: as many as fit half the vector registers (32 with AVX-512,
    else 16), leaving the rest for operands; 1 when no larger tile divides the rows (or
    their count is symbolic), 0 when not even one row fits."""
    budget = (32 if vector_bytes >= 64 else 16) // 2
    for factor in (8, 4, 2):
        if rows is not None and rows % factor == 0 and rows > factor:
            if factor * row_vectors <= budget:
                return factor
    return 1 if row_vectors <= budget else 0


def _taller_tile(rows, row_vectors: int, vector_bytes: int, factor: int) -> tuple[int, int]:
    """(rows per tile, column parts): with 32 vector registers a row of 4 or more vectors
    (an even count) goes in parts of 2 vectors by 8 rows instead of one tile of fewer rows.
    The 16 accumulators then share each operand vector between 8 rows (2 vector loads and 8
    broadcasts per step rather than 4 and 4, which C compilers turn into 16 folded loads and
    4 broadcasts), which keeps the FMA units busier."""
    if (
        vector_bytes >= 64
        and row_vectors >= 4
        and row_vectors % 2 == 0
        and rows is not None
        and rows % 8 == 0
        and rows > 8
    ):
        return 8, row_vectors // 2
    return factor, 1


class _Nest:
    """A matched `for k: for i: for j (vectorized): C[f(i, j)] += rhs` nest; the tile is
    factor rows by the j loop's extent / parts columns."""

    def __init__(self, k_loop, i_loop, j_loop, store, rhs, factor, parts=1):
        self.k_loop, self.i_loop, self.j_loop = k_loop, i_loop, j_loop
        self.store, self.rhs, self.factor, self.parts = store, rhs, factor, parts


class _RegisterTiler(StmtExprMutator):
    def __init__(self, vector_bytes: int):
        self.vector_bytes = vector_bytes

    def visit_For(self, loop):
        chunked = self._tile_chunked(loop)
        if chunked is not None:
            return chunked
        loop = self.generic_visit(loop)
        nest = self._match(loop)
        return loop if nest is None else self._rewrite(nest, nest.rhs, lambda k_loop, _: k_loop)

    def _match(self, k_loop):
        if not isinstance(k_loop, For) or k_loop.kind != ForKind.SERIAL or _const(k_loop.min) != 0:
            return None
        k_extent = _const(k_loop.extent)
        i_loop = k_loop.body
        if k_extent is None or k_extent > _MAX_REDUCE_EXTENT or not isinstance(i_loop, For):
            return None
        single_row = i_loop.kind == ForKind.VECTORIZED
        if single_row:
            # One row: a unit row loop stands in for the one Simplify removed.
            i_loop = For(E.Var("i", k_loop.loop_var.dtype), 0, 1, ForKind.SERIAL, i_loop)
        j_loop = i_loop.body
        if (
            i_loop.kind != ForKind.SERIAL
            or not isinstance(j_loop, For)
            or j_loop.kind != ForKind.VECTORIZED
            or _const(i_loop.min) != 0
            or _const(j_loop.min) != 0
            or _const(j_loop.extent) is None
        ):
            return None
        store = j_loop.body
        i_extent = _const(i_loop.extent)
        if not isinstance(store, BufferStore):
            return None
        rhs = accumulated_rhs(store)
        if (
            rhs is None
            or any(uses_var(i, k_loop.loop_var) for i in store.indices)
            or _reads_buffer(rhs, store.buffer.data)
            or not _one_to_one(store, i_loop, j_loop, single_row)
        ):
            return None
        row_bytes = _const(j_loop.extent) * store.buffer.dtype.bytes
        row_vectors = -(-row_bytes // self.vector_bytes)
        factor = _row_factor(i_extent, row_vectors, self.vector_bytes)
        if not factor:
            return None
        factor, parts = _taller_tile(i_extent, row_vectors, self.vector_bytes, factor)
        return _Nest(k_loop, i_loop, j_loop, store, rhs, factor, parts)

    def _tile_chunked(self, outer):
        """The chunked form (see the module doc) when outer is a reduction loop around a nest."""
        if (
            not isinstance(outer, For)
            or outer.kind != ForKind.SERIAL
            or _const(outer.min) != 0
            or _const(outer.extent) is None
        ):
            return None
        nest = self._match(outer.body)
        if nest is None or any(uses_var(i, outer.loop_var) for i in nest.store.indices):
            return None
        if nest.factor == 1:
            # One row at a time: the whole reduction runs on the row's accumulator.
            def whole_reduction(k_loop, _):
                return outer.with_fields(body=k_loop)

            return self._rewrite(nest, nest.rhs, whole_reduction)
        k_extent, j_extent = _const(nest.k_loop.extent), _const(nest.j_loop.extent)
        step_bytes = k_extent * j_extent * nest.store.buffer.dtype.bytes
        outer_extent = _const(outer.extent)
        chunk = max(
            (
                c
                for c in range(1, outer_extent + 1)
                if outer_extent % c == 0 and c * step_bytes <= _PACK_BYTES
            ),
            default=0,
        )
        if not chunk:
            return None
        ko = outer.loop_var
        ko_outer, ko_inner = (
            E.Var(f"{ko.name}_outer", ko.dtype),
            E.Var(f"{ko.name}_inner", ko.dtype),
        )
        rhs = substitute(nest.rhs, {ko: ko_outer * chunk + ko_inner})
        tile_loops = [
            (ko_inner, chunk),
            (nest.k_loop.loop_var, k_extent),
            (nest.j_loop.loop_var, j_extent),
        ]
        loads = packable_loads(rhs, nest.i_loop.loop_var, [v for v, _ in tile_loops])
        if not loads:
            return None
        packed = [PackedOperand(load, tile_loops) for load in loads]
        chunks, tiles = outer_extent // chunk, _const(nest.i_loop.extent) // nest.factor

        def around_k(k_loop, tile_var):
            hints = [h for p in packed for h in p.prefetch_next(ko_outer, chunks, tile_var, tiles)]
            return For(ko_inner, 0, chunk, ForKind.SERIAL, SeqStmt([*hints, k_loop]))

        tile = self._rewrite(nest, read_packed(rhs, packed), around_k)
        return For(
            ko_outer,
            0,
            outer_extent // chunk,
            ForKind.SERIAL,
            with_packing(packed, tile),
            outer.annotations,
        )

    def _rewrite(self, nest, rhs, around_k):
        """The register tile of nest accumulating rhs; around_k(k_loop, row_tile_var) wraps the
        unrolled k loop."""
        i_loop, store, factor = nest.i_loop, nest.store, nest.factor
        i_var = i_loop.loop_var
        outer = E.Var(f"{i_var.name}_outer", i_var.dtype)
        acc = decl_buffer((factor,), store.buffer.dtype, name=f"{store.buffer.name}_acc")
        rows = [{i_var: outer * factor + u if factor > 1 else outer} for u in range(factor)]
        slots = [E.const(u, "int32") for u in range(factor)]
        load_rows = [
            BufferStore(acc, E.BufferLoad(store.buffer, substitute(store.indices, row)), [u])
            for u, row in zip(slots, rows)
        ]
        updates = [
            BufferStore(acc, E.BufferLoad(acc, [u]) + substitute(rhs, row), [u])
            for u, row in zip(slots, rows)
        ]
        update = SeqStmt(updates) if factor > 1 else updates[0]
        store_rows = [
            BufferStore(store.buffer, E.BufferLoad(acc, [u]), substitute(store.indices, row))
            for u, row in zip(slots, rows)
        ]
        k_unrolled = around_k(nest.k_loop.with_fields(kind=ForKind.UNROLLED, body=update), outer)
        body = SeqStmt([*load_rows, k_unrolled, *store_rows])
        j_loop = nest.j_loop
        part = None
        if nest.parts > 1:
            # Columns in parts: j = part * width + j_inner, the parts outside the row tiles.
            width = _const(j_loop.extent) // nest.parts
            j_var = j_loop.loop_var
            part = E.Var(f"{j_var.name}_part", j_var.dtype)
            inner = E.Var(f"{j_var.name}_inner", j_var.dtype)
            body = substitute(body, {j_var: part * width + inner})
            j_loop = j_loop.with_fields(loop_var=inner, extent=E.const(width, j_var.dtype))
        body = Allocate(acc.data, acc.dtype, [E.const(factor, "int32")], DeclBuffer(acc, body))
        tiles = For(
            outer,
            0,
            i_loop.extent if factor == 1 else _const(i_loop.extent) // factor,
            ForKind.SERIAL,
            j_loop.with_fields(body=body),
            i_loop.annotations,
        )
        if part is None:
            return tiles
        return For(part, 0, nest.parts, ForKind.SERIAL, tiles)


def register_tile_reduction(func):
    from tvm.target import Target

    vector_bytes = target_vector_bytes(Target.current())
    return func.with_body(_RegisterTiler(vector_bytes).visit(func.body))
