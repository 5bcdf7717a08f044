"""detect_recursion: the groups of a module's functions that refer to each other in a cycle
(strongly connected components of the reference graph that contain a cycle)."""

from __future__ import annotations

from tvm.ir.module import IRModule

from ._checks import expect
from .bindings import all_global_vars


def detect_recursion(mod) -> list:
    """Each set of (mutually) recursive functions of mod, as a list of GlobalVars; a function
    that refers only to itself is a group of one. References count, not only calls."""
    from ..expr import Function

    expect("detect_recursion", "mod", mod, IRModule, "an IRModule")
    funcs = {gv: f for gv, f in mod.functions.items() if isinstance(f, Function)}
    by_name = {gv.name_hint: gv for gv in funcs}
    edges = {
        gv: [by_name[g.name_hint] for g in all_global_vars(f) if g.name_hint in by_name]
        for gv, f in funcs.items()
    }
    # Tarjan's algorithm, iterative (deep call chains must not hit Python's recursion limit)
    index, low, on_stack, stack, groups = {}, {}, set(), [], []
    for root in funcs:
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member is node:
                        break
                if len(group) > 1 or node in edges[node]:
                    groups.append(group)
    return groups
