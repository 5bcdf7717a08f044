"""Structural equality and hashing of IR nodes, mapping bound variables to each other."""

from __future__ import annotations

import enum
import hashlib

from .node import Node


def _is_var(value) -> bool:
    return isinstance(value, Node) and type(value)._is_var


def _is_function(value) -> bool:
    """A function is a scope of its own: the variables it defines (a PrimFunc's shape vars
    shared with the Relax function whose call_te made it, say) are mapped afresh in it, and
    forgotten after it, so that two sibling functions never constrain each other's."""
    return getattr(type(value), "_scopes_variables", False)


class _Mismatch(Exception):
    def __init__(self, path, detail: str, rhs_path=None):
        super().__init__(detail)
        self.lhs_path = path
        self.rhs_path = path if rhs_path is None else rhs_path
        self.detail = detail


# A path while checking is a cheap linked tuple (parent, kind, key), None at the root; only a
# mismatch's path becomes a tvm_ffi AccessPath (upstream's form of the first mismatch).
_ATTR, _ITEM, _KEY = 0, 1, 2


def _access_path(path):
    from tvm_ffi.access_path import AccessPath

    steps = []
    while path is not None:
        path, kind, key = path
        steps.append((kind, key))
    result = AccessPath.root()
    for kind, key in reversed(steps):
        if kind == _ATTR:
            result = result.attr(key)
        elif kind == _ITEM:
            result = result.array_item(key)
        else:
            result = result.map_item(key)
    return result


class _EqualChecker:
    def __init__(self, map_free_vars: bool):
        self.map_free_vars = map_free_vars
        self.lhs_to_rhs: dict[int, object] = {}
        self.rhs_to_lhs: dict[int, object] = {}
        self.keep_alive: list = []

    def check(self, lhs, rhs, path: str, defining: bool) -> None:
        if lhs is rhs and not _is_var(lhs):
            return
        if _is_var(lhs) or _is_var(rhs):
            self._check_var(lhs, rhs, path, defining)
            return
        if isinstance(lhs, Node):
            self._check_node(lhs, rhs, path, defining)
            return
        if isinstance(lhs, (list, tuple)):
            if not isinstance(rhs, (list, tuple)) or len(lhs) != len(rhs):
                raise _Mismatch(path, f"sequence of length {len(lhs)} vs {_describe(rhs)}")
            for i, (a, b) in enumerate(zip(lhs, rhs)):
                self.check(a, b, (path, _ITEM, i), defining)
            return
        if isinstance(lhs, dict):
            if not isinstance(rhs, dict) or len(lhs) != len(rhs):
                raise _Mismatch(path, f"mapping of size {len(lhs)} vs {_describe(rhs)}")
            if _string_keyed(lhs) and _string_keyed(rhs):
                # Attribute maps are equal whatever order their keys were set in, as upstream.
                if set(lhs) != set(rhs):
                    raise _Mismatch(path, f"keys {sorted(lhs)} vs {sorted(rhs)}")
                for key in sorted(lhs):
                    a, b = _attr_value(lhs[key]), _attr_value(rhs[key])
                    self.check(a, b, (path, _KEY, key), defining)
                return
            pairs = zip(_ordered_items(lhs), _ordered_items(rhs))
            for (ka, va), (kb, vb) in pairs:
                # Upstream's paths name each side's own key (map_item).
                try:
                    self.check(ka, kb, (path, _KEY, ka), defining)
                    self.check(va, vb, (path, _KEY, ka), defining)
                except _Mismatch as err:
                    rhs_path = _rekeyed(err.rhs_path, path, kb)
                    raise _Mismatch(err.lhs_path, err.detail, rhs_path) from None
            return
        if type(lhs) is not type(rhs) or lhs != rhs:
            raise _Mismatch(path, f"{lhs!r} vs {rhs!r}")

    def _check_var(self, lhs, rhs, path, defining):
        # By type key, as hashing and upstream's type indices: a Python subclass keeping its
        # base's key (tvm.relax.testing.nn.Parameter, a relax.Var) is that node.
        if getattr(lhs, "_type_key", None) != getattr(rhs, "_type_key", None):
            raise _Mismatch(path, f"{_describe(lhs)} vs {_describe(rhs)}")
        for name in type(lhs)._var_compare_fields:
            a, b = getattr(lhs, name), getattr(rhs, name)
            if isinstance(a, Node) or isinstance(b, Node):
                # Where the variable is defined, variables in what it compares by are defined
                # too (a Relax parameter's struct info defines its symbolic dimensions).
                self.check(a, b, (path, _ATTR, name), defining)
            elif a != b:
                raise _Mismatch(path, f"variable {name} {a} vs {b}")
        mapped = self.lhs_to_rhs.get(id(lhs))
        if mapped is not None:
            if mapped is not rhs:
                raise _Mismatch(path, f"variable {_var_name(lhs)} is bound to another variable")
            return
        if id(rhs) in self.rhs_to_lhs:
            raise _Mismatch(path, f"variable {_var_name(rhs)} is already bound on the right")
        if defining or self.map_free_vars:
            self.lhs_to_rhs[id(lhs)] = rhs
            self.rhs_to_lhs[id(rhs)] = lhs
            self.keep_alive.append((lhs, rhs))
            return
        if lhs is not rhs:
            raise _Mismatch(path, f"free variables {_var_name(lhs)} and {_var_name(rhs)} differ")

    def _check_node(self, lhs, rhs, path, defining):
        if getattr(lhs, "_type_key", None) != getattr(rhs, "_type_key", None):
            raise _Mismatch(path, f"{_describe(lhs)} vs {_describe(rhs)}")
        if _is_function(lhs):
            saved = dict(self.lhs_to_rhs), dict(self.rhs_to_lhs)
            try:
                self._check_fields(lhs, rhs, path, defining)
            finally:
                self.lhs_to_rhs, self.rhs_to_lhs = saved
            return
        self._check_fields(lhs, rhs, path, defining)

    def _check_fields(self, lhs, rhs, path, defining):
        compare_as_name = getattr(type(lhs), "_compare_by", None)
        if compare_as_name is not None:
            if getattr(lhs, compare_as_name) != getattr(rhs, compare_as_name):
                raise _Mismatch(path, f"{_describe(lhs)} vs {_describe(rhs)}")
            return
        for name in lhs._fields:
            if name in lhs._ignored_fields:
                continue
            self.check(
                getattr(lhs, name),
                getattr(rhs, name),
                (path, _ATTR, name),
                defining or name in lhs._def_fields,
            )


