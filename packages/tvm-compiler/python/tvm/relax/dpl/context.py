"""PatternContext (tvm.relax.dpl.PatternContext): a graph of patterns and use constraints
between them (call patterns made inside the context use their argument patterns; a ^ b and
a >> b add more), matched against the bindings of a dataflow block as a whole."""

from __future__ import annotations

import threading

_STACK = threading.local()


def _stack() -> list:
    if not hasattr(_STACK, "items"):
        _STACK.items = []
    return _STACK.items


class PatternContext:
    """The patterns and constraints made inside `with PatternContext() as ctx:`; incremental
    starts from the enclosing context's graph."""

    def __init__(self, incremental: bool = False):
        self.nodes: list = []  # the patterns of the graph, in order of their first edge
        self.edges: list = []  # (producer, consumer, only_use, index)
        if incremental:
            outer = PatternContext.current()
            if outer is None:
                raise ValueError("PatternContext(incremental=True): no enclosing PatternContext")
            self.nodes = list(outer.nodes)
            self.edges = list(outer.edges)

    @staticmethod
    def current():
        """The innermost active PatternContext, or None."""
        stack = _stack()
        return stack[-1] if stack else None

    def __enter__(self):
        _stack().append(self)
        return self

    def __exit__(self, *exc):
        stack = _stack()
        if not stack or stack[-1] is not self:  # popping another context would unbalance both
            raise RuntimeError(
                "PatternContext.__exit__: this context is not the innermost active one (exit "
                "contexts in the reverse order of entering them)"
            )
        stack.pop()

    def add_node(self, pattern) -> None:
        if all(p is not pattern for p in self.nodes):
            self.nodes.append(pattern)

    def add_constraint(self, producer, consumer, only_use: bool = False, index: int = -1):
        """producer's value is used by consumer's (only by it when only_use)."""
        self.add_node(producer)
        self.add_node(consumer)
        self.edges.append((producer, consumer, only_use, index))

    def match_dfb(self, dfb) -> dict | None:
        """Each pattern of the graph mapped to the variable (a binding's or one the block reads)
        it matches in dfb with every constraint holding, or None."""
        from ..expr import DataflowBlock

        if not isinstance(dfb, DataflowBlock):
            raise TypeError(
                f"PatternContext.match_dfb: dfb must be a relax.DataflowBlock, got "
                f"{type(dfb).__name__}"
            )
        from .graph_matcher import match_graph

        return match_graph(self, dfb.bindings, {})
