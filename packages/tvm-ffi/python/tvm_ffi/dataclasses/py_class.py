"""py_class: a Python-defined FFI object type with dataclass semantics (fields in C++ Any slots)."""

from __future__ import annotations

import sys
import typing

from .. import _core
from .._core import Object
from .._reflection import (
    FLAG_COMPARE_OFF,
    FLAG_HASH_OFF,
    FLAG_REPR_OFF,
    FLAG_SEQ_DEF,
    FLAG_SEQ_IGNORE,
    FLAG_WRITABLE,
    MISSING,
    SEQ_KINDS,
    TypeInfo,
    TypeSchema,
    type_info_of,
)
from ..registry import get_global_func, register_object
from .field import KW_ONLY, Field, field, init_property

_CLASS_KINDS = sorted(k for k in SEQ_KINDS if k is not None)
_METHOD_MARK = "__tvm_ffi_method__"


def method(fn):
    """Marks a method of a ``@py_class`` body for FFI reflection.

    At class registration the method joins the type's reflected methods
    (``TypeInfo.methods``), callable by name from any FFI consumer; an instance method takes
    the object first. ``staticmethod`` and plain functions are accepted; ``classmethod`` is
    refused (the packed-call convention has no class argument).
    """
    if isinstance(fn, classmethod):
        raise TypeError(
            "method: classmethod is not supported; use a staticmethod or an instance method"
        )
    target = fn.__func__ if isinstance(fn, staticmethod) else fn
    if not callable(target):
        raise TypeError(
            f"method: argument `fn` must be a function or staticmethod, got {type(fn).__name__}"
        )
    try:
        setattr(target, _METHOD_MARK, True)
    except (AttributeError, TypeError):  # a builtin or other object without a __dict__
        raise TypeError(
            f"method: argument `fn` must be a Python function, got {type(target).__name__}"
        ) from None
    return fn


def _register_methods(cls, index):
    """Adds the @method-marked functions of the class body to the type's reflected methods."""
    for name, value in cls.__dict__.items():
        is_static = isinstance(value, staticmethod)
        func = value.__func__ if is_static else value
        if not getattr(func, _METHOD_MARK, False):
            continue
        get_global_func("ffi.TypeRegisterMethod")(index, name, func, is_static, func.__doc__ or "")


def _converter(owner: str, name: str, annotation):
    """A function checking (and widening) an argument for `annotation`; None when any value goes."""
    if annotation is float:

        def to_float(value):
            if isinstance(value, (int, float)) and not isinstance(value, str):
                return float(value)
            raise TypeError(
                f"{owner}.__ffi_init__() field {name!r}:\n"
                f"  expected float, got {type(value).__name__}"
            )

        return to_float
    if annotation in (int, str, bool):

        def check(value, expected=annotation):
            if isinstance(value, expected) and not (expected is int and isinstance(value, bool)):
                return value
            raise TypeError(
                f"{owner}.__ffi_init__() field {name!r}:\n"
                f"  expected {expected.__name__}, got {type(value).__name__}"
            )

        return check
    if isinstance(annotation, type) and issubclass(annotation, Object) and annotation is not Object:

        def check_object(value, expected=annotation):
            if isinstance(value, expected):
                return value
            raise TypeError(
                f"{owner}.__ffi_init__() field {name!r}:\n"
                f"  expected {expected.__name__}, got {type(value).__name__}"
            )

        return check_object
    return None


def _resolve(cls, annotation):
    if isinstance(annotation, str):
        try:
            return eval(annotation, vars(sys.modules.get(cls.__module__, sys)), {cls.__name__: cls})  # noqa: S307
        except Exception:
            return None
    return annotation


