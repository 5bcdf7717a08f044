"""tvm.tir.build: compile a PrimFunc or an IRModule of PrimFuncs into a runtime Module."""

from __future__ import annotations


def build(mod, target=None, pipeline="default"):
    """Lower and compile `mod` for `target` (default "c") with the default TIR pipeline.

    pipeline: "default" (or None) is the only pipeline this compiler has; passing another
    is a ValueError rather than a silently different build.
    """
    if pipeline not in ("default", None):
        raise ValueError(f"tvm.tir.build: argument 'pipeline' must be 'default', got {pipeline!r}")
    from tvm.driver import compile as compile_module

    return compile_module(mod, target)
