"""The loop nests of a PrimFunc as the CPU rules see them: one perfect nest per block under the
root, each loop bound to one block iterator, and the facts the rules decide on."""

from __future__ import annotations

from tvm.arith import Analyzer
from tvm.ir.structural import structural_equal
from tvm.target.simd import target_vector_bytes
from tvm.tir import expr as E
from tvm.tir.functor import StmtExprMutator, contains
from tvm.tir.op import call_effect
from tvm.tir.stmt import Block, BlockRealize, BufferStore, For, ForKind, IterVar, SeqStmt

# Element types whose vector code the C backend handles as plain lane-wise arithmetic; other
# types (bool, float8, sub-byte ints, ...) are left scalar.
_VECTOR_DTYPES = ("float32", "float64", "int32", "int64", "int8", "uint8", "int16", "uint16")
# A symbolic extent (a batch, a sequence length) counts as this many iterations when deciding
# whether a nest has enough work to share between threads.
SYMBOLIC_EXTENT_GUESS = 16


class Nest:
    """One block and the perfect chain of loops around it, outermost first."""

    def __init__(self, realize: BlockRealize, loops: list[For]):
        self.realize = realize
        self.block = realize.block
        self.loops = loops
        self.name = self.block.name_hint

    @property
    def is_reduction(self) -> bool:
        return any(iv.is_reduce for iv in self.block.iter_vars)

    def loop_is_reduce(self, k: int) -> bool:
        return self.block.iter_vars[k].is_reduce

    def extent(self, k: int):
        """Loop k's extent: an int when constant, else None."""
        ext = self.loops[k].extent
        return ext.value if isinstance(ext, E.IntImm) else None

    def work(self) -> int:
        """Iterations of the block, symbolic extents counted as SYMBOLIC_EXTENT_GUESS."""
        total = 1
        for k in range(len(self.loops)):
            ext = self.extent(k)
            total *= SYMBOLIC_EXTENT_GUESS if ext is None else ext
        return total

    def store(self) -> BufferStore | None:
        return self.block.body if isinstance(self.block.body, BufferStore) else None

    def vector_dtypes_only(self) -> bool:
        """Whether the block stores and loads only element types with plain vector code."""
        store = self.store()
        if store is None or str(store.buffer.dtype) not in _VECTOR_DTYPES:
            return False
        return not contains(
            store.value,
            lambda n: isinstance(n, E.BufferLoad) and str(n.buffer.dtype) not in _VECTOR_DTYPES,
        )


class _SimplifyExtents(StmtExprMutator):
    """Loop extents and block iterator domains simplified: legalised shapes arrive as
    `(31 // 1 + 1 + 2 - 2 - 1) // 1 + 1`, which is 32 and should be seen as such. Blocks
    that share a name (FuseTIR keeps each op's, so a kernel may hold two "T_add") are
    renamed apart, since schedule handles find blocks by name."""

    def __init__(self):
        self.analyzer = Analyzer()
        self.names: set = set()

    def _simplify(self, e):
        return e if isinstance(e, E.IntImm) else self.analyzer.simplify(e)

    def visit_For(self, loop):
        loop = self.generic_visit(loop)
        return loop.with_fields(extent=self._simplify(loop.extent))

    def visit_Block(self, block):
        block = self.generic_visit(block)
        iter_vars = tuple(
            iv
            if isinstance(iv.dom.extent, E.IntImm)
            else IterVar(
                E.Range.from_min_extent(iv.dom.min, self._simplify(iv.dom.extent)),
                iv.var,
                iv.iter_type,
            )
            for iv in block.iter_vars
        )
        name, k = block.name_hint, 1
        while name in self.names:
            name, k = f"{block.name_hint}_{k}", k + 1
        self.names.add(name)
        if name != block.name_hint:
            block = block.with_fields(name_hint=name)
        if all(a is b for a, b in zip(iter_vars, block.iter_vars)):
            return block
        return block.with_fields(iter_vars=iter_vars)


def simplify_extents(func):
    """func with its loop extents and block iterator domains simplified and its blocks
    named apart (func when nothing changes)."""
    return func.with_body(_SimplifyExtents().visit(func.body))


def _is_impure_call(node) -> bool:
    return isinstance(node, E.Call) and call_effect(node.op) > E.CallEffectKind.PURE


def _nest_of(stmt) -> Nest | None:
    loops = []
    while isinstance(stmt, For):
        if (
            stmt.kind != ForKind.SERIAL
            or stmt.annotations
            or stmt.thread_binding is not None
            or not (isinstance(stmt.min, E.IntImm) and stmt.min.value == 0)
        ):
            return None
        loops.append(stmt)
        stmt = stmt.body
    if not isinstance(stmt, BlockRealize):
        return None
    block = stmt.block
    trivial = len(stmt.iter_values) == len(loops) and all(
        value is loop.loop_var for value, loop in zip(stmt.iter_values, loops)
    )
    if (
        not trivial
        or not (isinstance(stmt.predicate, E.IntImm) and stmt.predicate.value == 1)
        or block.match_buffers
        or block.alloc_buffers
        or block.annotations
        or not isinstance(block.body, BufferStore)
        or contains(block.body, _is_impure_call)
        or (block.init is not None and not isinstance(block.init, BufferStore))
    ):
        return None
    if any(
        not isinstance(iv.dom.min, E.IntImm)
        or iv.dom.min.value != 0
        or not _same(iv.dom.extent, loop.extent)
        for iv, loop in zip(block.iter_vars, loops)
    ):
        return None
    return Nest(stmt, loops)


def _same(a, b) -> bool:
    return a is b or structural_equal(a, b)


def root_nests(func) -> list[Nest] | None:
    """The nests under func's root block in order, or None when the function is not a sequence
    of such nests (an opaque body, nested blocks, conditions, calls with side effects)."""
    body = func.body
    if not isinstance(body, BlockRealize) or body.block.name_hint != "root":
        return None
    root: Block = body.block
    if root.init is not None or root.match_buffers:
        return None
    items = root.body.seq if isinstance(root.body, SeqStmt) else (root.body,)
    nests = [_nest_of(item) for item in items]
    if not nests or any(n is None for n in nests):
        return None
    return nests


def vector_lanes(target, dtype_bytes: int = 4) -> int:
    """Elements of dtype_bytes in one SIMD register of target."""
    return max(target_vector_bytes(target) // dtype_bytes, 1)