def _own_fields(cls, hints, frozen, kw_only):
    """The Fields declared by `cls` from its resolved annotations `hints` (name -> type); the
    class attributes holding their defaults / field(...) are taken off the class."""
    fields = []
    kw_after = False
    for name, annotation in hints.items():
        if annotation is KW_ONLY:
            kw_after = True
            continue
        if typing.get_origin(annotation) is typing.ClassVar or annotation is typing.ClassVar:
            continue
        value = cls.__dict__.get(name, MISSING)
        if isinstance(value, init_property):
            f = Field(default=None, init=False, repr=False, hash=False, compare=False)
            f.structural_eq, f.init_func = "ignore", value.func
        else:
            f = value if isinstance(value, Field) else Field(default=value)
        f.name = name
        f.type = annotation
        f.frozen = f.frozen or frozen
        if f.kw_only is None:
            f.kw_only = kw_only or kw_after
        if name in cls.__dict__:
            delattr(cls, name)
        fields.append(f)
    return fields


def _parent(cls):
    for base in cls.__mro__[1:]:
        if base is Object:
            return base, _core.type_key_to_index("ffi.Object"), []
        if "__tvm_ffi_py_fields__" in base.__dict__:
            return base, base.__ffi_type_index__, list(base.__tvm_ffi_py_fields__)
        if issubclass(base, Object) and "__ffi_type_index__" in base.__dict__:
            raise TypeError(
                f"py_class: {cls.__name__} extends the C++ type `{base.__ffi_type_key__}`; "
                "a py_class may extend only tvm_ffi.Object or another py_class"
            )
    raise TypeError(
        f"{cls.__name__} must inherit from a registered FFI Object type (e.g. tvm_ffi.Object)"
    )


def _run_field_hooks(cls, key, parent_index, own):
    """Calls the class's (and its bases') functions marked ``__ffi_on_fields_resolved__ = True``
    as ``hook(type_info, own_fields)`` before the fields are registered, so they may still
    change field options or consume unknown ``field(...)`` keywords; then refuses leftovers."""
    hooks = [
        value
        for base in reversed(cls.__mro__)
        for value in base.__dict__.values()
        if callable(value) and getattr(value, "__ffi_on_fields_resolved__", False) is True
    ]
    if hooks:
        # The type is not registered yet: no index, no fields (the hook gets them directly).
        info = TypeInfo(cls, -1, key, [], [], [], type_info_of(parent_index))
        for hook in hooks:
            hook(info, own)
    for f in own:
        if f.extra_kwargs:
            raise TypeError(
                f"{cls.__name__}.{f.name}: unrecognized field options: "
                + ", ".join(sorted(f.extra_kwargs))
            )


def _make_init(cls, key, index, fields):
    positional = [f for f in fields if f.init and not f.kw_only]
    keyword = [f for f in fields if f.init and f.kw_only]
    seen_default = None
    for f in positional:
        if f.has_default():
            seen_default = f.name
        elif seen_default is not None:
            raise TypeError(
                f"py_class {key}: non-default argument {f.name!r} follows default argument "
                f"{seen_default!r}"
            )
    env = {"_dyn_init": _core.dyn_init, "_index": index, "_MISSING": MISSING}
    params, body = [], []
    for i, f in enumerate(fields):
        if f.init:
            default = "" if not f.has_default() else f"=_d{i}"
            env[f"_d{i}"] = f.default if f.default_factory is MISSING else MISSING
            params.append((f, f"{f.name}{default}"))
            if f.default_factory is not MISSING:
                env[f"_f{i}"] = f.default_factory
                body.append(f"    if {f.name} is _MISSING: {f.name} = _f{i}()")
        else:
            env[f"_f{i}"] = (
                f.default_factory if f.default_factory is not MISSING else (lambda v=f.default: v)
            )
            body.append(f"    {f.name} = _f{i}()")
        conv = _converter(key, f.name, f.type)
        if conv is not None:
            env[f"_c{i}"] = conv
            exact = f.type.__name__ if f.type in (int, float, str, bool) else None
            test = f"type({f.name}) is not {exact} and " if exact else ""
            body.append(f"    if {test}{f.name} is not None: {f.name} = _c{i}({f.name})")
    env.update({"int": int, "float": float, "str": str, "bool": bool})
    pos = [p for f, p in params if not f.kw_only]
    kw = [p for f, p in params if f.kw_only]
    sig = ", ".join(["self", *pos, *(["*", *kw] if kw else [])])
    values = ", ".join(f.name for f in fields)
    body.append(f"    _dyn_init(self, _index{', ' if values else ''}{values})")
    env["_store"] = Object.__setattr__
    for i, f in enumerate(fields):
        if f.init_func is not None:  # init_property: computed from the initialized object
            env[f"_p{i}"] = f.init_func
            body.append(f"    _store(self, {f.name!r}, _p{i}(self))")
    src = f"def __init__({sig}):\n" + "\n".join(body) + "\n"
    exec(src, env)  # noqa: S102  (generated like dataclasses' __init__, for speed)
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    del positional, keyword
    return init


