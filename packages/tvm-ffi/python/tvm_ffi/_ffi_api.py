"""The ffi.* global functions as attributes (tvm_ffi._ffi_api.RecursiveEq is ffi.RecursiveEq)."""

from ._core import get_global_func, list_global_func_names


def __getattr__(name):
    func = None if name.startswith("__") else get_global_func("ffi." + name, allow_missing=True)
    if func is None:
        raise AttributeError(f"module 'tvm_ffi._ffi_api' has no attribute '{name}'")
    return func


def __dir__():
    return sorted(
        n[4:] for n in list_global_func_names() if n.startswith("ffi.") and "." not in n[4:]
    )
