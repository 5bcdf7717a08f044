"""to_cpp_dtype: the C++ type name of a dtype, for generating kernel source text."""

_CPU_TYPES = {
    "bool": "bool", "int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t",
    "uint8": "uint8_t", "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t",
    "float32": "float", "float64": "double",
}


def to_cpp_dtype(dtype_str):
    """Convert a dtype (a str such as "float32", a tvm_ffi.dtype or a torch.dtype) to its C++
    type name ("float"). Dtypes without a standard C++ type (float16, bfloat16, float8, ...,
    vector lanes) raise ValueError.
    """
    text = dtype_str if isinstance(dtype_str, str) else str(dtype_str)
    if not isinstance(dtype_str, str) and type(dtype_str).__module__.split(".")[0] not in ("torch", "tvm_ffi"):
        raise TypeError(f"tvm_ffi.cpp.to_cpp_dtype: argument `dtype_str` must be a str, tvm_ffi.dtype or "
                        f"torch.dtype, got {type(dtype_str).__name__}")
    key = text.removeprefix("torch.")
    key = {"float": "float32", "double": "float64", "long": "int64", "int": "int32"}.get(key, key)
    if key not in _CPU_TYPES:
        raise ValueError(f"tvm_ffi.cpp.to_cpp_dtype: unsupported dtype {text!r}: expected one of "
                         f"{', '.join(_CPU_TYPES)}")
    return _CPU_TYPES[key]
