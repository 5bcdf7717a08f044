"""Devices: tvm.device("cuda:1"), tvm.cpu(i), tvm.cuda(i), and device names added by backends."""

from __future__ import annotations

import tvm_ffi

Device = tvm_ffi.Device

# Device names registered by backends (e.g. "example"), lower-case name -> DLPack device type.
_EXTRA_DEVICE_TYPES: dict[str, int] = {}


def register_device_name(name: str, device_type: int, *, override: bool = False) -> None:
    """Make `tvm.device(name, i)` build Device(device_type, i)."""
    if not isinstance(name, str) or not name or ":" in name:
        raise ValueError(
            "register_device_name: argument 'name' must be a non-empty str without ':', got "
            f"{name!r}"
        )
    if not isinstance(device_type, int) or isinstance(device_type, bool) or device_type < 0:
        raise ValueError(
            f"register_device_name: argument 'device_type' must be an int >= 0, got {device_type!r}"
        )
    key = name.lower()
    if not override and _EXTRA_DEVICE_TYPES.get(key, device_type) != device_type:
        raise ValueError(
            f"register_device_name: {name!r} already names device type {_EXTRA_DEVICE_TYPES[key]}; "
            "pass override=True to replace it"
        )
    _EXTRA_DEVICE_TYPES[key] = device_type


def _check_id(dev_id) -> int:
    if not isinstance(dev_id, int) or isinstance(dev_id, bool) or dev_id < 0:
        raise ValueError(f"tvm.device: argument 'dev_id' must be an int >= 0, got {dev_id!r}")
    return dev_id


def device(dev_type, dev_id: int = 0) -> Device:
    """A Device from a name ("cpu", "cuda:1", a backend's name), a DLPack code or a Device."""
    if isinstance(dev_type, Device):
        return dev_type
    if isinstance(dev_type, str):
        name, sep, index = dev_type.partition(":")
        if sep:
            try:
                dev_id = int(index)
            except ValueError:
                raise ValueError(f"tvm.device: cannot read a device id from {dev_type!r}") from None
        _check_id(dev_id)
        code = _EXTRA_DEVICE_TYPES.get(name.strip().lower())
        if code is None:
            try:
                return tvm_ffi.device(name.strip(), dev_id)
            except (ValueError, TypeError, KeyError) as err:
                known = ", ".join(sorted(_EXTRA_DEVICE_TYPES))
                raise ValueError(
                    f"tvm.device: unknown device name {name!r} ({err}); backend names: "
                    f"{known or 'none'}"
                ) from None
        return Device(code, dev_id)
    if isinstance(dev_type, int) and not isinstance(dev_type, bool):
        return Device(dev_type, _check_id(dev_id))
    raise TypeError(
        "tvm.device: argument 'dev_type' must be a str, int or Device, got "
        f"{type(dev_type).__name__}"
    )


def cpu(dev_id: int = 0) -> Device:
    """The host CPU."""
    return device("cpu", dev_id)


def cuda(dev_id: int = 0) -> Device:
    """CUDA GPU `dev_id`; using its memory needs a CUDA driver (see device_exists)."""
    return device("cuda", dev_id)
