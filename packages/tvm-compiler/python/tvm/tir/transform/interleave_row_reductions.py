"""InterleaveRowReductions: run the scalar reductions of several rows side by side.

A row reduction `for i: for j (serial): X[f(i)] = X[f(i)] op g(i, j)` (a softmax's row max
and row sum, a mean, a norm) is one chain of dependent operations per row: each step waits
for the last one's result, so a row of 1024 float additions costs 1024 times the add
latency however wide the machine is. This pass unrolls the row loop by U and jams the copies
into the reduction loop:

    for i_outer: acc[0:U] = X rows; for j: acc[u] = acc[u] op g(i_outer*U+u, j) (u < U);
                 X rows = acc
    for i in [E // U * U, E): the original row  (the tail, when U does not divide E)

so U independent chains are in flight at once and their accumulators live in registers.
Each element of X still sees exactly its own statements in the same order, so nothing is
reassociated and results are bit-identical to the untransformed loops (as far as the C
compiler's own choices allow: it may fuse a multiply and an add into one FMA in either).

It applies only where that is provably so: the reduction loop's body writes one buffer X, at
one element whose index depends on i and on nothing bound inside, injectively in i (some
index is `a*i + b` with a != 0 and b free of i); every access to X in the body is to that
element; the body holds only stores, conditions and pure expressions (no loops, lets,
allocations or calls with effects, which could not be copied side by side).
"""

from __future__ import annotations

from tvm.arith.linear import to_linear
from tvm.ir.structural import structural_equal

from .. import expr as E
from ..buffer import decl_buffer
from ..functor import StmtExprMutator, contains, post_order_visit, substitute, uses_var
from ..op import CallEffectKind, call_effect
from ..stmt import Allocate, BufferStore, DeclBuffer, For, ForKind, IfThenElse, SeqStmt, Stmt

# Rows in flight: enough independent chains to cover a 4-cycle add at two adds per cycle.
_ROWS = 8
# Accumulator types whose C load and store are plain (narrow types round or wrap on store).
_PLAIN = {"float32", "float64", "int32", "int64"}
# A reduction shorter than this gains little from overlapping rows and grows the code U-fold.
_MIN_REDUCE_EXTENT = 16
# Bodies copied U times stay small: a larger one is a real kernel, not a row reduction.
_MAX_BODY_NODES = 64
_EFFECT_FREE = {CallEffectKind.PURE, CallEffectKind.EXPR_ANNOTATION}


def _const(e):
    return e.value if isinstance(e, E.IntImm) else None


def _reduced_element(body, inner_var):
    """(buffer, indices) of the one element the body updates, or None when the body is not a
    plain row reduction (see the module doc)."""
    stores, accesses, nodes = [], [], [0]
    ok = [True]

    def visit(node):
        nodes[0] += 1
        if isinstance(node, BufferStore):
            stores.append(node)
            accesses.append(node)
        elif isinstance(node, E.BufferLoad):
            accesses.append(node)
        elif isinstance(node, E.Call):
            if call_effect(node.op) not in _EFFECT_FREE:
                ok[0] = False
        elif isinstance(node, E.Let):
            ok[0] = False
        elif isinstance(node, Stmt) and not isinstance(node, (SeqStmt, IfThenElse)):
            ok[0] = False  # loops, lets, allocations, evaluations: not copied side by side

    post_order_visit(body, visit)
    if not ok[0] or not stores or nodes[0] > _MAX_BODY_NODES:
        return None
    target = stores[0]
    data = target.buffer.data
    if str(target.buffer.dtype) not in _PLAIN or target.value.dtype.lanes != 1:
        return None
    for access in accesses:
        if access.buffer.data is not data:
            if isinstance(access, BufferStore):
                return None  # a second buffer written: its rows may not be independent
            continue
        # Another view of the same memory (other shape or strides) may name another element
        # with the same indices: only the very buffer counts as the same element.
        if access.buffer is not target.buffer:
            return None
        if not structural_equal(tuple(access.indices), tuple(target.indices)):
            return None
    if any(uses_var(index, inner_var) or contains(index, _is_load) for index in target.indices):
        return None
    return target.buffer, target.indices


def _is_load(node) -> bool:
    return isinstance(node, E.BufferLoad)


def _injective_in(indices, var) -> bool:
    """Some index is a*var + b with a != 0 and b free of var: different rows, different
    elements."""
    for index in indices:
        form = to_linear(index)
        coeff, other_uses = 0, False
        for atom, c in form.terms.values():
            if atom is var:
                coeff = c
            elif uses_var(atom, var):
                other_uses = True
        if coeff != 0 and not other_uses:
            return True
    return False


def _split_row_prelude(body):
    """(statements before the reduction loop, the loop) of a row's body: LowerBlocks puts the
    init of a reduction that may be empty (`if m <= 0: X[i] = init`) before its loop."""
    if isinstance(body, SeqStmt) and len(body.seq) > 1:
        return list(body.seq[:-1]), body.seq[-1]
    return [], body


