"""to/from_json_graph_str: FFI values as a JSON node graph (format: docs/ffi-serialization.md)."""

from __future__ import annotations

import base64
import json
import math
import sys
from typing import Any

from . import _core
from ._core import Device, Object
from ._reflection import type_info_of
from .container import Array, Map, Shape
from .dtype import dtype as _dtype

_ARRAY, _MAP, _SHAPE, _STR, _BYTES = 71, 72, 69, 65, 66
_INLINE_STATIC = {1: int, 2: bool, 3: float}  # field static type index -> inlined JSON value
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


class _Writer:
    def __init__(self) -> None:
        self.nodes: list = []
        self.by_value: dict = {}
        self.by_handle: dict = {}
        self.plans: dict = {}
        self.enums = _enum_states()

    def add(self, node, key=None):
        self.nodes.append(node)
        index = len(self.nodes) - 1
        if key is not None:
            self.by_value[key] = index
        return index

    def value(self, v) -> int:
        key: Any
        node: dict[str, Any]
        if type(v) is int:  # the common scalar first
            key = ("int", v)
        elif v is None:
            key = ("None",)
        elif isinstance(v, bool):
            key = ("bool", v)
        elif isinstance(v, _dtype):
            key = ("DataType", str(v))
        elif isinstance(v, int):
            key = ("int", int(v))
        elif isinstance(v, float):
            if not math.isfinite(v):
                raise ValueError(
                    f"to_json_graph_str: argument `obj` holds the float {v!r}, "
                    "which JSON cannot carry"
                )
            key = ("float", v)
        elif isinstance(v, str):
            key = ("ffi.String", str(v))
        elif isinstance(v, (bytes, bytearray)):
            key = ("ffi.Bytes", bytes(v))
        elif isinstance(v, Device):
            key = ("Device", int(v.device_type), int(v.device_id))
        elif isinstance(v, Object):
            return self.obj(v)
        else:
            converted = _core.convert(v)
            if not isinstance(converted, Object) or converted is v:
                raise TypeError(
                    f"to_json_graph_str: argument `obj` holds a {type(v).__name__}, "
                    "which has no JSON form"
                )
            return self.value(converted)
        if key in self.by_value:
            return self.by_value[key]
        kind = key[0]
        if kind == "None":
            node = {"type": "None"}
        elif kind == "ffi.Bytes":
            node = {"type": kind, "data": base64.b64encode(key[1]).decode("ascii")}
        elif kind == "Device":
            node = {"type": kind, "data": [key[1], key[2]]}
        else:
            node = {"type": kind, "data": key[1]}
        return self.add(node, key)

    def _plan(self, index) -> tuple:
        """How obj() writes an object of type `index`, worked out once per type and call:
        (children, node): children(v) lists the values v's node refers to, in the order a
        recursive walk writes them; node(v, refs) is v's node given their node indices."""
        plan = self.plans.get(index)
        if plan is None:
            plan = self.plans[index] = _plan(index, self.enums)
        return plan

    def obj(self, v) -> int:
        """Writes v and everything it holds (each shared part once), parts first, with an
        explicit stack: a deep value would exceed Python's recursion limit."""
        by_handle = self.by_handle
        handle = v.__ffi_handle__
        index = by_handle.get(handle)
        if index is not None:
            return index
        nodes, plans, value = self.nodes, self.plans, self.value
        children, make_node = plans.get(v.__ffi_type_index__) or self._plan(v.__ffi_type_index__)
        # Each entry: the object, its handle, its node maker, its children left, their nodes.
        stack = [(v, handle, make_node, iter(children(v)), [])]
        path = {handle}
        while stack:
            top, top_handle, make_node, left, refs = stack[-1]
            for x in left:
                if isinstance(x, Object):
                    h = x.__ffi_handle__
                    found = by_handle.get(h)
                    if found is None:
                        if h in path:
                            raise ValueError(
                                "to_json_graph_str: argument `obj` contains a cycle through an "
                                f"object of type `{x.__ffi_type_key__}`"
                            )
                        path.add(h)
                        index = x.__ffi_type_index__
                        children, x_make_node = plans.get(index) or self._plan(index)
                        stack.append((x, h, x_make_node, iter(children(x)), []))
                        break
                    refs.append(found)
                else:
                    refs.append(value(x))  # a scalar: its node now, as a recursive walk
            else:
                stack.pop()
                path.discard(top_handle)
                nodes.append(make_node(top, refs))
                index = by_handle[top_handle] = len(nodes) - 1
                if stack:
                    stack[-1][4].append(index)
        return index


