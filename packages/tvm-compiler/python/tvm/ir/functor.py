"""The one traversal layer of every IR: a visitor and a copy-on-write mutator that dispatch on
namespaced type keys ("tir.Var", later "relax.Var") and walk the children each node declares."""

from __future__ import annotations

import functools

from .node import Node


@functools.lru_cache(maxsize=4096)
def find_method(owner: type, node_type: type, prefix: str, namespace: str):
    """The method of `owner` that handles nodes of `node_type`: ``<prefix><Name>`` for the
    first class in node_type's MRO whose type key is "<namespace>.<Name>", or None.

    Every dispatch in the compiler (visitors, mutators, analyzers, code generators) goes
    through here, so none of them can catch a node of another IR by its bare class name.
    """
    for base in node_type.__mro__:
        key = base.__dict__.get("_type_key")
        if key is None:
            continue
        key_namespace, _, name = key.rpartition(".")
        if key_namespace == namespace:
            method = getattr(owner, prefix + name, None)
            if method is not None:
                return method
    return None


class NodeFunctor:
    """Dispatches visit(node) to ``visit_<Name>`` for nodes of the functor's namespace.

    A functor serves one IR: ``namespace = "tir"`` maps ``visit_Var`` to the key "tir.Var"
    only, so a TIR pass never catches another IR's ``Var``. A node class without a method of
    its own falls back to its base classes' keys (SizeVar -> Var), then to generic_visit.
    """

    namespace: str = ""

    def visit(self, node):
        method = find_method(type(self), type(node), "visit_", self.namespace)
        if method is None:
            return self.generic_visit(node)
        return method(self, node)

    def generic_visit(self, node):  # pragma: no cover - each functor kind defines it
        raise NotImplementedError


class NodeVisitor(NodeFunctor):
    """Walks every child a node declares; override visit_<Name>(node) and call generic_visit
    to descend further."""

    def generic_visit(self, node):
        for name in node._visit_fields():
            self._visit_value(getattr(node, name))

    def _visit_value(self, value):
        if isinstance(value, Node):
            self.visit(value)
        elif isinstance(value, (list, tuple)):
            for item in value:
                self._visit_value(item)
        elif isinstance(value, dict):
            for item in value.values():
                self._visit_value(item)


class NodeMutator(NodeFunctor):
    """Rebuilds a node whose children changed, through its constructor (so its checks run and
    their errors reach the caller); a subtree with no change comes back as itself."""

    def generic_visit(self, node):
        changes = {}
        for name in node._visit_fields():
            old = getattr(node, name)
            new = self._visit_value(old)
            if new is not old:
                changes[name] = new
        if not changes:
            return node
        return node._rebuild(changes)

    def _visit_value(self, value):
        if isinstance(value, Node):
            return self.visit(value)
        if isinstance(value, (list, tuple)):
            new_items = [self._visit_value(item) for item in value]
            if all(a is b for a, b in zip(new_items, value)):
                return value
            return type(value)(new_items)
        if isinstance(value, dict):
            new_items = {k: self._visit_value(v) for k, v in value.items()}
            if all(new_items[k] is v for k, v in value.items()):
                return value
            return new_items
        return value
