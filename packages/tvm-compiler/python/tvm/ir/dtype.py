"""Data types of IR values ("float32", "int8x4", "bool", "handle") as code, bits and lanes."""

from __future__ import annotations

import re

_PATTERN = re.compile(
    r"^(float8_e4m3fnuz|float8_e4m3fn|float8_e5m2fnuz|float8_e5m2|float8_e8m0fnu|float4_e2m1fn"
    r"|int|uint|float|bfloat|bool|handle|void)(\d*)(?:x(\d+))?$"
)
# The float8 and float4 formats (as ml_dtypes and upstream name them) carry their width in the
# name.
FLOAT8_TYPES = (
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",  # a power of two 2^(e - 127) or NaN: no sign, no zero (OCP MX scales)
)
FLOAT4_TYPES = ("float4_e2m1fn",)
_DEFAULT_BITS = {
    "bool": 1,
    "handle": 64,
    "void": 0,
    **dict.fromkeys(FLOAT8_TYPES, 8),
    **dict.fromkeys(FLOAT4_TYPES, 4),
}
# Integers narrower than a byte (int4, uint2, ...) are stored one element per byte.
_INT_BITS = (2, 4, 8, 16, 32, 64)


class DataType(str):
    """A dtype string with its parts: ``DataType("float32x4").lanes == 4``."""

    __slots__ = ("type_code", "bits", "lanes")

    def __new__(cls, value):
        if isinstance(value, DataType):
            return value
        text = str(value).strip()
        # As upstream's parser, the empty string names the void type (an unknown dtype).
        match = _PATTERN.match(text or "void")
        if not isinstance(value, str) or match is None:
            raise ValueError(
                f"DataType: expected a dtype such as 'float32', 'int64', 'bool', 'float32x4' "
                f"or 'handle', got {value!r}"
            )
        code, bits_text, lanes_text = match.groups()
        if code in _DEFAULT_BITS:
            if bits_text and int(bits_text) != _DEFAULT_BITS[code]:
                raise ValueError(f"DataType: {code} has {_DEFAULT_BITS[code]} bits, got {value!r}")
            bits = _DEFAULT_BITS[code]
            text = code if lanes_text is None else f"{code}x{lanes_text}"
        else:
            if not bits_text:
                raise ValueError(f"DataType: {value!r} is missing its bit width (e.g. {code}32)")
            bits = int(bits_text)
            if bits not in _INT_BITS or (code in ("float", "bfloat") and bits < 16):
                raise ValueError(f"DataType: unsupported bit width in {value!r}")
        lanes = int(lanes_text) if lanes_text else 1
        if lanes < 1:
            raise ValueError(f"DataType: lanes must be positive in {value!r}")
        obj = super().__new__(cls, text)
        obj.type_code = code
        obj.bits = bits
        obj.lanes = lanes
        return obj

    @property
    def is_int(self) -> bool:
        return self.type_code == "int"

    @property
    def is_uint(self) -> bool:
        return self.type_code == "uint"

    @property
    def is_integer(self) -> bool:
        return self.type_code in ("int", "uint")

    @property
    def is_float(self) -> bool:
        return self.type_code in ("float", "bfloat", *FLOAT8_TYPES, *FLOAT4_TYPES)

    @property
    def is_float8(self) -> bool:
        return self.type_code in FLOAT8_TYPES

    @property
    def is_minifloat(self) -> bool:
        """A float8 or float4 format: stored as its bits, computed in float."""
        return self.type_code in FLOAT8_TYPES or self.type_code in FLOAT4_TYPES

    @property
    def is_bool(self) -> bool:
        return self.type_code == "bool"

    @property
    def is_handle(self) -> bool:
        return self.type_code == "handle"

    @property
    def bytes(self) -> int:
        return max(1, (self.bits + 7) // 8) * self.lanes

    def with_lanes(self, lanes: int) -> DataType:
        base = self.type_code if self.type_code in _DEFAULT_BITS else f"{self.type_code}{self.bits}"
        return DataType(base if lanes == 1 else f"{base}x{lanes}")

    def element_of(self) -> DataType:
        return self.with_lanes(1)


def dtype_of_python_value(value) -> DataType:
    """The dtype a Python scalar gets as an IR constant."""
    if isinstance(value, bool):
        return DataType("bool")
    if isinstance(value, int):
        return DataType("int32" if -(2**31) <= value < 2**31 else "int64")
    if isinstance(value, float):
        return DataType("float32")
    raise TypeError(
        f"dtype_of_python_value: expected bool, int or float, got {type(value).__name__}"
    )
