"""tvm.runtime: devices, tensors and modules."""

from tvm_ffi import convert

from .device import Device, cpu, cuda, device, register_device_name
from .device_api import DeviceAPI, device_exists, get_device_api, register_device_api
from .dlpack_pointer import data_pointer, tensor_from_pointer
from .module import Module, load_module, register_exporter
from .tensor import Tensor, copy_tensor, empty, tensor
from .time_evaluator import ProfileResult

__all__ = [
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
