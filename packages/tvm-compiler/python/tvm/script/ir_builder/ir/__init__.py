"""tvm.script.ir_builder.ir: the IRModule frame and I.* builder functions."""

from __future__ import annotations

from ..base import IRBuilder, IRBuilderFrame


class IRModuleFrame(IRBuilderFrame):
    def __init__(self):
        self.functions: dict = {}
        self.attrs: dict = {}
        self.global_infos: dict = {}
        # Names of the class's own functions, declared before any is parsed: functions a parse
        # adds on its own (R.emit_te's PrimFuncs) must not take one.
        self.reserved_names: set = set()

    def exit(self):
        from tvm.ir.module import IRModule

        IRBuilder.current().result = IRModule(self.functions, self.attrs, self.global_infos)


def ir_module() -> IRModuleFrame:
    return IRModuleFrame()


def module_attrs(attrs: dict) -> None:
    """Attributes of the module being built (I.module_attrs({...}) in a class body)."""
    if not isinstance(attrs, dict):
        raise TypeError(f"I.module_attrs: expected a dict, got {type(attrs).__name__}")
    frame = _class_body_frame("I.module_attrs")
    if frame is not None:
        frame.attrs.update(attrs)


def _class_body_frame(who: str) -> IRModuleFrame | None:
    """The module a class-body call (I.module_attrs, ...) adds to; None while Python runs the
    class body before @I.ir_module parses it."""
    if not IRBuilder.is_in_scope():
        return None
    frame = IRBuilder.current().find_frame(IRModuleFrame)
    if frame is None:
        raise ValueError(f"{who} must be inside an @I.ir_module class")
    return frame


def module_frame() -> IRModuleFrame | None:
    """The module being built, seen from any builder nested in its parse (a prim_func's)."""
    from ..base import _STATE

    for builder in reversed(getattr(_STATE, "stack", [])):
        frame = builder.find_frame(IRModuleFrame)
        if frame is not None:
            return frame
    return None


def module_global_infos(global_infos: dict) -> None:
    """Global infos of the module being built, such as {"vdevice": [I.vdevice("llvm")]}."""
    from tvm.ir.module import _global_infos

    infos = _global_infos(global_infos, "I.module_global_infos")
    frame = _class_body_frame("I.module_global_infos")
    if frame is not None:
        frame.global_infos.update(infos)


def vdevice(target=None, vdevice_id: int = 0, memory_scope: str = "global"):
    """A virtual device (for I.module_global_infos({"vdevice": [...]})): a target as a str,
    a dict (as printed) or a Target, its id and its memory scope."""
    from tvm.relax.global_info import VDevice
    from tvm.target import Target

    if isinstance(target, dict):
        # The printed form spells out the kind's default keys and the empty tag: the same target.
        config = dict(target)
        kind = config.get("kind")
        if config.get("tag") == "":
            del config["tag"]
        if isinstance(kind, str) and "keys" in config:
            default = Target(kind).keys
            if tuple(config["keys"]) == tuple(default):
                del config["keys"]
        target = config
    return VDevice(target, vdevice_id, memory_scope)


def lookup_vdevice(target_kind: str | None = None, device_index: int = -1):
    """The virtual device of the module being built: the device_index-th one of target_kind
    (any kind when None); the first one when device_index is -1."""
    return _find_vdevice(target_kind, device_index, "I.lookup_vdevice")


def _find_vdevice(target_kind, device_index, who):
    frame = module_frame()
    devices = list(frame.global_infos.get("vdevice", ())) if frame is not None else []
    if target_kind is not None:
        devices = [d for d in devices if d.target is not None and d.target.kind.name == target_kind]
    if not devices:
        what = (
            "virtual devices" if target_kind is None else f"virtual devices of kind {target_kind!r}"
        )
        raise ValueError(
            f"{who}: the module declares no {what}; declare them with "
            'I.module_global_infos({"vdevice": [I.vdevice(...)]})'
        )
    index = 0 if device_index == -1 else device_index
    if not 0 <= index < len(devices):
        raise ValueError(
            f"{who}: device_index {device_index} is out of range: the module declares "
            f"{len(devices)} matching virtual devices"
        )
    return devices[index]


def resolve_vdevice(spec, who: str):
    """The VDevice a struct info's vdevice= names: a VDevice, or "kind", "kind:index" or
    "kind:index:scope" (index among the module's virtual devices of that kind, as upstream)."""
    from tvm.relax.global_info import VDevice

    if spec is None or isinstance(spec, VDevice):
        return spec
    if not isinstance(spec, str):
        raise TypeError(
            f'{who}: vdevice must be a str such as "llvm:0" or an I.vdevice, got {spec!r}'
        )
    kind, _, rest = spec.partition(":")
    index_text, _, scope = rest.partition(":")
    try:
        index = int(index_text) if index_text else 0
    except ValueError:
        raise ValueError(
            f'{who}: vdevice {spec!r} must look like "kind", "kind:index" or "kind:index:scope"'
        ) from None
    found = _find_vdevice(kind, index, who)
    if scope and found.memory_scope != scope:
        raise ValueError(
            f"{who}: vdevice {spec!r}: virtual device {index} of kind {kind!r} has memory scope "
            f"{found.memory_scope!r}"
        )
    return found