def _make_setattr(cls, key, fields):
    converters = {f.name: _converter(key, f.name, f.type) for f in fields}
    base_setattr = Object.__setattr__
    frozen_computed = {f.name for f in fields if f.frozen and f.init_func is not None}

    def __setattr__(self, name, value):
        if name in frozen_computed:
            raise AttributeError(f"field {name} of {type(self).__name__} is read-only (frozen)")
        conv = converters.get(name, False)
        if conv is False and not hasattr(type(self), name):
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        if conv and value is not None:
            value = conv(value)
        base_setattr(self, name, value)

    return __setattr__


def _values(obj, fields):
    return tuple(getattr(obj, f.name) for f in fields)


def _install_compare(cls, fields, eq, order, unsafe_hash):
    cmp_fields = [f for f in fields if f.compare]
    hash_fields = [f for f in fields if f.hash]
    if eq and "__eq__" not in cls.__dict__:

        def __eq__(self, other):
            if type(other) is not type(self):
                return NotImplemented
            return _values(self, cmp_fields) == _values(other, cmp_fields)

        def __ne__(self, other):
            result = __eq__(self, other)
            return result if result is NotImplemented else not result

        cls.__eq__, cls.__ne__ = __eq__, __ne__
        if not unsafe_hash and "__hash__" not in cls.__dict__:
            cls.__hash__ = Object.__hash__
    if order:
        for name, op in (("__lt__", "lt"), ("__le__", "le"), ("__gt__", "gt"), ("__ge__", "ge")):
            if name in cls.__dict__:
                continue

            def compare(self, other, _op=op):
                if type(other) is not type(self):
                    return NotImplemented
                return getattr(_values(self, cmp_fields), f"__{_op}__")(_values(other, cmp_fields))

            compare.__name__ = name
            setattr(cls, name, compare)
    if unsafe_hash and "__hash__" not in cls.__dict__:
        cls.__hash__ = lambda self: hash((type(self), *_values(self, hash_fields)))


_SCHEMA_OF_PY_TYPE = {int: "int", float: "float", bool: "bool", str: "str", bytes: "bytes"}


def _annotation_schema(tp) -> dict:
    """The type schema of a field annotation: a builtin scalar, an FFI object class, else Any."""
    if isinstance(tp, str):
        return {"type": tp if tp in ("int", "float", "bool", "str", "bytes") else "Any"}
    if tp is None or tp is type(None):
        return {"type": "None"}
    if isinstance(tp, type) and tp in _SCHEMA_OF_PY_TYPE:
        return {"type": _SCHEMA_OF_PY_TYPE[tp]}
    info = getattr(tp, "__tvm_ffi_type_info__", None)
    return {"type": getattr(info, "type_key", "Any") if info is not None else "Any"}


