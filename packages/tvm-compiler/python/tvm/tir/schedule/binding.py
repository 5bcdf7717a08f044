"""bind: map a loop onto a GPU thread axis (a THREAD_BINDING loop naming its thread tag)."""

from __future__ import annotations

from ..stmt import ForKind
from .tree import replace_at

THREAD_AXES = tuple(
    [f"{kind}.{d}" for kind in ("blockIdx", "threadIdx") for d in "xyz"]
    + ["vthread", "vthread.x", "vthread.y", "vthread.z"]
)


def bind(sch, loop_rv, thread_axis):
    if not isinstance(thread_axis, str):
        raise TypeError(
            f"bind: argument 'thread_axis' must be a str, got {type(thread_axis).__name__}"
        )
    path = sch._loop_path(loop_rv, "bind")
    loop = path[-1]
    if thread_axis not in THREAD_AXES:
        raise sch._error(
            "bind",
            f"thread_axis {thread_axis!r} is not a thread axis; expected one of {THREAD_AXES}",
        )
    if loop.kind not in (ForKind.SERIAL, ForKind.THREAD_BINDING):
        raise sch._error(
            "bind",
            f"loop {loop.loop_var.name!r} is already {loop.kind.value}; only a serial loop can "
            "be bound to a thread axis",
        )
    new = loop.with_fields(kind=ForKind.THREAD_BINDING, thread_binding=thread_axis)
    sch._set_body(replace_at(path, new))
