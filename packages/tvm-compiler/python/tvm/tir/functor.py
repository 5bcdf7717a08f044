"""Generic traversal of TIR: a visitor, a copy-on-write mutator, substitution, post-order walks."""

from __future__ import annotations

from tvm.ir.functor import NodeMutator, NodeVisitor

from .buffer import Buffer


class StmtExprVisitor(NodeVisitor):
    """Walks every TIR node; override visit_<ClassName>(node) (dispatched on "tir.<ClassName>")
    and call generic_visit to descend."""

    namespace = "tir"


class StmtExprMutator(NodeMutator):
    """Rebuilds TIR nodes whose children changed; a subtree with no change comes back as itself."""

    namespace = "tir"


class _Substituter(StmtExprMutator):
    def __init__(self, vmap):
        self.vmap = vmap

    def visit_Var(self, var):  # SizeVar too: dispatch falls back to the base class's key
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

    def generic_visit(self, node):
        if not self.into_buffers:
            return super().generic_visit(node)
        for name in node._fields:
            value = getattr(node, name)
            if name in node._unvisited_fields:
                for buffer in _buffers_in(value):
                    self.fvisit(buffer)
            else:
                self._visit_value(value)
        return None


def _buffers_in(value):
    if isinstance(value, Buffer):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _buffers_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _buffers_in(item)


def post_order_visit(node, fvisit, visit_buffers: bool = False) -> None:
    """Call fvisit on every node below and including node, children first."""
    _PostOrder(fvisit, visit_buffers).visit(node)


def contains(node, predicate) -> bool:
    """Whether predicate holds for node or any node below it."""
    found = []
    post_order_visit(node, lambda n: found.append(n) if predicate(n) else None)
    return bool(found)


def uses_var(node, var) -> bool:
    """Whether the variable var (the very object) occurs in node."""
    return contains(node, lambda n: n is var)


def accumulated_rhs(store):
    """rhs when store is the reduction step `C[idx] = C[idx] + rhs` (either operand order:
    the load of the same element of the same memory, compared structurally), else None."""
    from tvm.ir.structural import structural_equal

    from . import expr as E

    value = store.value
    if not isinstance(value, E.Add):
        return None
    for load, rhs in ((value.a, value.b), (value.b, value.a)):
        if (
            isinstance(load, E.BufferLoad)
            and load.buffer.data is store.buffer.data
            and structural_equal(tuple(load.indices), tuple(store.indices))
        ):
            return rhs
    return None


def ir_transform(stmt, preorder, postorder, only_enable=None):
    """Rebuild stmt, calling preorder(n) before visiting each node (a non-None result replaces
    n and skips its children) and postorder(n) after (a non-None result replaces it);
    only_enable, a list of type keys such as "tir.For", limits both to those node types."""

    def enabled(node):
        return not only_enable or getattr(type(node), "_type_key", None) in only_enable

    class _Transform(StmtExprMutator):
        def visit(self, node):
            if preorder is not None and enabled(node):
                replaced = preorder(node)
                if replaced is not None:
                    return replaced
            node = super().visit(node)
            if postorder is not None and enabled(node):
                replaced = postorder(node)
                if replaced is not None:
                    return replaced
            return node

    return _Transform().visit(stmt)


def stmt_transform(stmt, postorder):
    """Rebuild stmt bottom-up, replacing each node n by postorder(n) when that is not None."""
    return ir_transform(stmt, None, postorder)
