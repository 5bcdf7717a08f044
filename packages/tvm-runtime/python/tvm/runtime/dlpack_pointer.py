"""Raw memory <-> Tensor through DLPack capsules made with ctypes (device APIs without C++)."""

from __future__ import annotations

import atexit
import ctypes

import tvm_ffi


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class DLManagedTensorVersioned(ctypes.Structure):
    pass


_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))
DLManagedTensorVersioned._fields_ = [
    ("major", ctypes.c_uint32),
    ("minor", ctypes.c_uint32),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", _DELETER),
    ("flags", ctypes.c_uint64),
    ("dl_tensor", DLTensor),
]

_CAPSULE_NAME = b"dltensor_versioned"
_USED_NAME = b"used_dltensor_versioned"
_pythonapi = ctypes.pythonapi
_pythonapi.PyCapsule_New.restype = ctypes.py_object
_pythonapi.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_pythonapi.PyCapsule_IsValid.restype = ctypes.c_int
_pythonapi.PyCapsule_IsValid.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
_pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
_pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
_pythonapi.PyCapsule_GetName.restype = ctypes.c_char_p
_pythonapi.PyCapsule_GetName.argtypes = [ctypes.py_object]

# Live exports: address of the managed struct -> (struct, shape array, keepalive, on_free).
_LIVE: dict[int, tuple] = {}


def _release(address: int) -> None:
    entry = _LIVE.pop(address, None)
    if entry is not None and entry[3] is not None:
        entry[3]()


@_DELETER
def _managed_deleter(managed):
    _release(ctypes.addressof(managed.contents))


@atexit.register
def _leak_live_exports_at_exit() -> None:
    # A tensor still alive at exit dies during interpreter teardown, after this module's
    # globals (the ctypes structs in _LIVE, the deleter's thunk) may be gone: it would read
    # freed memory and call freed code. Keep the structs for good and drop their deleters.
    for managed, *_ in _LIVE.values():
        managed.deleter = _DELETER()
    _pythonapi.Py_IncRef(ctypes.py_object(_LIVE))


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _capsule_destructor(capsule):
    # An unconsumed capsule still owns its tensor; a consumer renames it and calls the deleter.
    if _pythonapi.PyCapsule_IsValid(capsule, _CAPSULE_NAME):
        _release(_pythonapi.PyCapsule_GetPointer(capsule, _CAPSULE_NAME))


class _PointerExport:
    """A DLPack producer for one block of memory; from_dlpack consumes it once."""

    def __init__(self, capsule, device):
        self._capsule = capsule
        self._device = device

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        if max_version is not None and tuple(max_version)[0] < 1:
            raise BufferError("tensor_from_pointer: the consumer must accept DLPack 1.x")
        capsule, self._capsule = self._capsule, None
        if capsule is None:
            raise BufferError("tensor_from_pointer: this DLPack export was already consumed")
        return capsule

    def __dlpack_device__(self):
        return self._device


def tensor_from_pointer(address: int, shape, dtype: str, device, *, keepalive=None, on_free=None):
    """A Tensor over `address` on `device` (C-contiguous); on_free() runs when it dies.

    keepalive is held until then (e.g. the host buffer the address points into).
    """
    if not isinstance(address, int) or address < 0:
        raise ValueError(
            f"tensor_from_pointer: argument 'address' must be an int >= 0, got {address!r}"
        )
    dims = tuple(int(d) for d in shape)
    dt = tvm_ffi.dtype(str(dtype))
    managed = DLManagedTensorVersioned()
    shape_array = (ctypes.c_int64 * max(len(dims), 1))(*dims)
    managed.major, managed.minor = 1, 0
    managed.deleter = _managed_deleter
    managed.dl_tensor.data = address
    managed.dl_tensor.device = DLDevice(int(device.device_type), int(device.device_id))
    managed.dl_tensor.ndim = len(dims)
    managed.dl_tensor.dtype = DLDataType(int(dt.type_code), int(dt.bits), int(dt.lanes))
    managed.dl_tensor.shape = shape_array
    managed.dl_tensor.strides = None
    _LIVE[ctypes.addressof(managed)] = (managed, shape_array, keepalive, on_free)
    capsule = _pythonapi.PyCapsule_New(
        ctypes.addressof(managed), _CAPSULE_NAME, ctypes.cast(_capsule_destructor, ctypes.c_void_p)
    )
    export = _PointerExport(capsule, (int(device.device_type), int(device.device_id)))
    return tvm_ffi.from_dlpack(export)


def data_pointer(tensor) -> int:
    """Address of the first element of `tensor` (read through its own DLPack export)."""
    capsule = tensor.__dlpack__(max_version=(1, 0))
    name = _pythonapi.PyCapsule_GetName(capsule)
    if name != _CAPSULE_NAME:
        raise BufferError(
            f"data_pointer: expected a {_CAPSULE_NAME.decode()} capsule, got {name!r}"
        )
    # id() is the object's address in CPython, which is what the capsule C API takes.
    managed = DLManagedTensorVersioned.from_address(
        _pythonapi.PyCapsule_GetPointer(id(capsule), _CAPSULE_NAME)
    )
    address = (managed.dl_tensor.data or 0) + managed.dl_tensor.byte_offset
    return address  # the capsule's destructor returns the export when it goes
