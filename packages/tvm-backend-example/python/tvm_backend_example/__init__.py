"""tvm-backend-example: native float32 kernels and an `example` device, loaded by `import tvm`."""

from __future__ import annotations

import os

__version__ = "0.1.0"

LIBRARY_NAME = "libtvm_backend_example.so"
# The example device: host memory tagged with DLPack's extension device type (kDLExtDev).
DEVICE_TYPE = 12
KERNELS = ("example.gemm", "example.add", "example.relu", "example.empty", "example.copy")


def library_path() -> str:
    """Where the wheel put the native library."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib", LIBRARY_NAME)


def load() -> None:
    """The `tvm.backends` entry point: load the library (its globals register themselves) and
    register the `example` device. Safe to call again."""
    import tvm_ffi
    from tvm import base, runtime

    from .device_api import ExampleDeviceAPI

    base.load_backend_libs([library_path()])
    missing = [
        name for name in KERNELS if tvm_ffi.get_global_func(name, allow_missing=True) is None
    ]
    if missing:
        raise RuntimeError(f"tvm_backend_example.load: {LIBRARY_NAME} did not register {missing}")
    try:
        registered = runtime.get_device_api(runtime.device(DEVICE_TYPE, 0))
    except RuntimeError:
        registered = None
    if not isinstance(registered, ExampleDeviceAPI):
        runtime.register_device_api(DEVICE_TYPE, ExampleDeviceAPI(), name="example", override=True)
