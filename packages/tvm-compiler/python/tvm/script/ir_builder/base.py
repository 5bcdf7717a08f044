"""IRBuilder: a stack of frames; each `with` frame collects what is built inside it."""

from __future__ import annotations

import threading

_STATE = threading.local()


class IRBuilderFrame:
    """A scope of the program being built; leaving it hands its result to the frame below."""

    def __enter__(self):
        IRBuilder.current().frames.append(self)
        return self

    def __exit__(self, exc_type, exc, tb):
        builder = IRBuilder.current()
        if not builder.frames or builder.frames[-1] is not self:
            raise RuntimeError(f"IRBuilder: {type(self).__name__} exited out of order")
        builder.frames.pop()
        if exc_type is None:
            self.exit()

    def exit(self) -> None:
        """Build this frame's node and give it to the enclosing frame."""


class IRBuilder:
    """The builder in use (`with IRBuilder() as ib:`); frames and T.* calls find it."""

    def __init__(self):
        self.frames: list[IRBuilderFrame] = []
        self.result = None
        # Names the parser gives to what the next builder call defines (`A = T.alloc_buffer`).
        self.pending_names: list[str] | None = None
        self.pending_span = None  # and the span of the statement that names them

    def __enter__(self):
        stack = _STATE.__dict__.setdefault("stack", [])
        stack.append(self)
        return self

    def __exit__(self, *exc):
        _STATE.stack.pop()

    @staticmethod
    def current() -> IRBuilder:
        stack = getattr(_STATE, "stack", None)
        if not stack:
            raise RuntimeError("IRBuilder: no builder is active; use `with IRBuilder():`")
        return stack[-1]

    @staticmethod
    def is_in_scope() -> bool:
        return bool(getattr(_STATE, "stack", None))

    def find_frame(self, kind):
        for frame in reversed(self.frames):
            if isinstance(frame, kind):
                return frame
        return None

    def take_name(self, default: str) -> str:
        names = self.pending_names
        if names:
            return names.pop(0)
        return default

    def take_span(self):
        return self.pending_span

    def get(self):
        if self.result is None:
            raise RuntimeError("IRBuilder.get: nothing has been built")
        return self.result

    @staticmethod
    def name(name: str, value):
        """Upstream's IRBuilder.name: here names are given before the call that defines them."""
        return value
