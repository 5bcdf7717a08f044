"""to_cpp_dtype: the C++ type name of a dtype, for generating kernel source text."""

import importlib

CPU_DTYPE_MAP = {
    "int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t",
    "uint8": "uint8_t", "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t",
    "float32": "float", "float64": "double", "bool": "bool",
}  # fmt: skip

# The types CUDA's and ROCm's headers name (cuda_fp16.h, cuda_bf16.h, cuda_fp8.h, cuda_fp4.h,
# hip's).
CUDA_DTYPE_MAP = {
    "float16": "__half", "bfloat16": "__nv_bfloat16", "float8_e4m3fn": "__nv_fp8_e4m3",
    "float8_e5m2": "__nv_fp8_e5m2", "float8_e8m0fnu": "__nv_fp8_e8m0",
    "float4_e2m1": "__nv_fp4_e2m1", "float4_e2m1fn_x2": "__nv_fp4x2_e2m1",
}  # fmt: skip
ROCM_DTYPE_MAP = {
    "float16": "__half", "bfloat16": "__hip_bfloat16", "float8_e4m3fn": "__hip_fp8_e4m3",
    "float8_e4m3fnuz": "__hip_fp8_e4m3_fnuz", "float8_e5m2": "__hip_fp8_e5m2",
    "float8_e5m2fnuz": "__hip_fp8_e5m2_fnuz", "float4_e2m1": "__hip_fp4_e2m1",
    "float4_e2m1fn_x2": "__hip_fp4x2_e2m1",
}  # fmt: skip


_BACKEND: list = []  # the answer of _gpu_backend, once asked


def _gpu_backend():
    """ "cuda" or "rocm" when PyTorch sees such a GPU, else "cpu" (torch is imported only here)."""
    if not _BACKEND:
        try:
            # By name, so that type checkers of this package need no PyTorch installed.
            torch = importlib.import_module("torch")
        except ImportError:
            _BACKEND.append("cpu")
        else:
            hip = "rocm" if torch.version.hip is not None else "cpu"
            gpu = "cuda" if torch.version.cuda is not None else hip
            _BACKEND.append(gpu if torch.cuda.is_available() else "cpu")
    return _BACKEND[0]


def to_cpp_dtype(dtype_str):
    """Convert a dtype (a str such as "float32", a tvm_ffi.dtype or a torch.dtype) to its C++
    type name ("float"), from CPU_DTYPE_MAP, or from CUDA_DTYPE_MAP / ROCM_DTYPE_MAP when PyTorch
    sees that GPU. Anything else (vector lanes, float16 without a GPU) raises ValueError.
    """
    text = dtype_str if isinstance(dtype_str, str) else str(dtype_str)
    if not isinstance(dtype_str, str) and type(dtype_str).__module__.split(".")[0] not in (
        "torch",
        "tvm_ffi",
    ):
        raise TypeError(
            f"tvm_ffi.cpp.to_cpp_dtype: argument `dtype_str` must be a str, tvm_ffi.dtype or "
            f"torch.dtype, got {type(dtype_str).__name__}"
        )
    key = text.removeprefix("torch.")
    key = {"float": "float32", "double": "float64", "long": "int64", "int": "int32"}.get(key, key)
    if key in CPU_DTYPE_MAP:
        return CPU_DTYPE_MAP[key]
    backend = _gpu_backend() if key in CUDA_DTYPE_MAP or key in ROCM_DTYPE_MAP else "cpu"
    gpu = {"cuda": CUDA_DTYPE_MAP, "rocm": ROCM_DTYPE_MAP}.get(backend, {})
    if key in gpu:
        return gpu[key]
    raise ValueError(
        f"tvm_ffi.cpp.to_cpp_dtype: unsupported dtype {text!r} for backend {backend!r}: "
        f"expected one of {', '.join(CPU_DTYPE_MAP)}"
        + (" (or a GPU type when PyTorch sees a GPU)" if backend == "cpu" else "")
    )


__all__ = ["CPU_DTYPE_MAP", "CUDA_DTYPE_MAP", "ROCM_DTYPE_MAP", "to_cpp_dtype"]
