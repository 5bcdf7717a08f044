"""ProfileReport: time spent per callee in one VirtualMachine.profile run."""

from __future__ import annotations


class ProfileReport:
    """Calls and seconds per callee name; str() is a table, slowest first."""

    def __init__(self):
        self.calls: dict[str, list] = {}
        self.total = 0.0

    def add(self, name: str, seconds: float) -> None:
        entry = self.calls.setdefault(name, [0, 0.0])
        entry[0] += 1
        entry[1] += seconds

    def table(self) -> str:
        rows = sorted(self.calls.items(), key=lambda kv: -kv[1][1])
        width = max([len("Name"), *(len(n) for n in self.calls)])
        lines = [f"{'Name':<{width}}  {'Count':>6}  {'Duration (us)':>14}  {'Percent':>8}"]
        for name, (count, seconds) in rows:
            share = 100.0 * seconds / self.total if self.total else 0.0
            lines.append(f"{name:<{width}}  {count:>6}  {seconds * 1e6:>14.2f}  {share:>7.2f}%")
        lines.append(f"{'Total':<{width}}  {'':>6}  {self.total * 1e6:>14.2f}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        return f"ProfileReport(callees={len(self.calls)}, total={self.total:.6g}s)"
