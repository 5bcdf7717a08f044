"""The operator registry: primitive ops by name, each with per-op attributes."""

from __future__ import annotations

import threading

from .node import Node

_LOCK = threading.Lock()
_OPS: dict[str, Op] = {}
# attr_name -> {op_name: (level, value)}
_ATTRS: dict[str, dict[str, tuple[int, object]]] = {}


class Op(Node):
    """A primitive operator; there is one Op object per registered name."""

    _fields = ("name",)
    _compare_by = "name"

    def __init__(self, *args, **kwargs):
        raise TypeError("Op: use tvm.ir.register_op(name) to create and Op.get(name) to look up")

    @staticmethod
    def get(name: str) -> Op:
        if not isinstance(name, str):
            raise TypeError(f"Op.get: name must be a str, got {type(name).__name__}")
        op = _OPS.get(name)
        if op is None:
            raise ValueError(f"Op.get: no operator named {name!r} is registered")
        return op

    def get_attr(self, attr_name: str, default=None):
        entry = _ATTRS.get(attr_name, {}).get(self.name)
        return default if entry is None else entry[1]

    def has_attr(self, attr_name: str) -> bool:
        return self.name in _ATTRS.get(attr_name, {})

    def set_attr(self, attr_name: str, value, level: int = 10) -> None:
        """Set an attribute; an existing value is replaced only by a higher level."""
        with _LOCK:
            table = _ATTRS.setdefault(attr_name, {})
            existing = table.get(self.name)
            if existing is not None and existing[0] >= level:
                raise ValueError(
                    f"Op.set_attr: attribute {attr_name!r} of {self.name!r} is already set at "
                    f"level {existing[0]}; pass a higher level to override"
                )
            table[self.name] = (level, value)

    def reset_attr(self, attr_name: str) -> None:
        with _LOCK:
            _ATTRS.get(attr_name, {}).pop(self.name, None)

    def __repr__(self):
        return f"Op({self.name!r})"


def register_op(name: str, description: str = "", num_inputs: int = -1) -> Op:
    """Create (or return the already registered) operator called name."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"register_op: name must be a non-empty str, got {name!r}")
    with _LOCK:
        op = _OPS.get(name)
        if op is None:
            op = object.__new__(Op)
            op._set(name=name, description=description, num_inputs=num_inputs)
            _OPS[name] = op
    return op


def register_op_attr(op_name: str, attr_key: str, value=None, level: int = 10):
    """Set an op attribute; without value, a decorator that sets the decorated function."""

    def _register(v):
        Op.get(op_name).set_attr(attr_key, v, level)
        return v

    return _register if value is None else _register(value)


def list_op_names() -> list[str]:
    return sorted(_OPS)
