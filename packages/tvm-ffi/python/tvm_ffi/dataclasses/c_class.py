"""c_class: the Python view of a C++-registered object type, its reflected fields as a dataclass."""

from __future__ import annotations

from ..registry import register_object
from .field import Field, field
from .py_class import _annotate_type_info, _install_compare


def c_class(
    type_key: str,
    *,
    frozen: bool = False,
    init: bool = True,
    repr: bool = True,
    eq: bool = False,
    order: bool = False,
    unsafe_hash: bool = False,
    match_args: bool = True,
):
    """Register a C++ FFI class (register_object) with its reflected fields as dataclass fields.

    ``__init__`` is the type's ``__ffi_init__``; eq / order / unsafe_hash add field-wise ``==``,
    ordering and hashing; user-defined dunders in the class body are kept.
    """
    if not isinstance(type_key, str):
        raise TypeError(
            f"c_class: argument `type_key` must be a str, got {type(type_key).__name__}"
        )
    if order and not eq:
        raise ValueError("c_class: order=True requires eq=True")

    def register(cls):
        register_object(type_key)(cls)
        info = cls.__tvm_ffi_type_info__
        fields = []
        for tf in info.all_fields():
            # The C++ field traits repr(false) / compare(false) / hash(false), init(false),
            # kw_only(true) and default_value(v) carry over.
            f = Field(
                frozen=tf.frozen or frozen,
                repr=tf.c_repr,
                compare=tf.c_compare,
                hash=tf.c_hash,
                init=tf.c_init,
                kw_only=tf.c_kw_only,
                default=tf.c_default,
            )
            f.name, f.type = tf.name, tf.ty
            fields.append(f)
        cls.__tvm_ffi_py_fields__ = tuple(fields)
        if not init and "__init__" not in cls.__dict__:
            cls.__init__ = None
        _install_compare(cls, fields, eq, order, unsafe_hash)
        if frozen and "__setattr__" not in cls.__dict__:
            cls.__setattr__ = _frozen_setattr(cls, {f.name for f in fields})
        if match_args and "__match_args__" not in cls.__dict__:
            # setattr: mypy rejects assigning __match_args__ on a class object ("Cannot assign").
            setattr(cls, "__match_args__", tuple(f.name for f in fields))  # noqa: B010
        _annotate_type_info(cls, fields)
        return cls

    return register


def _frozen_setattr(cls, names):
    """Refuses assignment to the reflected fields (writable in C++) of a frozen c_class."""
    base_setattr = cls.__setattr__

    def __setattr__(self, name, value):
        if name in names:
            raise AttributeError(
                f"field {name} of {type(self).__name__} is read-only (frozen by c_class)"
            )
        base_setattr(self, name, value)

    return __setattr__


__all__ = ["Field", "c_class", "field"]
