"""Fallback: the CPU rule for any function made of plain loop nests (element-wise, injective,
reductions): each nest gets the simple schedule (parallel outer loops, vectorized inner loop)."""

from __future__ import annotations

from tvm.tir.schedule import Schedule

from .base import CPUScheduleRule
from .inline import inline_elementwise
from .simple import schedule_nest


class Fallback(CPUScheduleRule):
    """Parallel outer loops and a vectorized innermost loop for every nest of the function;
    None for a function that is not a sequence of plain nests (see nests.root_nests)."""

    def apply(self, func, target, _tunable=False):
        found = self.plain_nests(func, target)
        if found is None:
            return None
        func, nests = found
        sch = Schedule(func)
        for nest in inline_elementwise(sch, nests):
            schedule_nest(sch, nest)
        return sch
