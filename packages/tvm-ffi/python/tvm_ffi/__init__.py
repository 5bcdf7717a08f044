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
    from .container import Array, Dict, List, Map, Shape
    from .dtype import dtype
    from .dtype import CONSTANTS as _DTYPE_CONSTANTS
    from .device import device
    from .error import register_error
    from .module import Module, load_module, system_lib
    from . import core, error, stream, utils
    from .core import DLDeviceType, ObjectConvertible
    from .stream import StreamContext, get_raw_stream, use_raw_stream, use_torch_stream
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

    globals().update(_DTYPE_CONSTANTS)  # tvm_ffi.int32, tvm_ffi.float8_e4m3fn, ...

    __all__ = [
        "Array",
        "DLDeviceType",
        "Device",
        "Dict",
        "Function",
        "List",
        "Map",
        "ObjectConvertible",
        "StreamContext",
        "Module",
        "Object",
        "Shape",
        "Tensor",
        "convert",
        "convert_func",
        "core",
        "device",
        "dtype",
        "error",
        "from_dlpack",
        "get_global_func",
        "get_global_func_metadata",
        "get_raw_stream",
        "init_ffi_api",
        "libinfo",
        "list_global_func_names",
        "load_module",
        "register_error",
        "register_func",
        "register_global_func",
        "register_object",
        "remove_global_func",
        "stream",
        "system_lib",
        "use_raw_stream",
        "use_torch_stream",
        "utils",
        *_DTYPE_CONSTANTS,
    ]
