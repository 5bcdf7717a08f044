"""remove_all_unused: a function without the bindings nothing reads and that have no effect,
and without the blocks left empty (the per-function core of DeadCodeElimination)."""

from __future__ import annotations

from tvm.ir.module import IRModule

from ._checks import expect_function


def remove_all_unused(func):
    """func with every unread, effect-free binding removed (repeatedly, so chains of dead
    bindings go too) and empty blocks dropped; func itself when nothing is unused."""
    from ..transform.dead_code_elimination import remove_unused_bindings

    expect_function("remove_all_unused", func)
    return remove_unused_bindings(func, IRModule())
