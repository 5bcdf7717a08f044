"""CPUScheduleRule: the base of the rules that apply only to CPU targets."""

from __future__ import annotations

from ..base import ScheduleRule


class CPUScheduleRule(ScheduleRule):
    """A rule for CPU targets (those with the "cpu" key: llvm, c); apply gives None for others."""

    def is_target_available(self, target) -> bool:
        return super().is_target_available(target) and "cpu" in target.keys
