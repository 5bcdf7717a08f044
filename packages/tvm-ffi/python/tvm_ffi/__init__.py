"""tvm_ffi: the stable C ABI of tvm-stack (Any values, objects, functions, errors, DLPack tensors)."""

from . import libinfo

__version__ = "0.3.0"

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
    from ._core import Device, Function, Object, Tensor
    from .container import Array, Map, Shape
    from .dtype import dtype
    from .device import device
    from .error import register_error
    from .module import Module, load_module
    from .registry import (
        convert,
        get_global_func,
        init_ffi_api,
        list_global_func_names,
        register_func,
        register_global_func,
        register_object,
        remove_global_func,
    )
    from .tensor import from_dlpack
    from . import _object_hooks

    _object_hooks.install()
    # Imported on first use: they cost more to import than the rest of tvm_ffi.
    _LAZY_MODULES = ("access_path", "dataclasses", "serialization", "structural")
    _LAZY_NAMES = {
        **dict.fromkeys(
            ("StructuralKey", "get_first_structural_mismatch", "structural_equal", "structural_hash"), "structural"
        ),
        **dict.fromkeys(
            ("DefRegionKind", "InplaceMode", "StructuralMutator", "StructuralVisitor", "VisitInterrupt", "WalkOrder",
             "WalkResult", "structural_map", "structural_mutate", "structural_visit", "structural_walk"),
            "_structural_visit",
        ),
    }

    def __getattr__(name):
        import importlib

        if name in _LAZY_MODULES:
            return importlib.import_module(f".{name}", __name__)
        module = _LAZY_NAMES.get(name)
        if module is not None:
            return getattr(importlib.import_module(f".{module}", __name__), name)
        raise AttributeError(f"module 'tvm_ffi' has no attribute {name!r}")


    __all__ = [
        "Array",
        "DefRegionKind",
        "Device",
        "Function",
        "InplaceMode",
        "Map",
        "Module",
        "Object",
        "Shape",
        "StructuralKey",
        "StructuralMutator",
        "StructuralVisitor",
        "Tensor",
        "VisitInterrupt",
        "WalkOrder",
        "WalkResult",
        "access_path",
        "convert",
        "dataclasses",
        "device",
        "dtype",
        "from_dlpack",
        "get_first_structural_mismatch",
        "get_global_func",
        "init_ffi_api",
        "libinfo",
        "list_global_func_names",
        "load_module",
        "register_error",
        "register_func",
        "register_global_func",
        "register_object",
        "remove_global_func",
        "serialization",
        "structural",
        "structural_equal",
        "structural_hash",
        "structural_map",
        "structural_mutate",
        "structural_visit",
        "structural_walk",
    ]