def _rekeyed(path, map_path, key):
    """path (inside the map at map_path, under one of its keys) with that key replaced."""
    steps = []
    while path is not None and path[0] is not map_path:
        steps.append(path)
        path = path[0]
    result = (map_path, _KEY, key)
    for _parent, kind, k in reversed(steps):
        result = (result, kind, k)
    return result


def _var_name(var) -> str:
    return str(getattr(var, "name", None) or getattr(var, "name_hint", None) or type(var).__name__)


def _describe(value) -> str:
    if isinstance(value, Node):
        return type(value).__name__
    return f"{type(value).__name__} {value!r}"


def structural_equal(lhs, rhs, map_free_vars: bool = False) -> bool:
    """Whether two IR values have the same structure, bound variables matched by position."""
    try:
        _EqualChecker(map_free_vars).check(lhs, rhs, None, False)
    except _Mismatch:
        return False
    return True


def get_first_structural_mismatch(lhs, rhs, map_free_vars: bool = False):
    """None when lhs and rhs are structurally equal, else (lhs_path, rhs_path): the
    tvm_ffi AccessPaths where they first differ, as upstream returns them."""
    try:
        _EqualChecker(map_free_vars).check(lhs, rhs, None, False)
    except _Mismatch as err:
        return _access_path(err.lhs_path), _access_path(err.rhs_path)
    return None


def assert_structural_equal(lhs, rhs, map_free_vars: bool = False) -> None:
    """Raise ValueError when lhs and rhs differ, as upstream: the path to the first mismatch
    on each side and each side's script with the mismatch underlined."""
    try:
        _EqualChecker(map_free_vars).check(lhs, rhs, None, False)
    except _Mismatch as err:
        lhs_path, rhs_path = _access_path(err.lhs_path), _access_path(err.rhs_path)
        raise ValueError(
            f"StructuralEqual check failed, caused by lhs at {lhs_path}:\n"
            f"{_underlined(lhs, lhs_path)}\n"
            f"and rhs at {rhs_path}:\n"
            f"{_underlined(rhs, rhs_path)}"
        ) from None


