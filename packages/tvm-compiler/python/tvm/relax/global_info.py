"""Relax's global infos: the virtual devices (VDevice) tensors live on, as I.vdevice declares."""

from __future__ import annotations

from tvm.ir.global_info import GlobalInfo


class DummyGlobalInfo(GlobalInfo):
    """A global info with no content (a placeholder entry)."""

    _key_namespace = "relax"

    def __init__(self):
        self._set(span=None)


class VDevice(GlobalInfo):
    """A virtual device: a target, an id among devices of that target, and a memory scope."""

    _fields = ("target", "vdevice_id", "memory_scope")
    _key_namespace = "relax"

    def __init__(self, target=None, vdevice_id: int = 0, memory_scope: str = "global"):
        from tvm.target import Target

        if isinstance(target, (str, dict)):
            target = Target(target)
        if target is not None and not isinstance(target, Target):
            raise TypeError(
                f"VDevice: target must be a Target, a str or a dict, got {type(target).__name__}"
            )
        if not isinstance(vdevice_id, int) or isinstance(vdevice_id, bool) or vdevice_id < 0:
            raise ValueError(f"VDevice: vdevice_id must be an int >= 0, got {vdevice_id!r}")
        if not isinstance(memory_scope, str):
            raise TypeError(f"VDevice: memory_scope must be a str, got {memory_scope!r}")
        self._set(target=target, vdevice_id=vdevice_id, memory_scope=memory_scope, span=None)
