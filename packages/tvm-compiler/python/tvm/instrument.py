"""Pass instruments: hooks around every pass run, with timing and printing instruments."""

from __future__ import annotations

import time


class PassInstrument:
    """Override any of the hooks; should_run returning False skips the pass."""

    def enter_pass_ctx(self) -> None:
        pass

    def exit_pass_ctx(self) -> None:
        pass

    def should_run(self, mod, info) -> bool:
        return True

    def run_before_pass(self, mod, info) -> None:
        pass

    def run_after_pass(self, mod, info) -> None:
        pass


class PassTimingInstrument(PassInstrument):
    """Records how long each pass ran, nested passes indented under the pass that ran them."""

    def __init__(self):
        self.records: list[tuple[int, str, float]] = []
        self._open: list[tuple[int, float]] = []

    def enter_pass_ctx(self) -> None:
        self.records = []
        self._open = []

    def run_before_pass(self, mod, info) -> None:
        self.records.append((len(self._open), info.name, 0.0))
        self._open.append((len(self.records) - 1, time.perf_counter()))

    def run_after_pass(self, mod, info) -> None:
        index, start = self._open.pop()
        depth, name, _ = self.records[index]
        self.records[index] = (depth, name, time.perf_counter() - start)

    def render(self) -> str:
        lines = ["pass timings:"]
        for depth, name, seconds in self.records:
            lines.append(f"{'  ' * (depth + 1)}{name}: {seconds * 1e6:.0f}us")
        return "\n".join(lines)


class PassPrintingInstrument(PassInstrument):
    """Prints the module before and/or after the named passes."""

    def __init__(self, print_before_pass_names=(), print_after_pass_names=(), file=None):
        self.before = set(print_before_pass_names)
        self.after = set(print_after_pass_names)
        self.file = file

    def run_before_pass(self, mod, info) -> None:
        if info.name in self.before:
            print(f"# before pass {info.name}\n{mod.script()}", file=self.file)

    def run_after_pass(self, mod, info) -> None:
        if info.name in self.after:
            print(f"# after pass {info.name}\n{mod.script()}", file=self.file)


class PrintAfterAll(PassInstrument):
    def __init__(self, file=None):
        self.file = file

    def run_after_pass(self, mod, info) -> None:
        print(f"# after pass {info.name}\n{mod.script()}", file=self.file)


class PrintBeforeAll(PassInstrument):
    def __init__(self, file=None):
        self.file = file

    def run_before_pass(self, mod, info) -> None:
        print(f"# before pass {info.name}\n{mod.script()}", file=self.file)


__all__ = [
    "PassInstrument",
    "PassPrintingInstrument",
    "PassTimingInstrument",
    "PrintAfterAll",
    "PrintBeforeAll",
]
