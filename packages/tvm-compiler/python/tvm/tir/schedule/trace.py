"""The trace of a schedule: each primitive applied, printable as the Python that replays it."""

from __future__ import annotations


class Instruction:
    def __init__(self, kind: str, inputs: dict, outputs: list):
        self.kind = kind
        self.inputs = inputs
        self.outputs = outputs

    def as_python(self, name_of) -> str:
        # The key "*" holds positional arguments (as for fuse and reorder).
        args = ", ".join(
            ", ".join(_render(v, name_of) for v in value)
            if key == "*"
            else f"{key}={_render(value, name_of)}"
            for key, value in self.inputs.items()
        )
        call = f"sch.{self.kind}({args})"
        if not self.outputs:
            return call
        return f"{', '.join(name_of(o) for o in self.outputs)} = {call}"


def _render(value, name_of) -> str:
    if isinstance(value, tuple):  # as upstream prints reindex's ("read", 0)
        return (
            "("
            + ", ".join(_render(v, name_of) for v in value)
            + ("," if len(value) == 1 else "")
            + ")"
        )
    if isinstance(value, list):
        return "[" + ", ".join(_render(v, name_of) for v in value) + "]"
    if hasattr(value, "_trace_prefix"):
        return name_of(value)
    return repr(value)


class Trace:
    """Instructions in the order they were applied."""

    def __init__(self):
        self.insts: list[Instruction] = []
        self._names: dict[int, str] = {}
        self._keep: list = []

    def append(self, kind: str, inputs: dict, outputs) -> None:
        outputs = (
            list(outputs)
            if isinstance(outputs, (list, tuple))
            else ([] if outputs is None else [outputs])
        )
        self.insts.append(Instruction(kind, inputs, outputs))

    def name_of(self, rv) -> str:
        key = id(rv)
        if key not in self._names:
            self._names[key] = f"{rv._trace_prefix}{len(self._names)}"
            self._keep.append(rv)
        return self._names[key]

    def copy(self) -> Trace:
        other = Trace()
        other.insts = list(self.insts)
        other._names = dict(self._names)
        other._keep = list(self._keep)
        return other

    def show(self, black_format: bool = False) -> None:
        """Print the trace as the Python that replays it."""
        from tvm.ir.printer import show_text

        show_text(str(self), black_format)

    def __len__(self):
        return len(self.insts)

    def __str__(self):
        return "\n".join(inst.as_python(self.name_of) for inst in self.insts)

    def __repr__(self):
        return str(self)