def _underlined(value, path) -> str:
    # Upstream prints the side without syntax sugar; what has no script prints as its repr.
    if isinstance(value, Node):
        return value.script(path_to_underline=[path], syntax_sugar=False)
    return repr(value)


class _Hasher:
    def __init__(self, map_free_vars: bool):
        self.map_free_vars = map_free_vars
        self.var_index: dict[int, int] = {}
        self.keep_alive: list = []

    def feed(self, value, out: list, defining: bool) -> None:
        if _is_var(value):
            index = self.var_index.get(id(value))
            if index is None and (defining or self.map_free_vars):
                index = len(self.var_index)
                self.var_index[id(value)] = index
                self.keep_alive.append(value)
            out.append(
                f"var:{index}:{value._type_key}"
                if index is not None
                else f"free:{id(value)}:{value._type_key}"
            )
            for name in type(value)._var_compare_fields:
                self.feed(getattr(value, name), out, defining)
            return
        if isinstance(value, Node) and _is_function(value):
            saved = dict(self.var_index)
            try:
                self._feed_node(value, out, defining)
            finally:
                self.var_index = saved
            return
        if isinstance(value, Node):
            self._feed_node(value, out, defining)
            return
        if isinstance(value, (list, tuple)):
            out.append(f"seq{len(value)}")
            for item in value:
                self.feed(item, out, defining)
            return
        if isinstance(value, dict):
            out.append(f"map{len(value)}")
            if _string_keyed(value):
                items = sorted((k, _attr_value(v)) for k, v in value.items())
            else:
                items = _ordered_items(value)
            for key, item in items:
                self.feed(key, out, defining)
                self.feed(item, out, defining)
            return
        if isinstance(value, enum.Enum):
            out.append(f"{type(value).__name__}.{value.name}")
            return
        out.append(f"{type(value).__name__}:{value!r}")

    def _feed_node(self, value, out: list, defining: bool) -> None:
        out.append(value._type_key)
        compare_as_name = getattr(type(value), "_compare_by", None)
        if compare_as_name is not None:
            out.append(repr(getattr(value, compare_as_name)))
            return
        for name in value._fields:
            if name in value._ignored_fields:
                continue
            out.append(name)
            self.feed(getattr(value, name), out, defining or name in value._def_fields)
        out.append(")")


def tensor_content(array) -> tuple:
    """What structural equality compares a constant tensor (a NumPy array) by: its dtype, its
    shape and a digest of its bytes (nodes holding tensor data keep this as a field)."""
    import numpy as np

    digest = hashlib.blake2b(np.ascontiguousarray(array).tobytes(), digest_size=16).hexdigest()
    return (str(array.dtype), tuple(array.shape), digest)


def _ordered_items(mapping):
    """A mapping's items in the order structural equality pairs them: by name when every key
    is a node compared by name (an IRModule's functions by GlobalVar), else as inserted."""
    names = [getattr(type(k), "_compare_by", None) for k in mapping]
    if names and all(names):
        return sorted(mapping.items(), key=lambda kv: getattr(kv[0], names[0]))
    return list(mapping.items())


def _attr_value(value):
    """An attribute value as compared: a bool IntImm (upstream's T.bool(True), what its
    attribute maps hold for True) is the Python bool our maps hold for it."""
    if isinstance(value, Node) and getattr(value, "_type_key", None) == "tir.IntImm":
        if str(value.dtype) == "bool":
            return bool(value.value)
    return value


def _string_keyed(mapping) -> bool:
    return all(isinstance(key, str) for key in mapping)


def structural_hash(value, map_free_vars: bool = False) -> int:
    """A hash consistent with structural_equal (equal values hash alike)."""
    parts: list[str] = []
    _Hasher(map_free_vars).feed(value, parts, False)
    digest = hashlib.blake2b("\x1f".join(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)
