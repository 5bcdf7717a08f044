"""RegisterTileReduction: keep a few rows of a reduction's accumulator in registers.

It rewrites the nest `for k (small): for i: for j (vectorized): C[f(i, j)] += g(k, i, j)`, where
f does not use k, is one-to-one in (i, j) and g never reads C, into
`for io: for j (vectorized): acc[0:U] = C rows; for k (unrolled): acc[u] += g(k, io*U+u, j);
C rows = acc`. Each element of C still adds its terms in the same order, so results are
bit-identical; the C compiler keeps acc in vector registers and reuses each load of g's
operands across U rows.
"""

from __future__ import annotations

from tvm.arith.linear import to_linear

from .. import expr as E
from ..buffer import decl_buffer
from ..functor import StmtExprMutator, post_order_visit, substitute
from ..stmt import Allocate, BufferStore, DeclBuffer, For, ForKind, SeqStmt
from tvm.ir.structural import structural_equal

_MAX_REDUCE_EXTENT = 16


def _const(e):
    return e.value if isinstance(e, E.IntImm) else None


def _reads_buffer(expr, data) -> bool:
    found = []
    post_order_visit(expr, lambda n: found.append(n) if isinstance(n, E.BufferLoad)
                     and n.buffer.data is data else None)
    return bool(found)


def _uses(expr, var) -> bool:
    found = []
    post_order_visit(expr, lambda n: found.append(n) if n is var else None)
    return bool(found)


def _accumulation(store):
    """rhs when store is C[idx] = C[idx] + rhs (in either operand order), else None."""
    value = store.value
    if not isinstance(value, E.Add):
        return None
    for load, rhs in ((value.a, value.b), (value.b, value.a)):
        if (isinstance(load, E.BufferLoad) and load.buffer.data is store.buffer.data
                and structural_equal(tuple(load.indices), tuple(store.indices))):
            return rhs
    return None


def _one_to_one(store, i_loop, j_loop) -> bool:
    shape = [_const(s) for s in store.buffer.shape]
    if None in shape:
        return False
    offset, stride = None, 1
    for index, extent in reversed(list(zip(store.indices, shape))):
        term = index * stride
        offset = term if offset is None else offset + term
        stride *= extent
    form = to_linear(offset)
    coeffs = {}
    for atom, coeff in form.terms.values():
        if atom is i_loop.loop_var or atom is j_loop.loop_var:
            coeffs[id(atom)] = abs(coeff)
        elif _uses(atom, i_loop.loop_var) or _uses(atom, j_loop.loop_var):
            return False
    ci, cj = coeffs.get(id(i_loop.loop_var)), coeffs.get(id(j_loop.loop_var))
    if not ci or not cj:
        return False
    ei, ej = _const(i_loop.extent), _const(j_loop.extent)
    return ci >= ej * cj or cj >= ei * ci


def _unroll_factor(extent: int) -> int:
    for factor in (4, 2):
        if extent % factor == 0 and extent > factor:
            return factor
    return 0


class _RegisterTiler(StmtExprMutator):
    def visit_For(self, loop):
        loop = self.generic_visit(loop)
        return self._tile(loop) or loop

    def _tile(self, k_loop):
        if k_loop.kind != ForKind.SERIAL or _const(k_loop.min) != 0:
            return None
        k_extent = _const(k_loop.extent)
        i_loop = k_loop.body
        if k_extent is None or k_extent > _MAX_REDUCE_EXTENT or not isinstance(i_loop, For):
            return None
        j_loop = i_loop.body
        if (i_loop.kind != ForKind.SERIAL or not isinstance(j_loop, For)
                or j_loop.kind != ForKind.VECTORIZED or _const(i_loop.min) != 0
                or _const(j_loop.min) != 0 or _const(j_loop.extent) is None):
            return None
        store = j_loop.body
        i_extent = _const(i_loop.extent)
        if not isinstance(store, BufferStore) or i_extent is None:
            return None
        rhs = _accumulation(store)
        if (rhs is None or any(_uses(i, k_loop.loop_var) for i in store.indices)
                or _reads_buffer(rhs, store.buffer.data) or not _one_to_one(store, i_loop, j_loop)):
            return None
        factor = _unroll_factor(i_extent)
        if not factor:
            return None
        return self._rewrite(k_loop, i_loop, j_loop, store, rhs, factor)

    def _rewrite(self, k_loop, i_loop, j_loop, store, rhs, factor):
        i_var = i_loop.loop_var
        outer = E.Var(f"{i_var.name}_outer", i_var.dtype)
        acc = decl_buffer((factor,), store.buffer.dtype, name=f"{store.buffer.name}_acc")
        rows = [{i_var: outer * factor + u} for u in range(factor)]
        zero_shift = [E.const(u, "int32") for u in range(factor)]
        load_rows = [BufferStore(acc, E.BufferLoad(store.buffer, substitute(store.indices, row)), [u])
                     for u, row in zip(zero_shift, rows)]
        update = SeqStmt([BufferStore(acc, E.BufferLoad(acc, [u]) + substitute(rhs, row), [u])
                          for u, row in zip(zero_shift, rows)])
        store_rows = [BufferStore(store.buffer, E.BufferLoad(acc, [u]), substitute(store.indices, row))
                      for u, row in zip(zero_shift, rows)]
        k_unrolled = k_loop.with_fields(kind=ForKind.UNROLLED, body=update)
        body = SeqStmt([*load_rows, k_unrolled, *store_rows])
        body = Allocate(acc.data, acc.dtype, [E.const(factor, "int32")], DeclBuffer(acc, body))
        return For(outer, 0, _const(i_loop.extent) // factor, ForKind.SERIAL,
                   j_loop.with_fields(body=body), i_loop.annotations)


def register_tile_reduction(func):
    return func.with_body(_RegisterTiler().visit(func.body))
