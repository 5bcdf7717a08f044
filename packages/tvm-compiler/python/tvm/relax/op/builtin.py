"""tvm.relax.op.builtin: the allocation CallTIRRewrite emits (relax.builtin.alloc_tensor),
with upstream's constructor so lowered modules can be written and parsed."""

from __future__ import annotations

from ..expr import Call, StringImm
from .base import register
from .memory import _alloc_sinfo, _dtype_arg, _index_arg, _shape_arg


def alloc_tensor(shape, dtype, runtime_device_index, storage_scope: str = "global") -> Call:
    """A tensor of shape and dtype allocated on the runtime device runtime_device_index."""
    from tvm.ir.op import Op

    args = [
        _shape_arg("builtin.alloc_tensor", shape),
        _dtype_arg("builtin.alloc_tensor", dtype),
        _index_arg("builtin.alloc_tensor", "runtime_device_index", runtime_device_index),
        StringImm(storage_scope) if isinstance(storage_scope, str) else storage_scope,
    ]
    return Call(Op.get("relax.builtin.alloc_tensor"), args)


register("builtin.alloc_tensor", lambda call, ctx: _alloc_sinfo(call, 0, 1))

__all__ = ["alloc_tensor"]
