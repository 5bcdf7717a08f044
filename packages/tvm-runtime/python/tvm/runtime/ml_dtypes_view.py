"""NumPy views of host tensors of dtypes NumPy's DLPack cannot read (bfloat16, float8, int4...)."""

from __future__ import annotations

import sys

import tvm_ffi

_BFLOAT = 4
_FIRST_NARROW_FLOAT, _LAST_NARROW_FLOAT = 7, 17  # DLPack's float8/6/4 codes
_INT, _UINT = 0, 1


def needs_ml_dtypes(dtype) -> bool:
    """Whether NumPy knows `dtype` only through ml_dtypes (so DLPack cannot carry it to NumPy)."""
    code, bits, lanes = tvm_ffi.dtype(str(dtype))._fields()
    if code == _BFLOAT or _FIRST_NARROW_FLOAT <= code <= _LAST_NARROW_FLOAT:
        return True
    return code in (_INT, _UINT) and bits < 8


def ml_dtype_of(dtype, func: str):
    """The ml_dtypes NumPy dtype of `dtype` (one element per byte for sub-byte types)."""
    name = str(tvm_ffi.dtype(str(dtype)))
    try:
        import ml_dtypes
    except ImportError:
        raise RuntimeError(
            f"{func}: ml_dtypes is not installed, cannot convert {name} array to numpy "
            "(pip install ml_dtypes)"
        ) from None
    import numpy as np

    scalar = getattr(ml_dtypes, name, None)
    if scalar is None:
        raise TypeError(f"{func}: ml_dtypes {ml_dtypes.__version__} has no type for dtype {name}")
    return np.dtype(scalar)


def foreign_dtype_name(array) -> str | None:
    """The tensor dtype of a NumPy array whose dtype ml_dtypes defines, else None."""
    if "ml_dtypes" not in sys.modules:  # an ml_dtypes array implies the module is loaded
        return None
    try:
        name = str(tvm_ffi.dtype(array.dtype))
    except ValueError:
        return None
    return name if needs_ml_dtypes(name) else None


class _ArrayInterface:
    """Hands NumPy a raw buffer description; NumPy keeps it (and so the tensor) alive."""

    def __init__(self, tensor, typestr: str, writable: bool):
        itemsize = int(typestr[2:])
        self.tensor = tensor
        self.__array_interface__ = {
            "version": 3,
            "data": (int(tensor.data_ptr), not writable),
            "shape": tuple(tensor.shape),
            "strides": tuple(s * itemsize for s in tensor.strides),
            "typestr": typestr,
        }


def bits_view(tensor, writable: bool = True):
    """A view of a host tensor's elements as unsigned integers of the element's byte size."""
    import numpy as np

    itemsize = tvm_ffi.dtype(str(tensor.dtype)).itemsize
    order = "|" if itemsize == 1 else ("<" if sys.byteorder == "little" else ">")
    return np.asarray(_ArrayInterface(tensor, f"{order}u{itemsize}", writable))


def typed_view(tensor, writable: bool = True):
    """A view of a host tensor with its ml_dtypes dtype (needs ml_dtypes)."""
    return bits_view(tensor, writable).view(ml_dtype_of(tensor.dtype, "Tensor.numpy"))
