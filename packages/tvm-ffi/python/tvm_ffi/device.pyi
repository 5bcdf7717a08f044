"""device(): Device values from names ("cpu", "cuda:1") or (type, index) pairs."""

from ._core import Device

def device(device_type: str | int | Device, index: int | None = None) -> Device: ...
