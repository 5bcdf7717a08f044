"""tvm_ffi: the stable C ABI of tvm-stack (Any values, objects, functions, errors, tensors)."""

from . import libinfo

__version__ = "0.3.0"
__version_tuple__ = (0, 3, 0)

try:
    from . import _core
except ImportError as _err:  # a half-built install: keep libinfo/config usable for builds
    _core = None
    _core_import_error = _err

    def __getattr__(name):
        raise ImportError(
            f"tvm_ffi.{name} is unavailable: the native module tvm_ffi._core failed to import "
            f"({_core_import_error}); reinstall tvm-ffi"
        ) from _core_import_error

else:
    from . import _object_hooks, error
    from ._core import Device, Function, Object, Tensor
    from .container import Array, Dict, List, Map, Shape
    from .device import device
    from .dtype import CONSTANT_NAMES as _DTYPE_CONSTANTS
    from .dtype import dtype
    from .error import register_error
    from .module import Module, load_module, system_lib
    from .registry import (
        convert,
        convert_func,
        get_global_func,
        get_global_func_metadata,
        init_ffi_api,
        list_global_func_names,
        register_func,
        register_global_func,
        register_object,
        remove_global_func,
    )
    from .tensor import from_dlpack

    _object_hooks.install()
    from . import _recursive_compare  # registers ffi.RecursiveEq / RecursiveHash / RecursiveLt...

    # Loaded on first use, so `import tvm_ffi` stays as fast as it was: each costs more to
    # import than the rest of tvm_ffi (enum, ctypes, fcntl, the reflection layers).
    _STRUCTURAL_VISIT_NAMES = (
        "DefRegionKind",
        "InplaceMode",
        "StructuralMutator",
        "StructuralVisitor",
        "VisitInterrupt",
        "WalkOrder",
        "WalkResult",
        "structural_map",
        "structural_mutate",
        "structural_visit",
        "structural_walk",
    )
    _LAZY = {
        **{
            name: (name, None)
            for name in (
                "core",
                "stream",
                "utils",
                "access_path",
                "cpp",
                "dataclasses",
                "serialization",
                "structural",
            )
        },
        "method": ("dataclasses.py_class", "method"),
        "DLDeviceType": ("core", "DLDeviceType"),
        "ObjectConvertible": ("core", "ObjectConvertible"),
        "StreamContext": ("stream", "StreamContext"),
        "get_raw_stream": ("stream", "get_raw_stream"),
        "use_raw_stream": ("stream", "use_raw_stream"),
        "use_torch_stream": ("stream", "use_torch_stream"),
        **{
            name: ("structural", name)
            for name in (
                "StructuralKey",
                "get_first_structural_mismatch",
                "structural_equal",
                "structural_hash",
            )
        },
        **{name: ("_structural_visit", name) for name in _STRUCTURAL_VISIT_NAMES},
    }

    def __getattr__(name):
        where = _LAZY.get(name)
        if name == "LIB":  # upstream's ctypes handle of libtvm_ffi
            import ctypes

            globals()["LIB"] = lib = ctypes.CDLL(libinfo.find_libtvm_ffi())
            return lib
        if where is None:
            if name in _DTYPE_CONSTANTS:  # tvm_ffi.int32, tvm_ffi.float8_e4m3fn, ...
                globals()[name] = value = dtype(name)
                return value
            raise AttributeError(f"module 'tvm_ffi' has no attribute {name!r}")
        import importlib

        module = importlib.import_module("." + where[0], __name__)
        value = module if where[1] is None else getattr(module, where[1])
        globals()[name] = value
        return value

    __all__ = [
        "Array",
        "DLDeviceType",
        "Device",
        "Dict",
        "Function",
        "LIB",
        "List",
        "Map",
        "Module",
        "Object",
        "ObjectConvertible",
        "Shape",
        "StreamContext",
        "StructuralKey",
        "Tensor",
        "access_path",
        "convert",
        "convert_func",
        "core",
        "cpp",
        "dataclasses",
        "device",
        "dtype",
        "error",
        "from_dlpack",
        "get_first_structural_mismatch",
        "get_global_func",
        "get_global_func_metadata",
        "get_raw_stream",
        "init_ffi_api",
        "libinfo",
        "list_global_func_names",
        "load_module",
        "method",
        "register_error",
        "register_func",
        "register_global_func",
        "register_object",
        "remove_global_func",
        "serialization",
        "stream",
        "structural",
        "structural_equal",
        "structural_hash",
        "system_lib",
        "use_raw_stream",
        "use_torch_stream",
        "utils",
        "__version__",
        "__version_tuple__",
        *_STRUCTURAL_VISIT_NAMES,
        *_DTYPE_CONSTANTS,
    ]
