"""Streams: set a device's current work stream for FFI kernels (StreamContext, use_raw_stream)."""

import sys

from ._core import Device
from .device import device
from .registry import get_global_func

_UINT64 = 1 << 64


def _api(name):
    return get_global_func("ffi." + name)


def _check_device(func, device):
    if not isinstance(device, Device):
        raise TypeError(
            f"{func}: argument `device` must be a tvm_ffi.Device (e.g. tvm_ffi.device('cuda:0')), "
            f"got {type(device).__name__}"
        )


def _stream_to_int(func, stream):
    """The handle as an unsigned pointer value, from an int or a ctypes.c_void_p."""
    ctypes = sys.modules.get("ctypes")  # a c_void_p exists only once ctypes is loaded
    if ctypes is not None and isinstance(stream, ctypes.c_void_p):
        return stream.value or 0
    if isinstance(stream, int):
        if stream < 0:
            raise OverflowError(
                f"{func}: argument `stream` must be a non-negative handle, got {stream}"
            )
        if stream >= _UINT64:
            raise OverflowError(f"{func}: argument `stream` does not fit in 64 bits: {stream}")
        return int(stream)
    raise ValueError(
        f"{func} only accepts int or c_void_p as stream input, got {type(stream).__name__}; "
        "try use_torch_stream when using torch.cuda.Stream or torch.cuda.graph"
    )


def _set(device_type, device_id, stream):
    # The C side carries the pointer bits in an int64.
    signed = stream - _UINT64 if stream >= 1 << 63 else stream
    previous = _api("EnvSetStream")(device_type, device_id, signed)
    return previous + _UINT64 if previous < 0 else previous


class StreamContext:
    """Sets a device's current FFI stream inside a ``with`` block and restores it after.

    On entering, the device's current environment stream is remembered and ``stream`` is
    made current (for this thread); on exiting, the remembered stream is current again.

    Parameters
    ----------
    device
        The device to which the stream belongs.
    stream
        The stream handle (an int such as a ``cudaStream_t`` value, or a ``ctypes.c_void_p``).
    """

    def __init__(self, device, stream):
        _check_device("StreamContext", device)
        self.device_type = device.device_type
        self.device_id = device.device_id
        self.stream = _stream_to_int("StreamContext", stream)
        self.prev_stream = None

    def __enter__(self):
        self.prev_stream = _set(self.device_type, self.device_id, self.stream)
        return self

    def __exit__(self, *exc_info):
        _set(self.device_type, self.device_id, self.prev_stream)


def use_raw_stream(device, stream):
    """A StreamContext making the raw handle `stream` the current stream of `device`.

    ``with tvm_ffi.use_raw_stream(dev, 0): assert tvm_ffi.get_raw_stream(dev) == 0``
    """
    _check_device("use_raw_stream", device)
    return StreamContext(device, _stream_to_int("use_raw_stream", stream))


def get_raw_stream(device):
    """The current FFI stream of `device` (this thread) as an integer handle; 0 when none is set."""
    _check_device("get_raw_stream", device)
    value = _api("EnvGetStream")(device.device_type, device.device_id)
    return value + _UINT64 if value < 0 else value


class _TorchStreamContext:
    """Makes torch's current CUDA stream (or a CUDA graph's capture stream) the FFI stream too."""

    def __init__(self, context):
        self.torch_context = context
        self.ffi_context = None

    def __enter__(self):
        import torch

        if self.torch_context is not None:
            self.torch_context.__enter__()
        if not torch.cuda.is_available():
            raise RuntimeError("use_torch_stream: torch has no CUDA device to take a stream from")
        stream = torch.cuda.current_stream()
        index = stream.device.index if stream.device.index is not None else 0
        self.ffi_context = StreamContext(Device(2, index), stream.cuda_stream)
        self.ffi_context.__enter__()
        return self

    def __exit__(self, *exc_info):
        if self.ffi_context is not None:
            self.ffi_context.__exit__(*exc_info)
        if self.torch_context is not None:
            self.torch_context.__exit__(*exc_info)


def use_torch_stream(context=None):
    """A context that makes torch's current CUDA stream the FFI stream of its device.

    `context` is a ``torch.cuda.stream(...)`` or ``torch.cuda.graph(...)`` context to enter
    first, or None for torch's current stream. Raises ImportError without torch.
    """
    try:
        import torch  # noqa: F401
    except ImportError:
        raise ImportError("use_torch_stream: Cannot import torch") from None
    return _TorchStreamContext(context)


device = device  # re-exported, as upstream's stream module does

__all__ = ["StreamContext", "device", "get_raw_stream", "use_raw_stream", "use_torch_stream"]