def _no_children(v) -> tuple:
    return ()


def _map_children(v) -> list:
    return [x for kv in _core.map_items(v) for x in kv]


def _plan(index, enums) -> tuple:
    """_Writer._plan's (children, node) for type `index` (`enums`: the enum variant registries)."""
    if index == _ARRAY:
        return _core.array_to_list, lambda v, refs: {"type": "ffi.Array", "data": refs}
    if index == _MAP:
        return _map_children, lambda v, refs: {"type": "ffi.Map", "data": refs}
    if index == _SHAPE:
        return _no_children, lambda v, refs: {"type": "ffi.Shape", "data": list(v)}
    if index in enums:  # an enum variant is written as its name
        return _no_children, lambda v, refs: {"type": v.__ffi_type_key__, "data": v._str_index}
    info = type_info_of(index)
    type_key, fields = info.type_key, info.all_fields()
    if not fields and info.find_method("__ffi_new__") is None:

        def no_fields(v, refs):
            raise TypeError(
                f"to_json_graph_str: type `{type_key}` does not support "
                "ToJSONGraph (no reflected fields)"
            )

        return _no_children, no_fields
    # The fields whose values are inlined in the node, not nodes of their own.
    inlined = [f.field_static_type_index in _INLINE_STATIC for f in fields]
    getters = [f.getter.__get__ for f in fields]
    names = [f.name for f in fields]
    ref_getters = [get for get, inline in zip(getters, inlined) if not inline]

    def children(v):
        return [get(v) for get in ref_getters]

    if not any(inlined):
        return children, lambda v, refs: {"type": type_key, "data": dict(zip(names, refs))}
    plan = list(zip(names, getters, inlined))

    def node(v, refs):
        next_ref = iter(refs).__next__
        data = {name: get(v) if inline else next_ref() for name, get, inline in plan}
        return {"type": type_key, "data": data}

    return children, node


def _enum_states() -> dict:
    """Variant registries of the enum types defined so far (none before dataclasses is used)."""
    module = sys.modules.get("tvm_ffi.dataclasses.enum")
    return {} if module is None else module._STATES


def to_json_graph_str(obj: Any, metadata: dict[str, Any] | None = None) -> str:
    """Dump an FFI value (and everything it holds, shared parts once) to a JSON graph string."""
    if metadata is not None and not isinstance(metadata, dict):
        raise TypeError(
            "to_json_graph_str: argument `metadata` must be a dict or None, "
            f"got {type(metadata).__name__}"
        )
    writer = _Writer()
    root = writer.value(obj)
    # The text of {"root_index": root, "nodes": nodes, "metadata": metadata}. The nodes are
    # ours, each list and dict in them made once, so the encoder need not look for cycles
    # (faster); metadata, the caller's, is still checked.
    nodes = json.dumps(
        writer.nodes, separators=(",", ":"), ensure_ascii=False, check_circular=False
    )
    text = f'{{"root_index":{root},"nodes":{nodes}'
    if metadata:
        text += ',"metadata":' + json.dumps(metadata, separators=(",", ":"), ensure_ascii=False)
    return text + "}"


def _bad(msg):
    return ValueError(f"from_json_graph_str: invalid JSON object graph: {msg}")