def _annotate_type_info(cls, fields):
    info = type_info_of(cls.__ffi_type_index__, cls)
    for tf, f in zip(info.all_fields(), fields):
        tf.c_init, tf.c_kw_only, tf.c_repr = f.init, bool(f.kw_only), f.repr
        tf.c_compare, tf.c_hash, tf.c_structural_eq = f.compare, f.hash, f.structural_eq
        tf.c_has_default = f.has_default()
        tf.c_default, tf.c_default_factory = f.default, f.default_factory
        tf.dataclass_field, tf.ty = f, f.type
        # The registry's metadata stays (the user's is f.metadata, as upstream keeps it); a
        # Python-defined field records the schema of its annotation.
        if "type_schema" not in tf.metadata:
            tf.metadata = {**tf.metadata, "type_schema": _annotation_schema(f.type)}
        tf.doc = f.doc
    cls.__tvm_ffi_type_info__ = info


def _process(
    cls, type_key, frozen, init, repr, eq, order, unsafe_hash, match_args, kw_only, structural_eq
):
    if not isinstance(cls, type) or not issubclass(cls, Object):
        name = getattr(cls, "__name__", type(cls).__name__)
        raise TypeError(
            f"{name} must inherit from a registered FFI Object type (e.g. tvm_ffi.Object)"
        )
    if structural_eq not in SEQ_KINDS:
        raise ValueError(
            f"structural_eq must be one of {_CLASS_KINDS} or None, got {structural_eq!r}"
        )
    if order and not eq:
        raise ValueError("py_class: order=True requires eq=True")
    key = type_key or f"{cls.__module__}.{cls.__qualname__}"
    if not isinstance(key, str):
        raise TypeError(f"py_class: argument `type_key` must be a str, got {type(key).__name__}")
    try:
        _core.type_key_to_index(key)
    except KeyError:
        pass
    else:
        raise ValueError(f"Type key {key!r} is already registered")
    _base, parent_index, _parent_fields = _parent(cls)
    info = TypeInfo(cls, -1, key, [], [], [], type_info_of(parent_index))
    info._decorator_args = dict(  # type: ignore[attr-defined]
        frozen=frozen,
        init=init,
        repr=repr,
        eq=eq,
        order=order,
        unsafe_hash=unsafe_hash,
        match_args=match_args,
        kw_only=kw_only,
        structural_eq=structural_eq,
    )
    hints = {
        name: _resolve(cls, annotation)
        for name, annotation in cls.__dict__.get("__annotations__", {}).items()
    }
    on_fields_resolved(info, ([cls], {cls: hints}))
    return cls


