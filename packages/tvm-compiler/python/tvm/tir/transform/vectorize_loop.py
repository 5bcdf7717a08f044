"""VectorizeLoop: rewrite a vectorized loop as vector expressions (Ramp, Broadcast, xN dtypes).

A `for j in T.vectorized(L)` whose body only does lane-wise float (or integer +, -, *) arithmetic
on loads that are contiguous in j or do not depend on j becomes straight-line code over vectors
as wide as the target's SIMD registers. When L is a multiple of that width W (at most
_MAX_CHUNKS times it), each statement is written L / W times, one per W-lane chunk, next to each
other: a value read once (say a broadcast) serves every chunk, which is what a register tile
needs. A buffer allocated inside
the loop (one copy per lane) becomes a buffer of W-lane elements, L / W per original element.
The C code generator gives such values vector types, so the C compiler keeps them in registers
exactly as written. A loop this pass cannot express stays a vectorized loop (`omp simd` in C).
"""

from __future__ import annotations

from tvm.arith import Analyzer
from tvm.arith.linear import to_linear
from tvm.ir.functor import find_method
from tvm.target.simd import target_vector_bytes

from .. import expr as E
from ..buffer import decl_buffer
from ..functor import StmtExprMutator, contains, post_order_visit, substitute
from ..stmt import (
    Allocate,
    BufferStore,
    DeclBuffer,
    ForKind,
    SeqStmt,
)

# Arithmetic a vector value may go through; integer vectors only take the ring operations.
_FLOAT_OPS = (E.Add, E.Sub, E.Mul, E.Div)
_INT_OPS = (E.Add, E.Sub, E.Mul)
# Every chunk is one more copy of each statement: a loop wider than this many registers stays a
# loop, or the C source (and the C compiler's time) would grow with its extent.
_MAX_CHUNKS = 32


def _has_c_vectors(dtype) -> bool:
    """Element types the C backend has vector types for (bool and narrow floats it has not)."""
    if dtype.type_code == "float":
        return dtype.bits in (32, 64)
    # int4, uint2, ...: each element is wrapped to its bits when loaded and stored (scalar C)
    return dtype.type_code in ("int", "uint") and dtype.bits >= 8


class _NotVectorizable(Exception):
    """The loop body uses something with no vector form; the loop is left as it was."""


