"""The base of every IR node: immutable objects with declared fields and copy-on-write updates."""

from __future__ import annotations

import sys


class Node:
    """An immutable IR node.

    Subclasses list their structural fields in ``_fields``. Fields listed in ``_def_fields``
    introduce (bind) variables, which structural equality maps instead of comparing by identity.
    Fields in ``_ignored_fields`` (names, spans) take no part in structural equality or hashing.

    Nodes are plain Python objects: when one is passed to an FFI function it travels as an
    opaque Python object handle and comes back as the very same object.
    """

    _fields: tuple[str, ...] = ()
    _def_fields: tuple[str, ...] = ()
    _ignored_fields: tuple[str, ...] = ("span",)
    # Fields holding nodes that traversal does not enter (a Buffer named by a load is a
    # reference to its definition, not a child).
    _unvisited_fields: tuple[str, ...] = ()
    # The IR a class belongs to; its type key is "<namespace>.<ClassName>" unless the class
    # sets _type_key itself. Functors dispatch on the key, never on the bare class name.
    _key_namespace: str = "ir"
    _type_key: str = "ir.Node"
    _visit_field_names: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "_type_key" not in cls.__dict__:
            cls._type_key = f"{cls._key_namespace}.{cls.__name__}"
        cls._visit_field_names = tuple(f for f in cls._fields if f not in cls._unvisited_fields)

    @classmethod
    def _visit_fields(cls) -> tuple[str, ...]:
        """The fields a visitor or mutator descends into, in declaration order."""
        return cls._visit_field_names

    def _rebuild(self, changes: dict):
        """This node with `changes` applied, as a mutator builds it (see NodeMutator)."""
        return self.with_fields(**changes)

    def __setattr__(self, name, value):
        raise AttributeError(
            f"{type(self).__name__}.{name}: IR nodes are immutable; "
            "use with_fields(...) to derive a changed node"
        )

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__}.{name}: IR nodes are immutable")

    # Fields known only after construction (a Relax expression's struct info): each is
    # filled once, through _fill_late_field, and is never part of structural comparison.
    _late_fields: tuple[str, ...] = ()
    # A variable class sets _is_var: structural equality matches variables by where they are
    # bound, not by identity, and compares only _var_compare_fields of theirs.
    _is_var: bool = False
    _var_compare_fields: tuple[str, ...] = ()

    def _set(self, **fields):
        # Constructors only: a node is immutable once built.
        for key, value in fields.items():
            object.__setattr__(self, key, value)

    def _fill_late_field(self, name: str, value) -> None:
        """Set a late field that is still unset; setting it to another value is an error."""
        if name not in self._late_fields:
            raise AttributeError(
                f"{type(self).__name__}: {name!r} is not a late field "
                f"(late fields: {list(self._late_fields)})"
            )
        current = self.__dict__.get(name)
        if current is not None and current is not value:
            raise ValueError(
                f"{type(self).__name__}.{name} is already set; derive a new node "
                "with with_fields(...) to change it"
            )
        object.__setattr__(self, name, value)

    def with_fields(self, **changes):
        """This node with some fields replaced; the node itself when nothing changes."""
        for key in changes:
            if key not in self.__dict__:
                raise AttributeError(f"{type(self).__name__}.with_fields: no field named {key!r}")
        if all(self.__dict__[key] is value for key, value in changes.items()):
            return self
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    def same_as(self, other) -> bool:
        return self is other

    def use_count(self) -> int:
        """How many references hold this node, not counting the call itself."""
        return sys.getrefcount(self) - _USE_COUNT_OVERHEAD

    def __reduce__(self):
        # As upstream's objects: a node pickles as its tvm.ir.save_json text, so IR crosses
        # to other processes (tvm.contrib.popen_pool); loading gives a structurally equal copy.
        from .serialization import load_json, save_json

        return (load_json, (save_json(self),))

    def __repr__(self):
        from .printer import node_to_str

        return node_to_str(self)

    def script(self, **options) -> str:
        """The node in TVMScript, as upstream's Scriptable.script prints it (a statement, an
        expression, a buffer, struct info, ...); options are upstream's (show_meta=,
        tir_prefix=, ...). Functions and modules print whole (their classes override this)."""
        from .printer import node_to_str, render

        show_meta = bool(options.get("show_meta", False))
        return render(
            self, options, type(self).__name__, lambda: node_to_str(self, show_meta=show_meta)
        )

    def show(self, black_format: bool = False, **options) -> None:
        """Print the node's script (formatted by `black` when asked and installed)."""
        from .printer import show_text

        show_text(self.script(**options), black_format)

    def structural_equal(self, other, map_free_vars: bool = False) -> bool:
        from .structural import structural_equal

        return structural_equal(self, other, map_free_vars)

    def structural_hash(self, map_free_vars: bool = False) -> int:
        from .structural import structural_hash

        return structural_hash(self, map_free_vars)


class _Probe(Node):
    def count(self):
        return sys.getrefcount(self)


def _calibrate() -> int:
    probe = _Probe()
    # One reference is the local name `probe`; the rest is what a method call adds.
    return probe.count() - 1


_USE_COUNT_OVERHEAD = _calibrate()
