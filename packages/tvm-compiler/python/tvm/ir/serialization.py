"""tvm.ir.save_json / load_json: IR nodes and modules as one JSON node graph (docs/compiler.md)."""

from __future__ import annotations

import base64
import ctypes
import enum
import importlib
import inspect
import json
import math

from .dtype import DataType
from .node import Node

# The document's "metadata.format": readers accept every version written so far.
FORMAT = "tvm-stack.ir-json"
FORMAT_VERSION = 1

_FLOAT_WORDS = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}


def save_json(node) -> str:
    """The JSON text of node (an IR node, an IRModule, or a list/dict/scalar holding them).

    Every object is one entry of "nodes" and references are indices into that list, so
    shared sub-expressions and variables stay shared after load_json.
    """
    return _dumps(node)


def _dumps(node, indent: int | None = None) -> str:
    import tvm

    writer = _Writer()
    root = writer.value(node, "node")
    document = {
        "root_index": root,
        "nodes": writer.nodes,
        "metadata": {"format": FORMAT, "version": FORMAT_VERSION, "tvm_version": tvm.__version__},
    }
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(document, indent=indent, separators=separators, allow_nan=False)


def load_json(json_str):
    """The object save_json wrote as json_str, structurally equal to the one saved."""
    if not isinstance(json_str, (str, bytes, bytearray)):
        raise TypeError(
            f"load_json: argument 'json_str' must be a str, got {type(json_str).__name__}"
        )
    try:
        document = json.loads(json_str)
    except (ValueError, RecursionError) as err:  # nesting past Python's recursion limit too
        raise ValueError(f"load_json: the text is not JSON ({err})") from None
    if not isinstance(document, dict):
        raise ValueError(f"load_json: expected a JSON object, got {type(document).__name__}")
    for key in ("root_index", "nodes"):
        if key not in document:
            raise ValueError(f"load_json: the document has no {key!r} (not a save_json text)")
    metadata = document.get("metadata", {})
    if not isinstance(metadata, dict):
        raise ValueError("load_json: 'metadata' must be a JSON object")
    version = metadata.get("version", FORMAT_VERSION)
    if metadata.get("format", FORMAT) != FORMAT or not isinstance(version, int):
        raise ValueError(
            f"load_json: unknown format {metadata.get('format')!r} version {version!r} "
            f"(this reader reads {FORMAT} versions 1 to {FORMAT_VERSION})"
        )
    if version > FORMAT_VERSION:
        raise ValueError(
            f"load_json: the text is {FORMAT} version {version}, newer than this reader's "
            f"{FORMAT_VERSION}; upgrade tvm-compiler to read it"
        )
    nodes = document["nodes"]
    if not isinstance(nodes, list):
        raise ValueError("load_json: 'nodes' must be a JSON list")
    reader = _Reader(nodes)
    for index in range(len(nodes)):
        reader.build(index)
    return reader.ref(document["root_index"], len(nodes), "'root_index'")