def on_fields_resolved(type_info, resolved_fields) -> None:
    """Finishes a ``@py_class`` once its annotations are resolved (apache-tvm-ffi's phase two).

    `type_info` is the class's TypeInfo before registration (``type_cls``, ``type_key``, the
    decorator's options as ``_decorator_args``); `resolved_fields` is ``(owners,
    hints_by_owner)``: the classes declaring fields, each with its ``{name: type}``. It makes
    the Fields, runs the ``__ffi_on_fields_resolved__`` hooks, registers the type and its fields
    and installs ``__init__``, ``__repr__``, comparison, ``__setattr__`` and
    ``__match_args__``.
    """
    params = getattr(type_info, "_decorator_args", None)
    if not isinstance(getattr(type_info, "type_cls", None), type) or not isinstance(params, dict):
        raise TypeError(
            "on_fields_resolved: argument `type_info` must be a TypeInfo with type_cls and "
            "_decorator_args (what py_class prepares)"
        )
    try:
        owners, hints_by_owner = resolved_fields
        hints = [(owner, dict(hints_by_owner[owner])) for owner in owners]
    except (TypeError, ValueError, KeyError):
        raise TypeError(
            "on_fields_resolved: argument `resolved_fields` must be (owners, hints_by_owner), "
            "a {name: type} dict for each owner class"
        ) from None
    cls: typing.Any = type_info.type_cls  # the class py_class adds fields and dunders to
    key = type_info.type_key
    frozen, kw_only = params["frozen"], params["kw_only"]
    _base, parent_index, parent_fields = _parent(cls)
    own = [
        f for owner, owner_hints in hints for f in _own_fields(owner, owner_hints, frozen, kw_only)
    ]
    names = {f.name for f in parent_fields}
    for f in own:
        if f.name in names:
            raise TypeError(f"py_class {key}: field {f.name!r} is already declared by a base class")
    _run_field_hooks(cls, key, parent_index, own)
    fields = parent_fields + own
    flags = []
    for f in own:
        # A frozen init_property is stored by __init__ after construction, so its slot stays
        # writable; the class's __setattr__ refuses it to users.
        bits = 0 if f.frozen and f.init_func is None else FLAG_WRITABLE
        if f.structural_eq == "ignore":
            bits |= FLAG_SEQ_IGNORE
        elif f.structural_eq is not None:
            bits |= FLAG_SEQ_DEF
        # Recorded with the type too, so other languages (and c_class views) see the options.
        bits |= 0 if f.repr else FLAG_REPR_OFF
        bits |= 0 if f.compare else FLAG_COMPARE_OFF
        bits |= 0 if f.hash else FLAG_HASH_OFF
        flags.append(bits)
    index = _core.register_py_class_type(
        key,
        parent_index,
        len(parent_fields),
        [f.name for f in own],
        flags,
        [f.doc or "" for f in own],
        SEQ_KINDS[params["structural_eq"]],
    )
    cls.__tvm_ffi_py_fields__ = tuple(fields)
    _register_methods(cls, index)
    register_object(key)(cls)
    if params["init"] and "__init__" not in cls.__dict__:
        cls.__init__ = _make_init(cls, key, index, fields)
    if not params["repr"] and "__repr__" not in cls.__dict__:
        cls.__repr__ = Object.__repr__
    _install_compare(cls, fields, params["eq"], params["order"], params["unsafe_hash"])
    if "__setattr__" not in cls.__dict__:
        cls.__setattr__ = _make_setattr(cls, key, fields)
    if params["match_args"] and "__match_args__" not in cls.__dict__:
        # setattr: mypy rejects assigning __match_args__ on a class object ("Cannot assign").
        match = tuple(f.name for f in fields if f.init and not f.kw_only)
        setattr(cls, "__match_args__", match)  # noqa: B010
    _annotate_type_info(cls, fields)


def py_class(
    cls_or_type_key=None,
    /,
    *,
    type_key=None,
    frozen=False,
    init=True,
    repr=True,
    eq=False,
    order=False,
    unsafe_hash=False,
    match_args=True,
    kw_only=False,
    structural_eq="tree",
    slots=True,
):
    """Register a Python-defined FFI class with dataclass-style semantics.

    ``@py_class``, ``@py_class("my.Point")`` or ``@py_class("my.Point", eq=True)``. Fields come
    from the annotations (``x: float``, ``y: float = 0.0``, ``z: Object = field(...)``); objects
    live in C++ and pass through FFI functions as themselves. structural_eq is one of "tree"
    (default), "var", "dag", "const-tree", "singleton" or None.
    """
    options = dict(
        frozen=frozen,
        init=init,
        repr=repr,
        eq=eq,
        order=order,
        unsafe_hash=unsafe_hash,
        match_args=match_args,
        kw_only=kw_only,
        structural_eq=structural_eq,
    )
    if isinstance(cls_or_type_key, type):
        return _process(cls_or_type_key, type_key, **options)
    if cls_or_type_key is not None and not isinstance(cls_or_type_key, str):
        raise TypeError(
            f"py_class: the first argument must be a class or a type key str, got "
            f"{type(cls_or_type_key).__name__}"
        )
    key = type_key or cls_or_type_key
    return lambda cls: _process(cls, key, **options)


__all__ = [
    "KW_ONLY",
    "MISSING",
    "Field",
    "TypeSchema",
    "field",
    "method",
    "on_fields_resolved",
    "py_class",
]
