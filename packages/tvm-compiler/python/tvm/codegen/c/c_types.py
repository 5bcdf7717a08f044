"""C spellings of TIR dtypes and constants, and DLPack type codes for argument checks."""

from __future__ import annotations

import math

from tvm.ir.dtype import DataType

DL_TYPE_CODE = {
    "int": 0,
    "uint": 1,
    "float": 2,
    "bfloat": 4,
    "bool": 6,
    "float8_e4m3fn": 10,
    "float8_e4m3fnuz": 11,
    "float8_e5m2": 12,
    "float8_e5m2fnuz": 13,
    "float8_e8m0fnu": 14,
    "float4_e2m1fn": 17,
}
# _Float16 is IEEE binary16 in GCC (x86-64, since 12) and Clang: F16C or AVX512-FP16
# instructions where -march has them, libgcc's conversions where not.
_FLOAT_C = {16: "_Float16", 32: "float", 64: "double"}


def narrow_float(dtype) -> bool:
    """float16, bfloat16 or a float8/float4: computed in float, rounded to the dtype after every
    operation, which is what NumPy (and ml_dtypes) do for these types."""
    dtype = DataType(dtype)
    return dtype.is_float and (dtype.bits == 16 or dtype.is_minifloat) and dtype.lanes == 1


def _storage_helper(dtype, load: bool) -> str | None:
    """The prelude helper between a float and the bits a bfloat16 or minifloat element stores."""
    dtype = DataType(dtype)
    name = (
        "bf16" if dtype.type_code == "bfloat" else dtype.type_code if dtype.is_minifloat else None
    )
    if name is None:
        return None
    return f"tvm_{name}_to_f32" if load else f"tvm_f32_to_{name}"


def load_value(dtype, text: str) -> str:
    """C of the value of a buffer element `text` stored as its bits (bfloat16, float8, int4:
    a sub-byte integer keeps its value in the low bits of its byte, as ml_dtypes does)."""
    wrapped = wrap_sub_byte(dtype, text)
    if wrapped is not None:
        return wrapped
    helper = _storage_helper(dtype, load=True)
    return f"{helper}({text})" if helper else text


def store_value(dtype, text: str) -> str:
    """C of the bits stored for the value `text` in a buffer element of dtype."""
    dtype = DataType(dtype)
    if dtype.is_integer and dtype.bits < 8 and dtype.lanes == 1:
        return f"((uint8_t)((uint64_t)({text}) & {(1 << dtype.bits) - 1}u))"
    helper = _storage_helper(dtype, load=False)
    return f"{helper}({text})" if helper else text


def round_to(dtype, text: str) -> str:
    """C that rounds the float value `text` to narrow float dtype (a no-op for other dtypes)."""
    dtype = DataType(dtype)
    if not narrow_float(dtype):
        return text
    if dtype.type_code == "bfloat":
        return f"tvm_bf16_round({text})"
    if dtype.is_minifloat:
        return f"tvm_{dtype.type_code}_round({text})"
    return f"((_Float16)({text}))"


def wrap_sub_byte(dtype, text: str) -> str | None:
    """C that wraps the integer `text` to an int4/uint2/... dtype's bits (None for wider types),
    as two's complement integers wrap to their width."""
    dtype = DataType(dtype)
    if not dtype.is_integer or dtype.bits >= 8 or dtype.lanes != 1:
        return None
    if dtype.is_uint:
        return f"((uint8_t)((uint64_t)({text}) & {(1 << dtype.bits) - 1}u))"
    shift = 8 - dtype.bits
    return f"((int8_t)((int8_t)((uint8_t)((uint64_t)({text}) << {shift})) >> {shift}))"


def c_type(dtype) -> str:
    """The C type of a scalar (or buffer element) of dtype."""
    dtype = DataType(dtype)
    if dtype.lanes != 1:
        raise NotImplementedError(f"codegen c: vector dtype {dtype} is not supported")
    if dtype.is_float:
        if dtype.type_code == "float" and dtype.bits in _FLOAT_C:
            return _FLOAT_C[dtype.bits]
        if dtype.type_code == "bfloat" and dtype.bits == 16:
            return "uint16_t"  # its bits in memory; values are computed as float (see BF16_HELPERS)
        if dtype.is_minifloat:
            return "uint8_t"  # its bits in memory, like bfloat16 (see minifloat.py)
        raise NotImplementedError(f"codegen c: dtype {dtype} is not supported")
    if dtype.is_bool:
        return "int8_t"
    if dtype.is_integer:  # int4, uint2, ...: one element per byte
        return f"{'u' if dtype.is_uint else ''}int{max(8, dtype.bits)}_t"
    if dtype.is_handle:
        return "void*"
    raise NotImplementedError(f"codegen c: dtype {dtype} is not supported")


def c_vector_type(dtype) -> tuple[str, str]:
    """(name, typedef) of the GCC/Clang vector type holding a value of vector dtype."""
    dtype = DataType(dtype)
    element = c_type(dtype.element_of())
    size = dtype.bytes
    if dtype.is_bool or size & (size - 1):
        raise NotImplementedError(f"codegen c: vector dtype {dtype} is not supported")
    name = f"tvm_{dtype.type_code}{dtype.bits}x{dtype.lanes}"
    # The _mem twin reads and writes buffer memory of any alignment without breaking aliasing
    # rules (the way SIMD intrinsics headers declare their unaligned types).
    return name, (
        f"typedef {element} {name} __attribute__((vector_size({size})));\n"
        f"typedef {element} {name}_mem __attribute__((vector_size({size}), aligned("
        f"{max(1, dtype.bits // 8)}), may_alias));"
    )


def c_scalar_type(dtype) -> str:
    """The C type of a local scalar: signed integers are widened to int64_t for index math."""
    dtype = DataType(dtype)
    if dtype.is_int or dtype.is_bool:
        return "int64_t"
    if dtype.type_code == "bfloat" or dtype.is_minifloat:
        return "float"
    return c_type(dtype)


def c_float_literal(value: float, dtype) -> str:
    if narrow_float(dtype):
        return round_to(dtype, c_float_literal(value, "float32"))
    suffix = "f" if DataType(dtype).bits == 32 else ""
    if math.isnan(value):
        return "NAN"
    if math.isinf(value):
        return "INFINITY" if value > 0 else "(-INFINITY)"
    text = repr(value)
    if "e" not in text and "." not in text:
        text += ".0"
    return f"{text}{suffix}" if value >= 0 else f"({text}{suffix})"


def c_int_literal(value: int) -> str:
    text = f"{value}LL" if not -(2**31) <= value < 2**31 else str(value)
    return text if value >= 0 else f"({text})"


def c_string_literal(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def dl_dtype_check(dtype) -> tuple[int, int, int]:
    """(code, bits, lanes) a DLTensor of dtype carries; bool travels as 8-bit kDLBool."""
    dtype = DataType(dtype)
    bits = 8 if dtype.is_bool else dtype.bits
    return DL_TYPE_CODE[dtype.type_code], bits, dtype.lanes