class _Reader:
    def __init__(self, nodes: list) -> None:
        self.nodes = nodes
        self.done: dict = {}
        self.active: set = set()
        self.walking = False  # inside _build_parts_first

    def ref(self, index, where):
        if (
            not isinstance(index, int)
            or isinstance(index, bool)
            or not 0 <= index < len(self.nodes)
        ):
            raise _bad(f"invalid node index {index!r} ({where})")
        if index in self.done:
            return self.done[index]
        if index in self.active:
            raise _bad(f"node {index} refers to itself (a cycle)")
        if not self.active and not self.walking:
            self.walking = True
            try:
                self._build_parts_first(index)
            finally:
                self.walking = False
        self.active.add(index)
        try:
            value = self.build(self.nodes[index], index)
        except (OverflowError, TypeError) as err:  # a value its type cannot hold
            raise _bad(f"node {index}: {err}") from None
        finally:
            self.active.discard(index)
        self.done[index] = value
        return value

    def _refs(self, index) -> list:
        """The node indices build() refers to for node index (none when it is malformed:
        build() then says how)."""
        node = self.nodes[index]
        if not isinstance(node, dict):
            return []
        kind, data = node.get("type"), node.get("data")
        if kind in ("ffi.Array", "ffi.Map"):
            well_formed = isinstance(data, list) and (kind == "ffi.Array" or len(data) % 2 == 0)
            return data if well_formed else []
        if not isinstance(kind, str) or not isinstance(data, dict):
            return []
        try:
            type_index = _core.type_key_to_index(kind)
        except KeyError:
            return []
        if type_index in _enum_states():
            return []
        fields = type_info_of(type_index).all_fields()
        if set(data) - {f.name for f in fields}:
            return []
        return [
            data[f.name]
            for f in fields
            if f.name in data and f.field_static_type_index not in _INLINE_STATIC
        ]

    def _build_parts_first(self, root) -> None:
        """Builds the nodes root refers to deepest first with an explicit stack, so that
        build() finds them built and does not recurse (a long chain of nodes would exceed
        Python's recursion limit)."""
        stack = [(root, iter(self._refs(root)))]
        path = {root}
        while stack:
            top, refs = stack[-1]
            for i in refs:
                valid = isinstance(i, int) and not isinstance(i, bool)
                if not valid or not 0 <= i < len(self.nodes) or i in self.done:
                    continue  # build() reports a bad index where it meets it
                if i in path:
                    raise _bad(f"node {i} refers to itself (a cycle)")
                path.add(i)
                stack.append((i, iter(self._refs(i))))
                break
            else:
                stack.pop()
                path.discard(top)
                if stack:  # the root is left to the caller
                    self.ref(top, "")

    def build(self, node, index):
        if not isinstance(node, dict) or not isinstance(node.get("type"), str):
            raise _bad(f"node {index} must be an object with a `type` string")
        kind, data = node["type"], node.get("data")

        def need(types, what):
            if not isinstance(data, types) or (isinstance(data, bool) and types is not bool):
                raise _bad(f"node {index} of type `{kind}` needs {what} as `data`, got {data!r}")

        if kind == "None":
            return None
        if kind == "bool":
            need(bool, "a bool")
            return data
        if kind == "int":
            need(int, "an int")
            if not _INT64_MIN <= data <= _INT64_MAX:
                raise _bad(f"node {index}: int {data} does not fit in int64")
            return data
        if kind == "float":
            need((int, float), "a number")
            return float(data)
        if kind == "ffi.String":
            need(str, "a string")
            return data
        if kind == "ffi.Bytes":
            need(str, "a base64 string")
            try:
                return base64.b64decode(data, validate=True)
            except ValueError as err:
                raise _bad(f"node {index}: bad base64 ({err})") from None
        if kind == "DataType":
            need(str, "a dtype string")
            return _dtype(data)
        if kind == "Device":
            if not (
                isinstance(data, list) and len(data) == 2 and all(isinstance(x, int) for x in data)
            ):
                raise _bad(f"node {index} of type `Device` needs [device_type, index] as `data`")
            return Device(data[0], data[1])
        if kind == "ffi.Array":
            need(list, "a list of node indices")
            return Array([self.ref(i, f"item of node {index}") for i in data])
        if kind == "ffi.Map":
            need(list, "a flat list of key, value node indices")
            if len(data) % 2:
                raise _bad(f"node {index} of type `ffi.Map` has an odd number of entries")
            return Map(
                {
                    self.ref(data[i], f"key of node {index}"): self.ref(
                        data[i + 1], f"value of node {index}"
                    )
                    for i in range(0, len(data), 2)
                }
            )
        if kind == "ffi.Shape":
            if not (
                isinstance(data, list)
                and all(isinstance(x, int) and not isinstance(x, bool) for x in data)
            ):
                raise _bad(f"node {index} of type `ffi.Shape` needs a list of ints")
            return Shape(data)
        return self.object(kind, data, index)

    def object(self, kind, data, index):
        try:
            type_index = _core.type_key_to_index(kind)
        except KeyError:
            raise _bad(f"node {index} has unknown type `{kind}`") from None
        state = _enum_states().get(type_index)
        if state is not None:
            if not isinstance(data, str) or data not in state.indexes:
                raise _bad(f"node {index}: {data!r} is not a variant name of enum `{kind}`")
            return state.indexes[data]
        if not isinstance(data, dict):
            raise _bad(f"node {index} of type `{kind}` needs an object of fields as `data`")
        info = type_info_of(type_index)
        fields = info.all_fields()
        unknown = set(data) - {f.name for f in fields}
        if unknown:
            raise _bad(f"node {index}: type `{kind}` has no field(s) {sorted(unknown)}")
        values = {}
        for f in fields:
            if f.name not in data:
                raise _bad(f"node {index}: field `{f.name}` of `{kind}` is missing")
            raw = data[f.name]
            values[f.name] = (
                raw
                if f.field_static_type_index in _INLINE_STATIC
                else self.ref(raw, f"field {f.name}")
            )
        new = info.find_method("__ffi_new__")
        if new is not None:
            obj = new.func()
            # A py_class checks its fields' annotated types in __init__ and __setattr__; the
            # raw setter does not, so the checks run here (hostile input could otherwise
            # put a str in an `int` field).
            checks = _py_field_checks(type(obj), kind)
            for f in fields:
                value = values[f.name]
                check = checks.get(f.name)
                if check is not None and value is not None:
                    value = check(value)
                f.getter.set(obj, value)
            return obj
        init = info.find_method("__ffi_init__")
        if init is None:
            raise _bad(f"type `{kind}` can not be created (no __ffi_new__ or __ffi_init__)")
        return init.func(*[values[f.name] for f in fields])