class _Widen:
    """Rewrites one vectorized loop's body: lane index var, chunks of `lanes` lanes each."""

    def __init__(self, var, lanes: int, chunks: int):
        self.var = var
        self.lanes = lanes
        self.chunks = chunks
        self.widened: dict = {}  # data Var of a per-lane allocation -> its vector Buffer
        self.analyzer = Analyzer()
        # id(index) -> (the index at lane 0, simplified; the index): each chunk's first element
        # is that plus a constant, so the index is analysed and simplified once, not per chunk.
        self.bases: dict = {}

    # -- expressions: each result has 1 lane (the same for every lane) or self.lanes lanes ---
    def _invariant(self, e) -> bool:
        return not contains(
            e,
            lambda n: (
                n is self.var or (isinstance(n, E.BufferLoad) and n.buffer.data in self.widened)
            ),
        )

    def _broadcast(self, e):
        return e if e.dtype.lanes == self.lanes else E.Broadcast(e, self.lanes)

    def expr(self, e, chunk: int):
        if e.dtype.lanes != 1:
            # An inner vectorized loop this pass already rewrote: its vectors cannot widen again.
            raise _NotVectorizable(f"{e.dtype} is already a vector")
        if self._invariant(e):
            return e
        if e is self.var:
            return E.Ramp(E.const(chunk * self.lanes, e.dtype), E.const(1, e.dtype), self.lanes)
        if isinstance(e, E.BufferLoad):
            return self._load(e, chunk)
        if not _has_c_vectors(e.dtype):
            raise _NotVectorizable(f"no vector type for {e.dtype}")
        method = find_method(type(self), type(e), "_e_", "tir")
        if method is None:
            raise _NotVectorizable(type(e).__name__)
        return method(self, e, chunk)

    def _e_Cast(self, e, chunk):
        value = self._broadcast(self.expr(e.value, chunk))
        return E.Cast(e.dtype.with_lanes(self.lanes), value)

    def _e_BinaryOpExpr(self, e, chunk):
        if not (isinstance(e, _FLOAT_OPS) and (e.dtype.is_float or isinstance(e, _INT_OPS))):
            raise _NotVectorizable(type(e).__name__)
        a = self._broadcast(self.expr(e.a, chunk))
        b = self._broadcast(self.expr(e.b, chunk))
        return type(e)(a, b)

    def _load(self, load, chunk: int):
        wide = self.widened.get(load.buffer.data)
        if wide is not None:
            return E.BufferLoad(wide, [self._widened_index(load.buffer, load.indices, chunk)])
        return E.BufferLoad(load.buffer, [self._vector_index(load.buffer, load.indices, chunk)])

    def _widened_index(self, buffer, indices, chunk: int):
        if len(indices) != 1 or not self._invariant(indices[0]):
            raise _NotVectorizable(f"lane-dependent index into {buffer.name}")
        return indices[0] * self.chunks + chunk if self.chunks > 1 else indices[0]

    def _vector_index(self, buffer, indices, chunk: int):
        """Ramp(first, 1, lanes) when the access moves one element per lane, else raise."""
        if len(indices) != 1 or buffer.dtype.lanes != 1 or not _has_c_vectors(buffer.dtype):
            raise _NotVectorizable(f"access to {buffer.name} is not flat or has no vector type")
        base = self.bases.get(id(indices[0]))
        if base is None:
            form = to_linear(indices[0])
            step = 0
            for atom, coeff in form.terms.values():
                if atom is self.var:
                    step = coeff
                elif not self._invariant(atom):
                    # Not linear in the lane, or an offset read from a per-lane buffer.
                    raise _NotVectorizable(f"access to {buffer.name} is not linear")
            if step != 1:
                raise _NotVectorizable(f"access to {buffer.name} is not contiguous")
            base = self.analyzer.rewrite(substitute(indices[0], {self.var: 0}))
            # Keyed by id(): the index must outlive the entry (it is held here with it).
            self.bases[id(indices[0])] = base = (base, indices[0])
        first = _plus(base[0], chunk * self.lanes)
        return E.Ramp(first, E.const(1, first.dtype), self.lanes)

    # -- statements -----------------------------------------------------------------------
    def stmt(self, s):
        method = find_method(type(self), type(s), "_s_", "tir")
        if method is None:
            raise _NotVectorizable(type(s).__name__)
        return method(self, s)

    def _s_SeqStmt(self, s):
        return SeqStmt([self.stmt(item) for item in s.seq])

    def _s_BufferStore(self, s):
        stores = [self._store(s, chunk) for chunk in range(self.chunks)]
        return stores[0] if len(stores) == 1 else SeqStmt(stores)

    def _s_For(self, s):
        if s.kind == ForKind.PARALLEL or not (self._invariant(s.min) and self._invariant(s.extent)):
            raise _NotVectorizable("inner loop")
        return s.with_fields(body=self.stmt(s.body))

    def _s_Evaluate(self, s):
        if (
            isinstance(s.value, E.Call)
            and s.value.op.name == "tir.prefetch"
            and self._invariant(s.value)
        ):
            return s  # a cache hint that is the same for every lane is given once
        raise _NotVectorizable("Evaluate")

    def _s_IfThenElse(self, s):
        if not self._invariant(s.condition):
            raise _NotVectorizable("IfThenElse")
        return s.with_fields(
            then_case=self.stmt(s.then_case),
            else_case=None if s.else_case is None else self.stmt(s.else_case),
        )

    def _s_Allocate(self, s):
        return self._allocate(s)

    def _s_DeclBuffer(self, s):
        if s.buffer.data in self.widened:
            return DeclBuffer(self.widened[s.buffer.data], self.stmt(s.body))
        return s.with_fields(body=self.stmt(s.body))

    def _store(self, store, chunk: int):
        value = self._broadcast(self.expr(store.value, chunk))
        wide = self.widened.get(store.buffer.data)
        if wide is not None:
            return BufferStore(
                wide, value, [self._widened_index(store.buffer, store.indices, chunk)]
            )
        return BufferStore(
            store.buffer, value, [self._vector_index(store.buffer, store.indices, chunk)]
        )

    def _allocate(self, alloc):
        body = alloc.body
        if (
            alloc.dtype.lanes != 1
            or not _has_c_vectors(alloc.dtype)
            or len(alloc.extents) != 1
            or not isinstance(alloc.extents[0], E.IntImm)
            or not isinstance(body, DeclBuffer)
            or body.buffer.data is not alloc.buffer_var
            or len(body.buffer.shape) != 1
        ):
            raise _NotVectorizable("allocation")
        count = alloc.extents[0].value * self.chunks
        wide = decl_buffer((count,), alloc.dtype.with_lanes(self.lanes), name=body.buffer.name)
        self.widened[alloc.buffer_var] = wide
        return Allocate(wide.data, wide.dtype, [count], self.stmt(body))


def _plus(base, offset: int):
    """base + offset with the constants folded (base already simplified)."""
    if offset == 0:
        return base
    if isinstance(base, E.IntImm):
        return E.const(base.value + offset, base.dtype)
    if isinstance(base, E.Add) and isinstance(base.b, E.IntImm):
        total = base.b.value + offset
        return base.a if total == 0 else E.Add(base.a, E.const(total, base.dtype))
    return E.Add(base, E.const(offset, base.dtype))


def _element_bytes(body) -> int:
    """The widest buffer element body reads or writes (its vectors are sized by it)."""
    sizes = [1]

    def visit(node):
        if isinstance(node, (E.BufferLoad, BufferStore)):
            sizes.append(node.buffer.dtype.bytes)

    post_order_visit(body, visit)
    return max(sizes)


class _LoopVectorizer(StmtExprMutator):
    def __init__(self, vector_bytes: int):
        self.vector_bytes = vector_bytes

    def visit_For(self, loop):
        loop = self.generic_visit(loop)
        if loop.kind != ForKind.VECTORIZED:
            return loop
        extent = loop.extent.value if isinstance(loop.extent, E.IntImm) else 0
        if not (isinstance(loop.min, E.IntImm) and loop.min.value == 0 and extent >= 2):
            return loop
        lanes = max(2, self.vector_bytes // _element_bytes(loop.body))
        if extent % lanes:
            # A short or odd-sized loop becomes one vector when its size is a power of two.
            if extent > lanes or extent & (extent - 1):
                return loop
            lanes = extent
        if extent // lanes > _MAX_CHUNKS:
            return loop
        try:
            return _Widen(loop.loop_var, lanes, extent // lanes).stmt(loop.body)
        except _NotVectorizable:
            return loop


def vectorize_loop(func):
    from tvm.target import Target

    return func.with_body(_LoopVectorizer(target_vector_bytes(Target.current())).visit(func.body))
