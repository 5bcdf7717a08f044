"""device(): Device values from names ("cpu", "cuda:1") or (type, index) pairs."""

from ._core import DEVICE_TYPE_CODES, Device

_ALIASES = {
    "gpu": "cuda",
    "llvm": "cpu",
    "c": "cpu",
    "stackvm": "cpu",
    "nvptx": "cuda",
    "cl": "opencl",
}


def device(device_type, index=None):
    """A Device: ``device("cuda", 1)``, ``device("cuda:1")``, ``device(2, 0)`` or a Device."""
    if isinstance(device_type, Device):
        if index is not None and index != device_type.device_id:
            return Device(device_type.device_type, index)
        return device_type
    if isinstance(device_type, int) and not isinstance(device_type, bool):
        return Device(device_type, 0 if index is None else index)
    if not isinstance(device_type, str):
        raise TypeError(
            "device: argument `device_type` must be a str, int or Device, "
            f"got {type(device_type).__name__}"
        )
    name = device_type.strip()
    if ":" in name:
        name, _, idx = name.partition(":")
        if index is not None:
            raise ValueError(
                f"device: the index is given twice, in {device_type!r} and as index={index}"
            )
        try:
            index = int(idx)
        except ValueError:
            raise ValueError(f"device: cannot parse the index in {device_type!r}") from None
    name = _ALIASES.get(name, name)
    code = DEVICE_TYPE_CODES.get(name)
    if code is None:
        known = ", ".join(sorted(DEVICE_TYPE_CODES))
        raise ValueError(f"device: unknown device type {device_type!r}; expected one of {known}")
    return Device(code, 0 if index is None else index)