def _touches_only(stmt, buffer, indices, inner_var) -> bool:
    """Whether stmt is a plain body (see _reduced_element) whose one element is
    buffer[indices]: it may then run for all the rows of a group before their reductions
    start, since each row's statement touches only that row's element."""
    element = _reduced_element(stmt, inner_var)
    return (
        element is not None
        and element[0] is buffer
        and structural_equal(tuple(element[1]), tuple(indices))
    )


class _Interleaver(StmtExprMutator):
    def visit_For(self, loop):
        loop = self.generic_visit(loop)
        return self._interleave(loop) or loop

    def _interleave(self, outer):
        pre, inner = _split_row_prelude(outer.body)
        if (
            outer.kind not in (ForKind.SERIAL, ForKind.PARALLEL)
            or _const(outer.min) != 0
            or not isinstance(inner, For)
            or inner.kind != ForKind.SERIAL
        ):
            return None
        extent, reduce_extent = _const(outer.extent), _const(inner.extent)
        if extent is not None and extent < _ROWS:
            return None
        if reduce_extent is not None and reduce_extent < _MIN_REDUCE_EXTENT:
            return None
        element = _reduced_element(inner.body, inner.loop_var)
        if element is None:
            return None
        buffer, indices = element
        row = outer.loop_var
        if not _injective_in(indices, row) or uses_var(inner.extent, row):
            return None
        if uses_var(inner.min, row):
            return None
        if not all(_touches_only(p, buffer, indices, inner.loop_var) for p in pre):
            return None

        i_outer = E.Var(f"{row.name}_outer", row.dtype)
        acc = decl_buffer((_ROWS,), buffer.dtype, name=f"{buffer.name}_rows")
        slots = [E.const(u, "int32") for u in range(_ROWS)]
        rows = [{row: i_outer * _ROWS + u} for u in range(_ROWS)]
        row_indices = [substitute(tuple(indices), r) for r in rows]

        def on_accumulator(stmt, slot, row_map):
            renamed = _ElementToSlot(buffer, indices, acc, slot).visit(stmt)
            return substitute(renamed, row_map)

        # The interleaved reduction loop gets a variable of its own: the tail keeps the old one.
        step = E.Var(inner.loop_var.name, inner.loop_var.dtype)
        rows = [{**r, inner.loop_var: step} for r in rows]
        jammed = SeqStmt([on_accumulator(inner.body, s, r) for s, r in zip(slots, rows)])
        pairs = list(zip(slots, row_indices))
        load_rows = [BufferStore(acc, E.BufferLoad(buffer, ix), [s]) for s, ix in pairs]
        store_rows = [BufferStore(buffer, E.BufferLoad(acc, [s]), ix) for s, ix in pairs]
        preludes = [substitute(p, r) for r in rows for p in pre]
        body = SeqStmt(
            [*preludes, *load_rows, inner.with_fields(loop_var=step, body=jammed), *store_rows]
        )
        body = Allocate(acc.data, acc.dtype, [E.const(_ROWS, "int32")], DeclBuffer(acc, body))
        if extent is None:
            full = outer.extent // _ROWS
        else:
            full = E.const(extent // _ROWS, row.dtype)
        interleaved = For(i_outer, 0, full, outer.kind, body, outer.annotations)
        if extent is not None and extent % _ROWS == 0:
            return interleaved
        # The last rows, fewer than U, one at a time as before.
        if extent is None:
            tail_start, tail_extent = full * _ROWS, outer.extent - full * _ROWS
        else:
            tail_start = E.const(extent // _ROWS * _ROWS, row.dtype)
            tail_extent = E.const(extent % _ROWS, row.dtype)
        # From 0, with the row offset in the body: a loop from a symbolic start would print
        # as range(start, start + extent), which parses back as another extent expression.
        tail_row = E.Var(row.name, row.dtype)
        tail = For(
            tail_row,
            0,
            tail_extent,
            ForKind.SERIAL,
            substitute(outer.body, {row: tail_start + tail_row}),
            outer.annotations if outer.kind == ForKind.SERIAL else None,
        )
        return SeqStmt([interleaved, tail])


class _ElementToSlot(StmtExprMutator):
    """Every access to buffer[indices] becomes acc[slot]."""

    def __init__(self, buffer, indices, acc, slot):
        self.buffer, self.indices, self.acc, self.slot = buffer, tuple(indices), acc, slot

    def _is_element(self, node):
        return node.buffer.data is self.buffer.data and structural_equal(
            tuple(node.indices), self.indices
        )

    def visit_BufferLoad(self, load):
        if self._is_element(load):
            return E.BufferLoad(self.acc, [self.slot])
        return self.generic_visit(load)

    def visit_BufferStore(self, store):
        store = self.generic_visit(store)
        if self._is_element(store):
            return BufferStore(self.acc, store.value, [self.slot])
        return store


def interleave_row_reductions(func):
    return func.with_body(_Interleaver().visit(func.body))
