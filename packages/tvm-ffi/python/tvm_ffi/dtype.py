"""dtype: element types by name ("float32", "int8x4", "bfloat16", "float8_e4m3fn")."""

from . import _core

_FIELDS = {}  # canonical name -> (type_code, bits, lanes)

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
}


class dtype(str):
    """An element type. A str subclass: ``dtype("float32") == "float32"``."""

    __slots__ = ()

    def __new__(cls, value):
        if type(value) is cls:
            return value
        text = str(value)
        if text.startswith("torch."):
            text = text[len("torch.") :]
        fields = _core.parse_dtype(text)
        name = _core.dtype_to_str(*fields)
        _FIELDS[name] = fields
        return str.__new__(cls, name)

    def _fields(self):
        fields = _FIELDS.get(self)
        if fields is None:
            fields = _FIELDS[str(self)] = _core.parse_dtype(self)
        return fields

    @property
    def type_code(self):
        """The DLPack type code (kDLInt, kDLFloat, ...)."""
        return self._fields()[0]

    @property
    def bits(self):
        return self._fields()[1]

    @property
    def lanes(self):
        return self._fields()[2]

    @property
    def itemsize(self):
        """Bytes of one element (all lanes)."""
        code, bits, lanes = self._fields()
        return (bits * lanes + 7) // 8

    def with_lanes(self, lanes):
        code, bits, _ = self._fields()
        return dtype(_core.dtype_to_str(code, bits, lanes))

    def to_numpy(self):
        """The matching numpy.dtype (imports NumPy)."""
        import numpy as np

        name = _NUMPY_NAMES.get(str(self))
        if name is None:
            if self == "bfloat16":
                try:
                    import ml_dtypes

                    return np.dtype(ml_dtypes.bfloat16)
                except ImportError:
                    pass
            raise TypeError(f"dtype.to_numpy: {self} has no NumPy equivalent")
        return np.dtype(name)

    def __repr__(self):
        return f"dtype('{self}')"

    def __reduce__(self):
        return (dtype, (str(self),))


_core.set_dtype_class(dtype)
