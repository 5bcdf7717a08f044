"""Streams: set the current work stream of a device for FFI kernels."""

import ctypes
from types import TracebackType
from typing import Any

from ._core import Device
from .device import device as device

class StreamContext:
    device_type: int
    device_id: int
    stream: int
    prev_stream: int | None
    def __init__(self, device: Device, stream: int | ctypes.c_void_p) -> None: ...
    def __enter__(self) -> StreamContext: ...
    def __exit__(
        self, *exc_info: type[BaseException] | BaseException | TracebackType | None
    ) -> None: ...

class _TorchStreamContext:
    def __init__(self, context: Any) -> None: ...
    def __enter__(self) -> _TorchStreamContext: ...
    def __exit__(self, *exc_info: object) -> None: ...

def use_raw_stream(device: Device, stream: int | ctypes.c_void_p) -> StreamContext: ...
def get_raw_stream(device: Device) -> int: ...
def use_torch_stream(context: Any = None) -> _TorchStreamContext: ...

__all__ = ["StreamContext", "device", "get_raw_stream", "use_raw_stream", "use_torch_stream"]
