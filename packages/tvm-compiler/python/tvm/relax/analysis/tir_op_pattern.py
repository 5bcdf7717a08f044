"""The fusion pattern of a TIR PrimFunc (upstream's OpPatternKind), read off its blocks' loads
and stores: elementwise, broadcast, injective, reduction, out-elementwise-fusable or opaque."""

from __future__ import annotations

import enum

from tvm.ir.structural import structural_equal


class OpPatternKind(enum.IntEnum):
    """Upstream's numbering (the value stored as a PrimFunc's "op_pattern" attribute)."""

    kElemWise = 0  # noqa: N815  (upstream's enumerator names)
    kBroadcast = 1  # noqa: N815
    kInjective = 2  # noqa: N815
    kCommReduce = 3  # noqa: N815
    kOutEWiseFusable = 4  # noqa: N815
    kTuple = 7  # noqa: N815
    kOpaque = 8  # noqa: N815


def _same_indices(a, b) -> bool:
    return len(a) == len(b) and all(structural_equal(x, y) for x, y in zip(a, b))


def _is_unit(buffer, dim: int) -> bool:
    from tvm.tir.expr import IntImm

    extent = buffer.shape[dim]
    return isinstance(extent, IntImm) and extent.value == 1


def _is_elemwise(store, load) -> bool:
    """The same indices; on a dimension of extent 1 in both, reading 0 is the same (this
    stack's topi writes A[0, i] where upstream's writes A[v0, i] for a unit dimension, and
    the two must fuse alike)."""
    from tvm.tir.expr import IntImm

    if len(store.indices) != len(load.indices):
        return False
    for dim, (s, ld) in enumerate(zip(store.indices, load.indices)):
        if structural_equal(s, ld):
            continue
        zero = isinstance(ld, IntImm) and ld.value == 0
        if not (zero and _is_unit(load.buffer, dim) and _is_unit(store.buffer, dim)):
            return False
    return True


def _vars_in(expr) -> set:
    """The Vars expr reads; a load inside it reads its buffer's data variable too (as
    upstream's UsesVar sees it), so an index computed from a tensor uses a foreign var."""
    from tvm.tir.expr import BufferLoad, Var
    from tvm.tir.functor import post_order_visit

    found: set = set()

    def visit(node):
        if isinstance(node, Var):
            found.add(node)
        elif isinstance(node, BufferLoad):
            found.add(node.buffer.data)

    post_order_visit(expr, visit)
    return found


def _store_vars(store):
    """The store's indices as a set of Vars, or None when one index is not a plain Var."""
    from tvm.tir.expr import Var

    if not all(isinstance(i, Var) for i in store.indices):
        return None
    return set(store.indices)


def _is_broadcast(store, load) -> bool:
    """Each load index (unit dimensions read at 0 aside) is a store index, in order."""
    from tvm.tir.expr import IntImm

    j = 0
    for dim, index in zip(load.buffer.shape, load.indices):
        if isinstance(dim, IntImm) and dim.value == 1 and isinstance(index, IntImm):
            if index.value == 0:
                continue
        while j < len(store.indices) and not structural_equal(store.indices[j], index):
            j += 1
        if j == len(store.indices):
            return False
    return True


def _is_injective(store, load) -> bool:
    """The load indices use only the (plain variable) store indices."""
    svars = _store_vars(store)
    if svars is None:
        return False
    return all(_vars_in(i) <= svars for i in load.indices)


def _allows_reuse(store, load) -> bool:
    """Some store index is not read by the load (an operand reused across outputs)."""
    svars = _store_vars(store)
    if svars is None:
        return False
    for index in load.indices:
        svars -= _vars_in(index)
    return bool(svars)


def _is_fma(body) -> bool:
    """out[i] = out[i] + a[...] * b[...] with both operands reused: matmul, conv."""
    from tvm.tir.expr import Add, BufferLoad, Mul
    from tvm.tir.stmt import BufferStore

    if not isinstance(body, BufferStore) or not isinstance(body.value, Add):
        return False
    acc, prod = body.value.a, body.value.b
    if not isinstance(acc, BufferLoad) or not isinstance(prod, Mul):
        return False
    if acc.buffer is not body.buffer or not _same_indices(acc.indices, body.indices):
        return False
    lhs, rhs = prod.a, prod.b
    if not isinstance(lhs, BufferLoad) or not isinstance(rhs, BufferLoad):
        return False
    return _allows_reuse(body, lhs) and _allows_reuse(body, rhs)


