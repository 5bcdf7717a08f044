"""TopologicalSort: reorder the bindings of every dataflow block depth- or breadth-first,
walking from the block's inputs or from its outputs (relax.transform.TopologicalSort)."""

from __future__ import annotations

from collections import deque

from .lowering_utils import BindingRewriter, free_relax_uses, relax_function_pass

_ORDERS = ("depth-first", "breadth-first")
_DIRECTIONS = ("from-inputs", "from-outputs")


def _sorted_bindings(block, depth_first: bool, from_inputs: bool, params=()) -> list:
    bindings = list(block.bindings)
    defined = {b.var: b for b in bindings}
    upstream = {b.var: list(dict.fromkeys(free_relax_uses(b.value))) for b in bindings}
    downstream: dict = {}
    for b in bindings:
        for used in upstream[b.var]:
            downstream.setdefault(used, []).append(b.var)
    if from_inputs and depth_first:
        # Depth-first from the inputs starts with the readers of the inputs (parameters in
        # order, then other outer variables by first use), the first reader on top; bindings
        # that read nothing come last. Each binding then continues with its last reader.
        outside = [p for p in params if p in downstream and p not in defined]
        for b in bindings:
            outside.extend(v for v in upstream[b.var] if v not in defined and v not in outside)
        readers = list(dict.fromkeys(r for v in outside for r in downstream[v]))
        no_input = [b.var for b in bindings if not upstream[b.var]]
        seeds = [*reversed(no_input), *reversed(readers)]
        forward, backward = downstream, upstream
    elif from_inputs:
        seeds: list = []
        for b in bindings:
            outside = [v for v in upstream[b.var] if v not in defined]
            if not upstream[b.var]:
                outside = [b.var]  # nothing to wait for: a start of its own
            seeds.extend(v for v in outside if v not in seeds)
        forward, backward = downstream, upstream
    else:
        seeds = [b.var for b in bindings if not downstream.get(b.var)]
        forward, backward = upstream, downstream
    todo = deque(seeds)
    emitted, done, seen_outside = [], set(), set()
    while todo:
        var = todo.pop() if depth_first else todo.popleft()
        if var in done or var in seen_outside:
            continue
        if var in defined:
            if any(dep in defined and dep not in done for dep in backward.get(var, ())):
                continue  # revisited once the last of its dependencies is placed
            done.add(var)
            emitted.append(defined[var])
        else:
            seen_outside.add(var)
        edges = forward.get(var, [])
        todo.extend(edges)
    emitted.extend(b for b in bindings if b.var not in done)  # unreachable: keep in place
    if not from_inputs:
        emitted.reverse()
    return emitted


class _Sorter(BindingRewriter):
    def __init__(self, depth_first, from_inputs, params):
        super().__init__()
        self.params = params
        self.depth_first = depth_first
        self.from_inputs = from_inputs

    def rewrite_block(self, block):
        from ..expr import DataflowBlock

        block = super().rewrite_block(block)
        if not isinstance(block, DataflowBlock):
            return block
        new = _sorted_bindings(block, self.depth_first, self.from_inputs, self.params)
        if all(a is b for a, b in zip(new, block.bindings)):
            return block
        return DataflowBlock(new, getattr(block, "span", None))


def TopologicalSort(order: str = "depth-first", direction: str = "from-inputs"):  # noqa: N802
    """The pass. order: "depth-first" or "breadth-first"; direction: "from-inputs" or
    "from-outputs"."""
    if order not in _ORDERS:
        raise ValueError(
            f'Invalid value for traversal order: "{order}".  Allowed values are "depth-first" '
            'or "breadth-first"'
        )
    if direction not in _DIRECTIONS:
        raise ValueError(
            f'Invalid value for starting location: "{direction}".  Allowed values are '
            '"from-inputs" or "from-outputs"'
        )
    depth_first = order == "depth-first"
    from_inputs = direction == "from-inputs"

    @relax_function_pass("TopologicalSort")
    def topological_sort(func, mod, ctx):
        return _Sorter(depth_first, from_inputs, list(func.params)).rewrite_function(func)

    return topological_sort
