"""tvm.runtime: devices, tensors and modules."""

from tvm_ffi import convert
from tvm_ffi import dtype as DataType  # noqa: N812  (upstream 0.27: tvm.runtime.DataType is it)

from .device import Device, cpu, cuda, device, register_device_name
from .device_api import DeviceAPI, device_exists, get_device_api, register_device_api
from .dlpack_pointer import data_pointer, tensor_from_pointer
from .module import Module, load_module, register_exporter
from .tensor import Tensor, copy_tensor, empty, tensor
from .time_evaluator import ProfileResult

__all__ = [
    "DataType",
    "Device",
    "DeviceAPI",
    "Module",
    "ProfileResult",
    "Tensor",
    "convert",
    "copy_tensor",
    "cpu",
    "cuda",
    "data_pointer",
    "device",
    "device_exists",
    "empty",
    "get_device_api",
    "load_module",
    "register_device_api",
    "register_device_name",
    "register_exporter",
    "tensor",
    "tensor_from_pointer",
]


def __getattr__(name):
    # The VM loads on first use (tvm.runtime.vm, tvm.runtime.Executable): `import tvm` stays light.
    if name in ("vm", "Executable"):
        import importlib

        vm = importlib.import_module(f"{__name__}.vm")
        return vm if name == "vm" else vm.Executable
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _vm_load_executable(module, device_type, device_id, memory_cfg=""):
    # What an RPC client's VirtualMachine(remote_module, remote_device) asks the serving side
    # for; the VM itself is imported only then.
    from .vm.remote import load_executable

    return load_executable(module, device_type, device_id, memory_cfg)


import tvm_ffi as _tvm_ffi  # noqa: E402

_tvm_ffi.register_global_func("vm.remote.load_executable", _vm_load_executable, override=True)
