"""tvm.tir.stmt_functor: upstream's module of statement traversal helpers (post_order_visit,
substitute, ir_transform), the names of tvm.tir.functor under that path."""

from .functor import ir_transform, post_order_visit, substitute

__all__ = ["ir_transform", "post_order_visit", "substitute"]
