"""Purity of PrimFuncs: no stores into memory the function did not allocate, no stateful calls."""

from __future__ import annotations

from ..expr import CallEffectKind, StringImm
from ..function import PrimFunc
from ..functor import StmtExprVisitor, post_order_visit
from ..op import call_effect
from ..stmt import Allocate, Block


def _allocated_data_vars(func: PrimFunc) -> set[int]:
    allocated: set[int] = set()

    def record(node):
        if isinstance(node, Allocate):
            allocated.add(id(node.buffer_var))
        elif isinstance(node, Block):
            allocated.update(id(buf.data) for buf in node.alloc_buffers)

    post_order_visit(func.body, record)
    return allocated


class _ImpurityFinder(StmtExprVisitor):
    def __init__(self, allocated: set[int]):
        self.allocated = allocated
        self.reason: str | None = None

    def visit_BufferStore(self, store):
        if self.reason is None and id(store.buffer.data) not in self.allocated:
            self.reason = (
                f"it writes buffer {store.buffer.name!r}, which it did not allocate itself"
            )
        self.generic_visit(store)

    def visit_Call(self, call):
        effect = call_effect(call.op)
        if self.reason is None and effect in (CallEffectKind.UPDATE_STATE, CallEffectKind.OPAQUE):
            callee = call.op.name
            if call.args and isinstance(call.args[0], StringImm):
                callee = f"{callee}({call.args[0].value!r})"
            self.reason = f"it calls {callee}, whose effect is {effect.name.lower()}"
        self.generic_visit(call)


def _impurity(func) -> str | None:
    if not isinstance(func, PrimFunc):
        raise TypeError(f"is_pure_function: expected a PrimFunc, got {type(func).__name__}")
    finder = _ImpurityFinder(_allocated_data_vars(func))
    finder.visit(func.body)
    return finder.reason


def is_pure_function(func: PrimFunc) -> bool:
    """True when calling func has no effect besides its result."""
    return _impurity(func) is None


def assert_pure_function(func: PrimFunc) -> bool:
    """Return True for a pure func; raise AssertionError saying why it is impure otherwise."""
    reason = _impurity(func)
    if reason is not None:
        name = func.attrs.get("global_symbol", "main")
        raise AssertionError(f"assert_pure_function: function {name!r} is impure: {reason}")
    return True
