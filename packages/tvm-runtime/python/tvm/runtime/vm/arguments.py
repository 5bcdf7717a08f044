"""Turning what a caller passes to a VM function (NumPy, PyTorch, tvm tensors, ints, tuples,
shapes) into the values the bytecode works on."""

from __future__ import annotations

import sys

import tvm_ffi

_PASS_THROUGH = (bool, int, float, str, bytes, type(None), tvm_ffi.Shape, tvm_ffi.dtype)


def tensor_types() -> frozenset:
    """The exact types of the values convert_arg passes through as tensors (a call whose
    arguments all have one of them needs no conversion: VirtualMachine checks that in one
    set operation instead of one convert_arg call per argument)."""
    from ..tensor import Tensor

    return frozenset((tvm_ffi.Tensor, Tensor))


def convert_arg(value, func: str, param: str):
    if isinstance(value, tvm_ffi.Tensor):
        return value
    if isinstance(value, _PASS_THROUGH) or isinstance(value, tvm_ffi.Device):
        return value
    if isinstance(value, (tuple, list)):
        return tuple(convert_arg(v, func, f"{param}[{i}]") for i, v in enumerate(value))
    if isinstance(value, tvm_ffi.Object) or callable(value):
        return value
    np = sys.modules.get("numpy")  # never imported here: unloaded, nothing is a NumPy value
    if np is not None and isinstance(value, np.generic):  # a NumPy scalar: a plain number
        return value.item()
    if np is not None and isinstance(value, np.ndarray):
        from ..tensor import _from_array_like

        return _from_array_like(
            value, None, f"VirtualMachine: function {func!r} argument {param!r}"
        )
    if hasattr(value, "__dlpack__"):
        try:
            return tvm_ffi.from_dlpack(value)
        except Exception as err:
            raise TypeError(
                f"VirtualMachine: function {func!r} argument {param!r}: cannot read the "
                f"{type(value).__name__} through DLPack: {err}"
            ) from None
    raise TypeError(
        f"VirtualMachine: function {func!r} argument {param!r} cannot be a "
        f"{type(value).__name__} (expected a tensor, NumPy array, DLPack tensor, int, float, "
        "bool, str, shape or tuple)"
    )