def _is_pure_reduce(reduce_vars, indices) -> bool:
    """Every index that uses a reduction variable is that variable alone."""
    for index in indices:
        used = _vars_in(index) & reduce_vars
        if used and not any(index is v for v in used):
            return False
    return True


class _BlockScan:
    """The stores and loads of one block's body (not of the blocks nested in it)."""

    def __init__(self, body):
        from tvm.tir.expr import BufferLoad, Call
        from tvm.tir.functor import post_order_visit
        from tvm.tir.stmt import Block, BufferStore, Evaluate

        self.stores: list = []
        self.loads: list = []
        self.opaque = False

        def visit(node):
            if isinstance(node, BufferStore):
                self.stores.append(node)
            elif isinstance(node, BufferLoad):
                self.loads.append(node)
            elif isinstance(node, Block):
                self.opaque = True  # nested blocks: not a plain te compute
            elif isinstance(node, Evaluate) and isinstance(node.value, Call):
                self.opaque = True  # an extern call

        post_order_visit(body, visit)


def _block_pattern(block, kind_so_far) -> OpPatternKind:
    from tvm.tir.stmt import BufferStore

    scan = _BlockScan(block.body)
    if scan.opaque or not scan.stores:
        return OpPatternKind.kOpaque
    store = scan.stores[0]
    if any(not _same_indices(s.indices, store.indices) for s in scan.stores[1:]):
        return OpPatternKind.kOpaque
    reduce_vars = {iv.var for iv in block.iter_vars if iv.is_reduce}
    if reduce_vars:
        if isinstance(block.body, BufferStore) and _is_fma(block.body):
            return OpPatternKind.kOutEWiseFusable
        kind = OpPatternKind.kCommReduce
        for load in scan.loads:
            if not _is_pure_reduce(reduce_vars, load.indices):
                kind = OpPatternKind.kOutEWiseFusable
        return kind
    kind = OpPatternKind.kElemWise
    has_elemwise = False
    for load in scan.loads:
        if _is_elemwise(store, load):
            has_elemwise = True
        elif _is_broadcast(store, load):
            kind = max(kind, OpPatternKind.kBroadcast)
        elif _is_injective(store, load):
            kind = max(kind, OpPatternKind.kInjective)
        else:
            return OpPatternKind.kOpaque
    if kind == OpPatternKind.kBroadcast and has_elemwise:
        kind = OpPatternKind.kElemWise  # A[i, j] = B[i, j] + C[j] stays elementwise
    if kind_so_far == OpPatternKind.kCommReduce:
        kind = max(kind, OpPatternKind.kOutEWiseFusable)  # a reduction with an epilogue
    return kind


def _top_level_blocks(stmt, out) -> bool:
    """Collect the blocks under stmt's loops; False when a store or call sits outside one."""
    from tvm.tir.stmt import (
        Block,
        BlockRealize,
        BufferStore,
        DeclBuffer,
        Evaluate,
        For,
        IfThenElse,
        LetStmt,
        SeqStmt,
    )

    if isinstance(stmt, BlockRealize):
        out.append(stmt.block)
        return True
    if isinstance(stmt, Block):
        out.append(stmt)
        return True
    if isinstance(stmt, SeqStmt):
        return all(_top_level_blocks(s, out) for s in stmt.seq)
    if isinstance(stmt, (For, LetStmt, DeclBuffer)):
        return _top_level_blocks(stmt.body, out)
    if isinstance(stmt, IfThenElse):
        return False
    if isinstance(stmt, (BufferStore, Evaluate)):
        return False
    return False


def analyze_op_pattern(func) -> OpPatternKind:
    """The OpPatternKind of a PrimFunc: the most general pattern among its blocks, in order
    (a block after a reduction makes it kOutEWiseFusable); anything but te-style blocks under
    a root block is kOpaque."""
    from tvm.tir.function import PrimFunc
    from tvm.tir.stmt import BlockRealize

    if not isinstance(func, PrimFunc):
        raise TypeError(
            f"relax.analysis.analyze_op_pattern: func must be a tir.PrimFunc, "
            f"got {type(func).__name__}"
        )
    body = func.body
    if isinstance(body, BlockRealize) and body.block.name_hint == "root":
        body = body.block.body
    blocks: list = []
    if not _top_level_blocks(body, blocks) or not blocks:
        return OpPatternKind.kOpaque
    kind = OpPatternKind.kElemWise
    for block in blocks:
        kind = max(kind, _block_pattern(block, kind))
        if kind == OpPatternKind.kOpaque:
            break
    return kind