def _py_field_checks(cls, type_key: str) -> dict:
    """{field name: the type check py_class's __init__ runs} of a py_class (empty for others)."""
    py_fields = cls.__dict__.get("__tvm_ffi_py_fields__")
    if py_fields is None or "__ffi_type_index__" not in cls.__dict__:
        return {}
    from .dataclasses.py_class import _converter

    checks = {f.name: _converter(type_key, f.name, f.type) for f in py_fields}
    return {name: check for name, check in checks.items() if check is not None}


def from_json_graph_str(json_str: str) -> Any:
    """Rebuild the value a to_json_graph_str string describes; malformed input raises ValueError."""
    if not isinstance(json_str, str):
        raise TypeError(
            f"from_json_graph_str: argument `json_str` must be a str, got {type(json_str).__name__}"
        )
    try:
        doc = json.loads(json_str)
    except json.JSONDecodeError as err:
        raise ValueError(
            f"from_json_graph_str: argument `json_str` is not valid JSON: {err}"
        ) from None
    if not isinstance(doc, dict):
        raise _bad("expected an object")
    nodes = doc.get("nodes")
    if not isinstance(nodes, list):
        raise _bad("expected `nodes` array field")
    if "root_index" not in doc:
        raise _bad("expected `root_index` field")
    return _Reader(nodes).ref(doc["root_index"], "root_index")


__all__ = ["from_json_graph_str", "to_json_graph_str"]
