"""tvm.relax.op.memory: the storage-planned allocation StaticPlanBlockMemory and
LowerAllocTensor emit (alloc_storage, alloc_tensor in a storage, kill_storage/kill_tensor),
with upstream's constructors so planned modules can be written and parsed."""

from __future__ import annotations

from tvm.ir.expr import PrimExpr, RelaxExpr

from ..expr import Call, DataTypeImm, PrimValue, ShapeExpr, StringImm
from ..struct_info import ObjectStructInfo, ShapeStructInfo, TensorStructInfo, TupleStructInfo
from .base import register


def _shape_arg(who, shape):
    if isinstance(shape, (list, tuple)):
        return ShapeExpr(list(shape))
    if not isinstance(shape, RelaxExpr):
        raise TypeError(f"{who}: shape must be a relax shape (R.shape([...])), got {shape!r}")
    return shape


def _dtype_arg(who, dtype):
    if isinstance(dtype, DataTypeImm):
        return dtype
    if not isinstance(dtype, str):
        raise TypeError(f"{who}: dtype must be a str such as 'float32', got {dtype!r}")
    return DataTypeImm(dtype)


def _index_arg(who, name, value):
    if isinstance(value, (PrimValue, RelaxExpr)):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, PrimExpr)):
        raise TypeError(f"{who}: {name} must be an int, got {value!r}")
    return PrimValue(value)


def _alloc_sinfo(call, shape_index, dtype_index):
    """What an allocation call returns: a tensor of its shape argument and dtype."""
    shape = call.args[shape_index]
    dtype = call.args[dtype_index].value
    if isinstance(shape, ShapeExpr):
        return TensorStructInfo(shape, dtype)
    sinfo = shape.struct_info
    ndim = sinfo.ndim if isinstance(sinfo, ShapeStructInfo) else -1
    return TensorStructInfo(ndim=ndim, dtype=dtype)


def alloc_storage(size, virtual_device_index, storage_scope, dtype) -> Call:
    """A storage of size bytes (a shape of one value) on device virtual_device_index."""
    from tvm.ir.op import Op

    who = "memory.alloc_storage"
    args = [
        _shape_arg(who, size),
        _index_arg(who, "virtual_device_index", virtual_device_index),
        StringImm(storage_scope) if isinstance(storage_scope, str) else storage_scope,
        _dtype_arg(who, dtype),
    ]
    return Call(Op.get("relax.memory.alloc_storage"), args)


def alloc_tensor(storage, offset, shape, dtype) -> Call:
    """A tensor of shape and dtype placed in storage at offset bytes."""
    from tvm.ir.op import Op

    who = "memory.alloc_tensor"
    args = [
        storage,
        _index_arg(who, "offset", offset),
        _shape_arg(who, shape),
        _dtype_arg(who, dtype),
    ]
    return Call(Op.get("relax.memory.alloc_tensor"), args)


def kill_storage(storage) -> Call:
    """Free storage (the VM's kill_object)."""
    from tvm.ir.op import Op

    return Call(Op.get("relax.memory.kill_storage"), [storage])


def kill_tensor(tensor) -> Call:
    """Free tensor (the VM's kill_object)."""
    from tvm.ir.op import Op

    return Call(Op.get("relax.memory.kill_tensor"), [tensor])


# Allocation is no visible effect (upstream: pure); freeing is.
register("memory.alloc_storage", lambda call, ctx: ObjectStructInfo())
register("memory.alloc_tensor", lambda call, ctx: _alloc_sinfo(call, 2, 3))
register("memory.kill_storage", lambda call, ctx: TupleStructInfo([]), purity=False)
register("memory.kill_tensor", lambda call, ctx: TupleStructInfo([]), purity=False)

__all__ = ["alloc_storage", "alloc_tensor", "kill_storage", "kill_tensor"]
