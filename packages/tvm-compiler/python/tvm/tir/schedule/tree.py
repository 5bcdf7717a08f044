"""Paths through a statement tree and copy-on-write replacement of the node at the end of a path."""

from __future__ import annotations

from ..stmt import Block, BlockRealize, For, SeqStmt, Stmt


def _statement_fields(stmt):
    """The fields of stmt that hold statements (a body, a sequence, a block), as its class
    declares them to the traversal layer."""
    for name in stmt._visit_fields():
        value = getattr(stmt, name)
        if isinstance(value, Stmt) or (
            isinstance(value, tuple) and value and all(isinstance(v, Stmt) for v in value)
        ):
            yield name


def children(stmt):
    for name in _statement_fields(stmt):
        value = getattr(stmt, name)
        if isinstance(value, tuple):
            yield from value
        else:
            yield value


def find_path(root, predicate) -> list | None:
    """[root, ..., node] to the first node (pre-order) where predicate holds, else None."""
    if predicate(root):
        return [root]
    for child in children(root):
        sub = find_path(child, predicate)
        if sub is not None:
            return [root, *sub]
    return None


def find_all(root, predicate) -> list:
    found = []

    def walk(node):
        if predicate(node):
            found.append(node)
        for child in children(node):
            walk(child)

    walk(root)
    return found


def replace_child(parent, old, new):
    """parent with child old replaced by new (None removes it from a sequence)."""
    for name in _statement_fields(parent):
        value = getattr(parent, name)
        if value is old:
            if new is None:
                raise ValueError(f"cannot remove the only {name} of {type(parent).__name__}")
            return parent.with_fields(**{name: new})
        if isinstance(value, tuple) and any(v is old for v in value):
            items = []
            for v in value:
                if v is not old:
                    items.append(v)
                elif isinstance(new, SeqStmt):
                    items.extend(new.seq)
                elif new is not None:
                    items.append(new)
            if isinstance(parent, SeqStmt) and len(items) == 1:
                return items[0]
            return parent.with_fields(**{name: tuple(items)})
    raise ValueError(f"{type(old).__name__} is not a child of {type(parent).__name__}")


def replace_at(path: list, new):
    """The root of path with its last node replaced by new (None removes it), ancestors rebuilt."""
    for parent in reversed(path[:-1]):
        old = path[path.index(parent) + 1]
        new = replace_child(parent, old, new)
    return new


def enclosing_loops(path: list) -> list[For]:
    """The loops on path below the innermost block above the path's end."""
    loops: list[For] = []
    for node in path[:-1]:
        if isinstance(node, (Block, BlockRealize)):
            loops = []
        elif isinstance(node, For):
            loops.append(node)
    return loops