class _Writer:
    def __init__(self):
        self.nodes: list = []
        self.memo: dict = {}  # id(object) or a primitive's (type, value) -> node index
        self.keep: list = []  # objects indexed by id() stay alive until the end

    def add(self, key, entry) -> int:
        self.nodes.append(entry)
        self.memo[key] = len(self.nodes) - 1
        return len(self.nodes) - 1

    def _key(self, v):
        key = _primitive_key(v)
        return id(v) if key is None else key

    def value(self, root, path: str) -> int:
        """The index of root's entry, written after those of everything it holds. The walk
        keeps its own stack: an expression chain thousands deep needs no Python recursion."""
        index = self.memo.get(self._key(root))
        if index is not None:
            return index
        # A frame: [object, its label in the parent, parent frame, children pushed?]
        stack = [[root, path, None, False]]
        ancestors: set = set()  # ids of the objects whose children are being written
        while stack:
            frame = stack[-1]
            v = frame[0]
            key = self._key(v)
            if key in self.memo:  # pushed twice (held by two objects): written already
                stack.pop()
                continue
            if not frame[3]:
                frame[3] = True
                pending = []
                for child, label in _children(v):
                    if self.memo.get(self._key(child)) is not None:
                        continue
                    if id(child) in ancestors or child is v:
                        raise ValueError(f"save_json: {_path_of(frame)}{label} holds itself")
                    pending.append([child, label, frame, False])
                if pending:
                    ancestors.add(id(v))
                    stack.extend(reversed(pending))
                    continue
            stack.pop()
            ancestors.discard(id(v))
            entry = self.entry(v, frame)
            if not isinstance(key, tuple):
                self.keep.append(v)
            self.add(key, entry)
        return self.memo[self._key(root)]

    def ref(self, v) -> int:
        return self.memo[self._key(v)]

    def entry(self, v, frame) -> dict:
        from .op import Op
        from .span import SourceName

        if v is None:
            return {"type": "None"}
        if isinstance(v, enum.Enum):  # before int: an IntEnum member keeps its class
            cls = type(v)
            return {"type": "enum", "data": [f"{cls.__module__}:{cls.__qualname__}", v.name]}
        if isinstance(v, bool):
            return {"type": "bool", "data": v}
        if isinstance(v, int):
            return {"type": "int", "data": int(v)}
        if isinstance(v, float):
            if math.isfinite(v):
                return {"type": "float", "data": v}
            return {
                "type": "float",
                "data": "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf"),
            }
        if isinstance(v, DataType):
            return {"type": "DataType", "data": str(v)}
        if isinstance(v, str):
            return {"type": "ffi.String", "data": str(v)}
        if isinstance(v, bytes):
            return {"type": "ffi.Bytes", "data": base64.b64encode(v).decode("ascii")}
        if isinstance(v, tuple):
            return {"type": "ffi.Array", "data": [self.ref(item) for item in v]}
        if isinstance(v, list):
            return {"type": "list", "data": [self.ref(item) for item in v]}
        if isinstance(v, dict):
            flat = []
            for key, item in v.items():
                flat += [self.ref(key), self.ref(item)]
            return {"type": "ffi.Map", "data": flat}
        if isinstance(v, Op):
            return {"type": "ir.Op", "data": v.name}
        if isinstance(v, SourceName):
            return {"type": "ir.SourceName", "data": v.name}
        if isinstance(v, Node):
            cls = _class_for(v._type_key)
            if cls is None or not isinstance(v, cls):
                raise TypeError(
                    f"save_json: {type(v).__module__}.{type(v).__qualname__} at "
                    f"{_path_of(frame)} has the type key {v._type_key!r}, which names another "
                    "class; it cannot be saved"
                )
            fields = {name: self.ref(item) for name, item in vars(v).items()}
            entry = {"type": v._type_key, "data": fields}
            if type(v) is not cls:  # a subclass keeping its base's key (nn.Parameter, a Var)
                entry["class"] = f"{type(v).__module__}:{type(v).__qualname__}"
            return entry
        return self.foreign(v, frame)

    def foreign(self, v, frame) -> dict:
        import tvm_ffi
        from tvm.target import Target

        if isinstance(v, Target):
            path = _path_of(frame)
            host = None if v.host is None else self.value(v.host, f"{path}.host")
            return {
                "type": "Target",
                "data": {"config": self.value(v.export(), path), "host": host},
            }
        if isinstance(v, tvm_ffi.Tensor):
            return {"type": "ffi.Tensor", "data": _tensor_data(v)}
        if isinstance(v, tvm_ffi.Shape):
            return {"type": "ffi.Shape", "data": [int(d) for d in v]}
        if isinstance(v, tvm_ffi.Device):
            return {"type": "Device", "data": [int(v.device_type), int(v.device_id)]}
        raise TypeError(
            f"save_json: cannot save a {type(v).__module__}.{type(v).__qualname__} "
            f"(found at {_path_of(frame)}); IR nodes, modules, tensors, targets, containers "
            "and scalars can be saved"
        )


def _children(v) -> list:
    """(value, label) for each value v holds, in the order its entry lists them."""
    from .op import Op
    from .span import SourceName

    if isinstance(v, (tuple, list)):
        return [(item, f"[{i}]") for i, item in enumerate(v)]
    if isinstance(v, dict):
        out = []
        for key, item in v.items():
            out += [(key, f"[key {key!r}]"), (item, f"[{key!r}]")]
        return out
    if isinstance(v, Node) and not isinstance(v, (Op, SourceName)):
        return [(item, f".{name}") for name, item in vars(v).items()]
    return []


def _path_of(frame) -> str:
    """Where frame's value sits below the saved value (node.body.seq[2]...), built only for
    an error message."""
    labels = []
    while frame is not None:
        labels.append(frame[1])
        frame = frame[2]
    return "".join(reversed(labels))


def _primitive_key(v):
    # Equal scalars share one node; the type is part of the key (True is not 1).
    if v is None or type(v) in (bool, int, str, DataType):
        return (type(v).__name__, v)
    if type(v) is float:
        return ("float", repr(v))
    return None


