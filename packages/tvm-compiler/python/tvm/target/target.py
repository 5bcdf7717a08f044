"""Targets: what to compile for, from "kind -opt=value" strings or dicts, with a kind registry."""

from __future__ import annotations

import shlex
import threading

_KINDS: dict[str, TargetKind] = {}


class TargetKind:
    """A kind of target: its options (name -> type) and the code generator that builds it."""

    def __init__(self, name: str, options: dict, keys, codegen: str):
        self.name = name
        self.options = dict(options)
        self.keys = tuple(keys)
        self.codegen = codegen

    def __repr__(self):
        return f"TargetKind({self.name!r}, codegen={self.codegen!r})"


def register_target_kind(
    name: str,
    options: dict | None = None,
    keys=("cpu",),
    codegen: str | None = None,
    override: bool = False,
) -> TargetKind:
    """Register a target kind; codegen names the backend that builds it (default: the kind)."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"register_target_kind: name must be an identifier, got {name!r}")
    if name in _KINDS and not override:
        raise ValueError(f"register_target_kind: kind {name!r} is already registered")
    options = {"keys": list, "tag": str, **(options or {})}
    for opt, typ in options.items():
        if typ not in (str, int, bool, list):
            raise TypeError(f"register_target_kind: option {opt!r} must be str, int, bool or list")
    kind = TargetKind(name, options, keys, codegen or name)
    _KINDS[name] = kind
    return kind


def list_target_kinds() -> list[str]:
    return sorted(_KINDS)


_CPU_OPTIONS = {"mcpu": str, "mtriple": str, "mattr": list, "num-cores": int}
register_target_kind("c", _CPU_OPTIONS, codegen="c")
# llvm is served by the C backend until an LLVM code generator exists.
register_target_kind("llvm", _CPU_OPTIONS, codegen="c")


class _TargetStack(threading.local):
    def __init__(self):
        self.stack: list[Target] = []


_CURRENT = _TargetStack()


class Target:
    """Target("c"), Target("llvm -mcpu=native"), Target({"kind": "llvm", "mcpu": "native"})."""

    def __init__(self, target, host=None):
        if isinstance(target, Target):
            self.kind, self.attrs = target.kind, dict(target.attrs)
            self.host = target.host if host is None else Target(host)
            return
        if isinstance(target, str):
            kind_name, attrs = _parse_string(target)
        elif isinstance(target, dict):
            attrs = dict(target)
            kind_name = attrs.pop("kind", None)
            if not isinstance(kind_name, str):
                raise ValueError(f"Target: a dict target needs a 'kind' string, got {target!r}")
            if "host" in attrs and host is None:
                host = attrs.pop("host")
        else:
            raise TypeError(f"Target: expected a str, dict or Target, got {type(target).__name__}")
        kind = _KINDS.get(kind_name)
        if kind is None:
            raise ValueError(
                f"Target: unknown target kind {kind_name!r}; known kinds: {list_target_kinds()}"
            )
        self.kind = kind
        self.attrs = _check_attrs(kind, attrs)
        self.host = None if host is None else Target(host)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(self.attrs.get("keys", kind_keys(self.kind)))

    def __str__(self):
        parts = [self.kind.name]
        for key, value in self.attrs.items():
            if value is True:
                parts.append(f"-{key}")
            elif isinstance(value, list):
                parts.append(f"-{key}={','.join(map(str, value))}")
            else:
                parts.append(f"-{key}={value}")
        return " ".join(parts)

    def __repr__(self):
        return f"Target({str(self)!r})"

    def __eq__(self, other):
        return isinstance(other, Target) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    def export(self) -> dict:
        return {"kind": self.kind.name, **self.attrs}

    def __enter__(self):
        _CURRENT.stack.append(self)
        return self

    def __exit__(self, *exc):
        _CURRENT.stack.pop()
        return False

    @staticmethod
    def current(allow_none: bool = True):
        if _CURRENT.stack:
            return _CURRENT.stack[-1]
        if not allow_none:
            raise ValueError("Target.current: no target is in scope (use `with Target(...)`)")
        return None


def kind_keys(kind: TargetKind):
    return kind.keys


def _parse_string(text: str):
    try:
        tokens = shlex.split(text)
    except ValueError as err:
        raise ValueError(f"Target: cannot parse {text!r}: {err}") from None
    if not tokens:
        raise ValueError("Target: the target string is empty")
    kind_name, attrs = tokens[0], {}
    for token in tokens[1:]:
        if not token.startswith("-"):
            raise ValueError(f"Target: option {token!r} in {text!r} must look like -name=value")
        name, eq, value = token.lstrip("-").partition("=")
        attrs[name] = value if eq else True
    return kind_name, attrs


def _check_attrs(kind: TargetKind, attrs: dict) -> dict:
    out = {}
    for name, value in attrs.items():
        expected = kind.options.get(name)
        if expected is None:
            raise ValueError(
                f"Target: kind {kind.name!r} has no option {name!r}; options: "
                f"{sorted(kind.options)}"
            )
        if expected is list and isinstance(value, str):
            value = [v for v in value.split(",") if v]
        elif expected is int and isinstance(value, str):
            try:
                value = int(value)
            except ValueError:
                raise ValueError(f"Target: option {name!r} expects an int, got {value!r}") from None
        elif expected is bool and isinstance(value, str):
            value = value.lower() in ("1", "true", "yes")
        if not isinstance(value, expected):
            raise TypeError(
                f"Target: option {name!r} expects {expected.__name__}, got {type(value).__name__}"
            )
        out[name] = value
    return out
