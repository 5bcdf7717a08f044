"""tvm.tir.stmt_functor: upstream's module of statement traversal helpers (post_order_visit,
substitute, ir_transform), the names of tvm.tir.functor under that path."""

from .functor import post_order_visit, substitute


def ir_transform(stmt, preorder, postorder, only_enable=None):
    """Rebuild stmt, calling preorder(n) before visiting each node (a non-None result replaces
    n and skips its children) and postorder(n) after (a non-None result replaces it);
    only_enable, a list of type keys such as "tir.For", limits both to those node types."""
    from .functor import StmtExprMutator

    def enabled(node):
        if not only_enable:
            return True
        return getattr(type(node), "_type_key", None) in only_enable

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


__all__ = ["ir_transform", "post_order_visit", "substitute"]