def _tensor_data(t) -> dict:
    import tvm_ffi
    from tvm.runtime.dlpack_pointer import data_pointer
    from tvm.runtime.tensor import copy_tensor, empty

    if int(t.device.device_type) != 1:  # read through a host copy
        host = empty(tuple(t.shape), str(t.dtype))
        copy_tensor(host, t)
        t = host
    dt = tvm_ffi.dtype(str(t.dtype))
    nbytes = math.prod(t.shape) * ((dt.bits * dt.lanes + 7) // 8)
    raw = ctypes.string_at(data_pointer(t), nbytes) if nbytes else b""
    return {
        "dtype": str(t.dtype),
        "shape": [int(d) for d in t.shape],
        "data": base64.b64encode(raw).decode("ascii"),
    }


_CLASSES: dict = {}


def _class_for(key: str):
    """The IR node class whose type key is key (None if none is, or if two classes share it:
    such nodes cannot be saved). Classes defined since the last look-up are found too."""
    if key not in _CLASSES:
        import tvm.relax  # noqa: F401  (defines Relax's node classes)
        import tvm.tir  # noqa: F401

        _CLASSES.clear()
        stack, seen = [Node], set()
        while stack:
            for sub in stack.pop().__subclasses__():
                if sub not in seen:
                    seen.add(sub)
                    stack.append(sub)
                    known = _CLASSES.get(sub._type_key, sub)
                    if known is not None and issubclass(sub, known):
                        _CLASSES[sub._type_key] = known  # the base-most class of a key
                    elif known is not None and issubclass(known, sub):
                        _CLASSES[sub._type_key] = sub
                    else:
                        _CLASSES[sub._type_key] = None  # two unrelated classes: neither
    return _CLASSES.get(key)


class _Reader:
    def __init__(self, nodes: list):
        self.nodes = nodes
        self.objects: list = []

    def ref(self, index, before: int, where: str):
        # Every reference points to an earlier node: no cycles and no self references.
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < before:
            raise ValueError(
                f"load_json: {where} refers to node {index!r}, which is not an earlier node "
                f"(0 to {before - 1})"
            )
        return self.objects[index]

    def build(self, index: int) -> None:
        node = self.nodes[index]
        where = f"node {index}"
        if not isinstance(node, dict) or not isinstance(node.get("type"), str):
            raise ValueError(f"load_json: {where} must be an object with a 'type' string")
        kind, data = node["type"], node.get("data")
        try:
            value = self.decode(kind, data, index, where, node.get("class"))
        except (TypeError, ValueError, OverflowError, ImportError) as err:
            text = str(err)
            if text.startswith("load_json:"):
                raise ValueError(text) from None
            raise ValueError(f"load_json: {where} ({kind}): {text}") from None
        self.objects.append(value)

    def need(self, data, types, what: str, where: str, kind: str):
        if not isinstance(data, types) or isinstance(data, bool) and bool not in _tuple(types):
            raise ValueError(
                f"load_json: {where} ({kind}) must hold {what} as 'data', got {data!r:.60}"
            )
        return data

    def decode(self, kind: str, data, index: int, where: str, subclass=None):
        def refs(items):
            self.need(items, list, "a list of node indices", where, kind)
            return [self.ref(i, index, where) for i in items]

        if kind == "None":
            return None
        if kind == "bool":
            return self.need(data, bool, "a bool", where, kind)
        if kind == "int":
            return self.need(data, int, "an int", where, kind)
        if kind == "float":
            if isinstance(data, str) and data in _FLOAT_WORDS:
                return _FLOAT_WORDS[data]
            return float(self.need(data, (int, float), "a number", where, kind))
        if kind == "ffi.String":
            return self.need(data, str, "a string", where, kind)
        if kind == "DataType":
            return DataType(self.need(data, str, "a dtype string", where, kind))
        if kind == "ffi.Bytes":
            return base64.b64decode(self.need(data, str, "base64 text", where, kind), validate=True)
        if kind == "ffi.Array":
            return tuple(refs(data))
        if kind == "list":
            return refs(data)
        if kind == "ffi.Map":
            flat = refs(data)
            if len(flat) % 2:
                raise ValueError(f"load_json: {where} (ffi.Map) has an odd number of items")
            return dict(zip(flat[::2], flat[1::2]))
        if kind == "enum":
            return _enum_member(self.need(data, list, "[class, member name]", where, kind))
        if kind == "ir.Op":
            from .op import Op

            return Op.get(self.need(data, str, "an operator name", where, kind))
        if kind == "ir.SourceName":
            from .span import SourceName

            return SourceName(self.need(data, str, "a source name", where, kind))
        if kind == "Target":
            from tvm.target import Target

            self.need(data, dict, "an object with 'config' and 'host'", where, kind)
            config = self.ref(data.get("config"), index, where)
            host = data.get("host")
            return Target(config, None if host is None else self.ref(host, index, where))
        if kind == "ffi.Tensor":
            return _tensor_from(self.need(data, dict, "dtype, shape and data", where, kind))
        if kind == "ffi.Shape":
            import tvm_ffi

            return tvm_ffi.Shape(self.need(data, list, "a list of ints", where, kind))
        if kind == "Device":
            import tvm_ffi

            device_type, device_id = self.need(data, list, "[device_type, device_id]", where, kind)
            return tvm_ffi.Device(device_type, device_id)
        cls = _class_for(kind)
        if cls is None:
            raise ValueError(f"load_json: {where} has the unknown type {kind!r}")
        self.need(data, dict, "an object of field name to node index", where, kind)
        if subclass is not None:
            cls = _subclass(cls, subclass)
        missing = [name for name in cls._fields if name not in data]
        if missing:
            raise ValueError(f"load_json: {where} ({kind}) lacks the field {missing[0]!r}")
        obj = object.__new__(cls)
        for name, item in data.items():
            if not isinstance(name, str) or not name.isidentifier() or name.startswith("__"):
                raise ValueError(f"load_json: {where} ({kind}) has a bad field name {name!r}")
            if _class_level(cls, name):
                raise ValueError(
                    f"load_json: {where} ({kind}) has a field {name!r} that would hide the "
                    f"class's own {name!r} (a method or a class setting, not a node field)"
                )
            object.__setattr__(obj, name, self.ref(item, index, f"{where}.{name}"))
        return obj


def _class_level(cls, name: str) -> bool:
    """Whether name is a method, property or private setting (_type_key, _fields) of cls,
    which an instance attribute loaded from a document must not shadow."""
    static = inspect.getattr_static(cls, name, _MISSING)
    if static is _MISSING or name in cls._fields:
        return False
    return hasattr(type(static), "__get__") or name.startswith("_")


_MISSING = object()


def _subclass(base, where):
    """The class named where ("module:qualname"), a subclass of base in a tvm module."""
    cls = _tvm_class(where, "a subclass")
    if not (isinstance(cls, type) and issubclass(cls, base)):
        raise ValueError(f"{where!r} is not a subclass of {base.__name__}")
    return cls


def _tvm_class(where, what: str):
    # Only the stack's own classes: a document names no other module to import.
    if not isinstance(where, str):
        raise ValueError(f"{what} is named by a 'module:qualname' string, got {where!r}")
    module, _, qualname = where.partition(":")
    if not (module == "tvm" or module.startswith("tvm.")):
        raise ValueError(f"{where!r} is not {what} defined in tvm")
    cls = importlib.import_module(module)
    for part in qualname.split("."):
        cls = getattr(cls, part, None)
    return cls


def _enum_member(data):
    if len(data) != 2 or not all(isinstance(part, str) for part in data):
        raise ValueError(f"an enum entry is [class, member name], got {data!r}")
    where, name = data
    cls = _tvm_class(where, "an enum")
    if not (isinstance(cls, type) and issubclass(cls, enum.Enum)) or name not in cls.__members__:
        raise ValueError(f"{where!r} has no enum member {name!r}")
    return cls[name]


def _tuple(types):
    return types if isinstance(types, tuple) else (types,)


def _tensor_from(data: dict):
    import tvm_ffi
    from tvm.runtime.dlpack_pointer import data_pointer
    from tvm.runtime.tensor import empty

    dtype, shape, text = data.get("dtype"), data.get("shape"), data.get("data")
    if not isinstance(dtype, str) or not isinstance(text, str):
        raise ValueError("a tensor needs a 'dtype' string and base64 'data'")
    if not isinstance(shape, list) or not all(
        isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape
    ):
        raise ValueError(f"a tensor's 'shape' must be a list of sizes >= 0, got {shape!r}")
    raw = base64.b64decode(text, validate=True)
    dt = tvm_ffi.dtype(dtype)
    expected = math.prod(shape) * ((dt.bits * dt.lanes + 7) // 8)
    if len(raw) != expected:
        raise ValueError(
            f"a {dtype} tensor of shape {tuple(shape)} needs {expected} bytes, "
            f"its data has {len(raw)}"
        )
    t = empty(shape, dtype)
    if raw:
        ctypes.memmove(data_pointer(t), raw, len(raw))
    return t
