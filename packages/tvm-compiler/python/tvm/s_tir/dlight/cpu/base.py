"""CPUScheduleRule: the base of the rules that apply only to CPU targets."""

from __future__ import annotations

from ..base import ScheduleRule
from .nests import root_nests, simplify_extents


class CPUScheduleRule(ScheduleRule):
    """A rule for CPU targets (those with the "cpu" key: llvm, c); apply gives None for others."""

    def is_target_available(self, target) -> bool:
        return super().is_target_available(target) and "cpu" in target.keys

    def plain_nests(self, func, target):
        """(func with its extents simplified, its root loop nests), or None when target is not
        a CPU or func is not a sequence of plain nests: what every CPU rule starts from."""
        if not self.is_target_available(target):
            return None
        func = simplify_extents(func)
        nests = root_nests(func)
        return None if nests is None else (func, nests)
