"""field(...) and the Field record py_class keeps for each declared field."""

from __future__ import annotations

from typing import Any

from .._reflection import MISSING, TypeSchema

_STRUCTURAL_FIELD = [None, "def", "def-pattern", "def-simple", "ignore"]


class _KwOnly:
    """Annotating a pseudo-field with KW_ONLY makes the fields after it keyword-only."""

    def __repr__(self):
        return "KW_ONLY"


KW_ONLY = _KwOnly()


class init_property:  # noqa: N801  (upstream's name)
    """A field computed once from the other fields when the object is constructed.

    ``@init_property`` on a method of a ``@py_class`` body makes a field named after it
    (``init=False``, left out of repr, compare, hash and structural equality) whose value is the
    method's result, stored in the object like any field. Its type is the method's return
    annotation (``Any`` without one).
    """

    def __init__(self, func):
        if not callable(func):
            raise TypeError(
                f"init_property: argument `func` must be callable, got {type(func).__name__}"
            )
        self.func = func
        self.name = None
        self.__doc__ = getattr(func, "__doc__", None)

    def __get__(self, obj, objtype=None):
        return self

    def __set_name__(self, owner, name):
        self.name = name
        annotations = owner.__dict__.get("__annotations__")
        if annotations is None:
            annotations = {}
            owner.__annotations__ = annotations
        # py_class reads fields from the annotations: this one's is the return annotation.
        annotations[name] = getattr(self.func, "__annotations__", {}).get("return", Any)


class Field:
    """One field of a py_class: its options (filled in with name and type by the decorator)."""

    __slots__ = (
        "compare",
        "default",
        "default_factory",
        "doc",
        "extra_kwargs",
        "frozen",
        "hash",
        "init",
        "init_func",
        "kw_only",
        "metadata",
        "name",
        "repr",
        "structural_eq",
        "type",
    )

    def __init__(
        self,
        *,
        default=MISSING,
        default_factory=MISSING,
        frozen=False,
        init=True,
        repr=True,
        hash=None,
        compare=True,
        kw_only=None,
        metadata=None,
        structural_eq=None,
        doc=None,
        extra_kwargs=None,
    ):
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        if default_factory is not MISSING and not callable(default_factory):
            raise TypeError(
                "field: argument `default_factory` must be callable, "
                f"got {type(default_factory).__name__}"
            )
        if structural_eq not in _STRUCTURAL_FIELD:
            raise ValueError(
                f"structural_eq must be one of {_STRUCTURAL_FIELD}, got {structural_eq!r}"
            )
        self.name = None
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.frozen = frozen
        self.init = init
        self.repr = repr
        self.hash = compare if hash is None else hash
        self.compare = compare
        self.kw_only = kw_only
        self.metadata = dict(metadata) if metadata else {}
        self.structural_eq = structural_eq
        self.doc = doc
        self.extra_kwargs = dict(extra_kwargs or {})
        self.init_func = None  # the function of an init_property field

    def has_default(self) -> bool:
        return self.default is not MISSING or self.default_factory is not MISSING

    def __repr__(self):
        return (
            f"Field(name={self.name!r}, type={self.type!r}, default={self.default!r}, "
            f"frozen={self.frozen})"
        )


def field(
    *,
    default=MISSING,
    default_factory=MISSING,
    frozen=False,
    init=True,
    repr=True,
    hash=None,
    compare=True,
    kw_only=None,
    metadata=None,
    structural_eq=None,
    doc=None,
    converter=None,
    **extra_kwargs,
):
    """Customize a field in a ``@py_class``-decorated class (default, default_factory, frozen, init,
    repr, hash, compare, kw_only, metadata, structural_eq: None, "ignore", "def", "def-pattern",
    "def-simple"; doc)."""
    # Unknown options are kept for the class's __ffi_on_fields_resolved__ hooks; py_class
    # refuses the ones no hook consumed ("unrecognized field options").
    return Field(
        default=default,
        default_factory=default_factory,
        frozen=frozen,
        init=init,
        repr=repr,
        hash=hash,
        compare=compare,
        kw_only=kw_only,
        metadata=metadata,
        structural_eq=structural_eq,
        doc=doc,
        extra_kwargs=extra_kwargs,
    )


__all__ = ["KW_ONLY", "MISSING", "Field", "TypeSchema", "field", "init_property"]
