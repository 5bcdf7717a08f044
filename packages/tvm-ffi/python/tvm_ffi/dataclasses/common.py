"""Dataclass helpers of py_class / c_class types: fields, asdict, astuple, replace, is_dataclass."""

from __future__ import annotations

from typing import Any

from .field import Field


def _fields_of(obj_or_cls, func):
    cls = obj_or_cls if isinstance(obj_or_cls, type) else type(obj_or_cls)
    fields = getattr(cls, "__tvm_ffi_py_fields__", None)
    if fields is None:
        raise TypeError(
            f"{func}() should be called on a py_class or c_class type or instance, "
            f"got {cls.__name__}"
        )
    return fields


def is_dataclass(obj: Any) -> bool:
    """True for a py_class / c_class type or instance."""
    cls = obj if isinstance(obj, type) else type(obj)
    return hasattr(cls, "__tvm_ffi_py_fields__")


def fields(obj_or_cls: Any) -> tuple[Field, ...]:
    """The Field records of a py_class / c_class (base class fields first)."""
    return tuple(_fields_of(obj_or_cls, "fields"))


def _convert_out(value, factory):
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value, dict_factory=factory)
    from ..container import Array, Dict, List, Map

    if isinstance(value, (Array, List)):
        return [_convert_out(v, factory) for v in value]
    if isinstance(value, (Map, Dict)):
        return {k: _convert_out(v, factory) for k, v in value.items()}
    return value


def asdict(obj: Any, *, dict_factory=dict) -> Any:
    """The fields as a dict, nested dataclass objects, Arrays and Maps converted recursively."""
    fs = _fields_of(obj, "asdict")
    if isinstance(obj, type):
        raise TypeError("asdict() should be called on py_class instances, not on the class")
    return dict_factory([(f.name, _convert_out(getattr(obj, f.name), dict_factory)) for f in fs])


def astuple(obj: Any) -> tuple:
    """The field values as a tuple (nested dataclass objects as dicts are not converted)."""
    fs = _fields_of(obj, "astuple")
    return tuple(_convert_out(getattr(obj, f.name), dict) for f in fs)


def replace(obj, /, **changes):
    """A new object like obj with the given fields changed (init=False fields cannot be changed)."""
    fs = _fields_of(obj, "replace")
    by_name = {f.name: f for f in fs}
    for name in changes:
        if name not in by_name:
            raise TypeError(f"replace(): {type(obj).__name__} has no field {name!r}")
        if not by_name[name].init:
            raise ValueError(
                f"replace(): field {name!r} is declared with init=False, it cannot be specified"
            )
    kwargs = {f.name: changes.get(f.name, getattr(obj, f.name)) for f in fs if f.init}
    return type(obj)(**kwargs)


__all__ = ["asdict", "astuple", "fields", "is_dataclass", "replace"]
