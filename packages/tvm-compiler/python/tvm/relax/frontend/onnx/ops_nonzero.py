"""The converter of ONNX NonZero, whose output length is known only at run time: a PrimFunc
counts the nonzero elements, the count becomes a symbolic length, then one serial pass writes
their coordinates."""

from __future__ import annotations

import numpy as np
from tvm import te
from tvm.relax import op as R

from ._relax_api import tir
from .common import Node, const, const_value, dtype_of, symbolic_length
from .registry import converter

_I64 = "int64"


def _count_te(x):
    """The number of nonzero elements as a 1-element int64 tensor. Each reduction axis spans
    at least one step (masked past the extent): a sum over an empty range would leave its
    output unset."""
    axes = [te.reduce_axis((0, tir.Max(d, 1)), name=f"k{i}") for i, d in enumerate(x.shape)]
    inside = [k < d for k, d in zip(axes, x.shape)]
    index = tuple(tir.Min(k, tir.Max(d, 1) - 1) for k, d in zip(axes, x.shape))
    hit = tir.all(*inside, x[index] != tir.const(0, x.dtype)) if axes else x[()] != 0
    flag = tir.Select(hit, tir.const(1, _I64), tir.const(0, _I64))
    return te.compute((1,), lambda _: te.sum(flag, axis=axes) if axes else flag, name="nnz")


def _coordinates_te(x, count):
    """The (rank, count) coordinates of x's nonzero elements in row-major order."""

    def body(ins, outs):
        data, out = ins[0], outs[0]
        slot = tir.decl_buffer((1,), _I64, name="nonzero_slot")  # the next output column
        loops = [tir.Var(f"i{d}", _I64) for d in range(len(data.shape))]
        writes = [tir.BufferStore(out, loop, [d, slot[0]]) for d, loop in enumerate(loops)]
        writes.append(tir.BufferStore(slot, slot[0] + 1, [0]))
        stmt = tir.IfThenElse(
            tir.BufferLoad(data, loops) != tir.const(0, data.dtype), tir.SeqStmt(writes)
        )
        for loop, extent in reversed(list(zip(loops, data.shape))):
            stmt = tir.For(loop, tir.const(0, _I64), extent.astype(_I64), body=stmt)
        stmt = tir.SeqStmt([tir.BufferStore(slot, tir.const(0, _I64), [0]), stmt])
        return tir.Allocate(slot.data, _I64, [1], tir.DeclBuffer(slot, stmt))

    return te.extern([len(x.shape), count], [x], body, name="nonzero", dtype=_I64)


@converter("NonZero", since=9)
def _nonzero(node: Node):
    x = node.input(0)
    value = const_value(x)
    if value is not None:
        return const(np.array(np.nonzero(value), dtype=_I64).reshape(value.ndim, -1))
    node.shape(x)  # the rank must be known
    if dtype_of(x) == "bool":
        x = node.emit(R.astype(x, "uint8"))
    count = node.emit_te(_count_te, x)
    length = symbolic_length(node, count, "nonzero_n")
    return node.emit_te(_coordinates_te, x, length.struct_info.values[0])
