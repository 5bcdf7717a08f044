"""TensorIntrin: a named pair of PrimFuncs, the computation a tensor instruction does (desc) and
the code that does it (impl), which Schedule.tensorize swaps in for a matching block."""

from __future__ import annotations

from .function import PrimFunc

_REGISTRY: dict[str, TensorIntrin] = {}


class TensorIntrin:
    """desc and impl take the same buffers, in the same order."""

    def __init__(self, desc: PrimFunc, impl: PrimFunc):
        for what, func in (("desc", desc), ("impl", impl)):
            if not isinstance(func, PrimFunc):
                raise TypeError(f"TensorIntrin: {what} must be a PrimFunc, got {func!r}")
        if len(desc.params) != len(impl.params):
            raise ValueError(
                f"TensorIntrin: desc takes {len(desc.params)} buffers, impl {len(impl.params)}"
            )
        self.desc, self.impl = desc, impl

    @staticmethod
    def register(name: str, desc: PrimFunc, impl: PrimFunc, override: bool = False) -> None:
        if not isinstance(name, str):
            raise TypeError(f"TensorIntrin.register: name must be a str, got {name!r}")
        if name in _REGISTRY and not override:
            raise ValueError(f"TensorIntrin {name!r} has already been registered")
        _REGISTRY[name] = TensorIntrin(desc, impl)

    @staticmethod
    def get(name: str, allow_missing: bool = False) -> TensorIntrin | None:
        found = _REGISTRY.get(name)
        if found is None and not allow_missing:
            raise ValueError(f"TensorIntrin {name!r} is not registered")
        return found

    def __repr__(self):
        return f"TensorIntrin(desc={self.desc.params}, impl={self.impl.params})"


__all__ = ["TensorIntrin"]
