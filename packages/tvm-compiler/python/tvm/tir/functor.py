"""Generic traversal of TIR: a visitor, a copy-on-write mutator, substitution and post-order walks."""

from __future__ import annotations

from tvm.ir.node import Node

from .buffer import Buffer
from .expr import Var


class _Dispatcher:
    def visit(self, node):
        method = getattr(self, "visit_" + type(node).__name__, None)
        if method is not None:
            return method(node)
        return self.generic_visit(node)


class StmtExprVisitor(_Dispatcher):
    """Walks every node; override visit_<ClassName>(node) and call generic_visit to descend."""

    def generic_visit(self, node):
        for name in node._fields:
            self._visit_value(getattr(node, name))

    def _visit_value(self, value):
        if isinstance(value, Node):
            if not isinstance(value, Buffer):
                self.visit(value)
        elif isinstance(value, (list, tuple)):
            for item in value:
                self._visit_value(item)
        elif isinstance(value, dict):
            for item in value.values():
                self._visit_value(item)


class StmtExprMutator(_Dispatcher):
    """Rebuilds nodes whose children changed; a subtree with no change comes back as itself."""

    def generic_visit(self, node):
        changes = {}
        for name in node._fields:
            old = getattr(node, name)
            new = self._visit_value(old)
            if new is not old:
                changes[name] = new
        if not changes:
            return node
        return _rebuild(node, changes)

    def _visit_value(self, value):
        if isinstance(value, Node):
            return value if isinstance(value, Buffer) else self.visit(value)
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


def _rebuild(node, changes):
    """A node of the same type with changes applied, re-running its constructor checks."""
    from .expr import PrimExpr

    if isinstance(node, PrimExpr) and not isinstance(node, Var) and "dtype" not in node._fields:
        # Derived dtypes (of arithmetic, loads) follow the new operands.
        fields = {name: changes.get(name, getattr(node, name)) for name in node._fields}
        try:
            return type(node)(**fields)
        except TypeError:
            pass
    return node.with_fields(**changes)


class _Substituter(StmtExprMutator):
    def __init__(self, vmap):
        self.vmap = vmap

    def visit_Var(self, var):
        return self.vmap.get(var, var)

    def visit_SizeVar(self, var):
        return self.vmap.get(var, var)


def substitute(node, vmap: dict):
    """node with each Var in vmap replaced by its value (a PrimExpr or number)."""
    from .expr import convert

    if not vmap:
        return node
    if isinstance(node, (list, tuple)):
        return type(node)(substitute(item, vmap) for item in node)
    return _Substituter({k: convert(v) for k, v in vmap.items()}).visit(node)


class _PostOrder(StmtExprVisitor):
    def __init__(self, fvisit, into_buffers):
        self.fvisit = fvisit
        self.into_buffers = into_buffers

    def visit(self, node):
        super().visit(node)
        self.fvisit(node)

    def _visit_value(self, value):
        if self.into_buffers and isinstance(value, Buffer):
            self.fvisit(value)
        super()._visit_value(value)


def post_order_visit(node, fvisit, visit_buffers: bool = False) -> None:
    """Call fvisit on every node below and including node, children first."""
    _PostOrder(fvisit, visit_buffers).visit(node)


def contains(node, predicate) -> bool:
    """Whether predicate holds for node or any node below it."""
    found = []
    post_order_visit(node, lambda n: found.append(n) if predicate(n) else None)
    return bool(found)


def stmt_transform(stmt, postorder):
    """Rebuild stmt bottom-up, replacing each node n by postorder(n) when that is not None."""

    class _Transform(StmtExprMutator):
        def visit(self, node):
            node = super().visit(node)
            replaced = postorder(node)
            return node if replaced is None else replaced

    return _Transform().visit(stmt)
