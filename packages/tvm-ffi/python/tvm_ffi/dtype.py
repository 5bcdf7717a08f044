"""dtype: element types by name ("float32", "i32", "int8x4", "bf16") or from NumPy/PyTorch."""

import sys

from . import _core

_FIELDS = {}  # text -> (type_code, bits, lanes)

# DLPack type codes (DLDataTypeCode).
_INT, _UINT, _FLOAT, _HANDLE, _BFLOAT, _COMPLEX, _BOOL = 0, 1, 2, 3, 4, 5, 6
_FLOAT_CODES = frozenset({_FLOAT, _BFLOAT, *range(7, 18)})  # 7..17: the float8/6/4 formats

_NUMPY_NAMES = {
    "bool": "bool",
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "uint8": "uint8",
    "uint16": "uint16",
    "uint32": "uint32",
    "uint64": "uint64",
    "float16": "float16",
    "float32": "float32",
    "float64": "float64",
    "complex64": "complex64",
    "complex128": "complex128",
}


def _name_of(func, code, bits, lanes):
    """The canonical text of (code, bits, lanes); ValueError naming `func` when out of range."""
    void = (code, bits, lanes) == (3, 0, 0)  # the void type, printed ""
    if not void and not (0 <= code <= 255 and 0 <= bits <= 255 and 1 <= lanes <= 65535):
        raise ValueError(
            f"{func}: expected type code and bits in 0..255 and lanes in 1..65535, "
            f"got ({code}, {bits}, {lanes})"
        )
    return _core.dtype_to_str(code, bits, lanes)


def _foreign_name(value):
    """The dtype name of a NumPy dtype or scalar type, an ml_dtypes type or a torch.dtype.

    Looks only at modules already imported: a value of a library is only possible once the
    library is loaded, so nothing is imported here.
    """
    np = sys.modules.get("numpy")
    if np is not None:
        if isinstance(value, np.dtype):
            return value.name
        if isinstance(value, type) and issubclass(value, np.generic):
            return np.dtype(value).name
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.dtype):
        return str(value)[len("torch.") :]
    return None


class dtype(str):
    """An element type. A str subclass that keeps the text it was made from
    (``dtype("i32") == "i32"``) and carries its DLPack (type_code, bits, lanes).

    Made from a str, another dtype, a NumPy dtype or scalar type (including ml_dtypes'),
    or a torch.dtype; ``dtype.from_dlpack_data_type((2, 16, 1)) == "float16"``.
    """

    __slots__ = ()

    def __new__(cls, value):
        if type(value) is cls:
            return value
        if isinstance(value, str):
            text = str(value)
            if text.startswith("torch."):
                text = text[len("torch.") :]
        else:
            text = _foreign_name(value)
            if text is None:
                raise ValueError(
                    f"dtype: unknown dtype `{value!r}` ({type(value).__name__}); expected a str "
                    "such as 'float32', a NumPy or ml_dtypes dtype, or a torch.dtype"
                )
        fields = _FIELDS.get(text)
        if fields is None:
            fields = _FIELDS[text] = _core.parse_dtype(text)
        return str.__new__(cls, text)

    def _fields(self):
        fields = _FIELDS.get(self)
        if fields is None:
            fields = _FIELDS[str(self)] = _core.parse_dtype(self)
        return fields

    @staticmethod
    def from_dlpack_data_type(dltype_data_type):
        """The dtype of a DLPack ``(type_code, bits, lanes)`` triple."""
        try:
            code, bits, lanes = dltype_data_type
        except (TypeError, ValueError):
            raise TypeError(
                "dtype.from_dlpack_data_type: argument `dltype_data_type` must be a "
                f"(type_code, bits, lanes) triple, got {dltype_data_type!r}"
            ) from None
        for what, v in (("type_code", code), ("bits", bits), ("lanes", lanes)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(
                    f"dtype.from_dlpack_data_type: {what} must be an int, got {type(v).__name__}"
                )
        return dtype(_name_of("dtype.from_dlpack_data_type", code, bits, lanes))

    @staticmethod
    def is_dtype(arg):
        """Whether `arg` (a str or dtype) names a valid dtype."""
        if isinstance(arg, dtype):
            return True
        if not isinstance(arg, str):
            return False
        try:
            dtype(arg)
        except ValueError:
            return False
        return True

    @property
    def type_code(self):
        """The DLPack type code of the scalar base type (kDLInt, kDLFloat, ...)."""
        return self._fields()[0]

    @property
    def bits(self):
        """Bits of the scalar base type (one lane)."""
        return self._fields()[1]

    @property
    def lanes(self):
        """Number of lanes: 1 for scalars."""
        return self._fields()[2]

    @property
    def itemsize(self):
        """Bytes of one element (all lanes), rounded up to whole bytes."""
        code, bits, lanes = self._fields()
        return (bits * lanes + 7) // 8

    @property
    def is_bool(self):
        """Whether this dtype stores booleans."""
        return self._fields()[0] == _BOOL

    @property
    def is_integer(self):
        """Whether this dtype stores signed or unsigned integers."""
        return self._fields()[0] in (_INT, _UINT)

    @property
    def is_float(self):
        """Whether this dtype stores floating-point values (float, bfloat, float8/6/4)."""
        return self._fields()[0] in _FLOAT_CODES

    @property
    def is_handle(self):
        """Whether this dtype stores opaque handles."""
        return self._fields()[0] == _HANDLE

    def with_lanes(self, lanes):
        """This type with `lanes` lanes: ``dtype("float32").with_lanes(4) == "float32x4"``."""
        if not isinstance(lanes, int) or isinstance(lanes, bool):
            raise TypeError(
                f"dtype.with_lanes: argument `lanes` must be an int, got {type(lanes).__name__}"
            )
        code, bits, _ = self._fields()
        return dtype(_name_of("dtype.with_lanes", code, bits, lanes))

    def to_numpy(self):
        """The matching numpy.dtype (imports NumPy; ml_dtypes for bfloat16 and float8/6/4)."""
        import numpy as np

        name = _NUMPY_NAMES.get(_core.dtype_to_str(*self._fields()))
        if name is not None:
            return np.dtype(name)
        try:
            import ml_dtypes
        except ImportError:
            raise TypeError(
                f"dtype.to_numpy: {self} has no NumPy equivalent without ml_dtypes"
            ) from None
        scalar = getattr(ml_dtypes, _core.dtype_to_str(*self._fields()), None)
        if scalar is None:
            raise TypeError(f"dtype.to_numpy: {self} has no NumPy or ml_dtypes equivalent")
        return np.dtype(scalar)

    def to_torch(self):
        """The matching torch.dtype (imports PyTorch)."""
        import torch

        result = getattr(torch, _core.dtype_to_str(*self._fields()), None)
        if not isinstance(result, torch.dtype):
            raise TypeError(f"dtype.to_torch: {self} has no PyTorch equivalent")
        return result

    def __repr__(self):
        return f"dtype('{self}')"

    def __reduce__(self):
        return (dtype, (str(self),))


_core.set_dtype_class(dtype)

# The names of upstream's module-level constants (tvm_ffi.float32, ...): the package makes
# each on first use.
CONSTANT_NAMES = (
    "bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32 float64 bfloat16 "
    "float8_e3m4 float8_e4m3 float8_e4m3b11fnuz float8_e4m3fn float8_e4m3fnuz float8_e5m2 "
    "float8_e5m2fnuz float8_e8m0fnu float6_e2m3fn float6_e3m2fn float4_e2m1fn float4_e2m1fnx2"
).split()
