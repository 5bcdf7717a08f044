"""ApplyDefaultSchedule: schedule every PrimFunc not scheduled yet with the first rule that fits."""

from __future__ import annotations

from tvm.ir.module import IRModule
from tvm.target import Target
from tvm.tir.function import PrimFunc
from tvm.tir.leading_checks import leading_checks, with_leading_checks
from tvm.tir.schedule import Schedule
from tvm.transform import module_pass

from .schedule_rule import ScheduleRule

# The attribute a scheduled PrimFunc carries (upstream 0.27's key; later releases spell it
# "tirx.is_scheduled", which is honoured on input too).
IS_SCHEDULED = "tir.is_scheduled"


def _is_scheduled(func) -> bool:
    attrs = func.attrs
    return any(bool(attrs.get(key, False)) for key in (IS_SCHEDULED, "tirx.is_scheduled"))


def _get_target(func):
    target = func.attrs.get("target")
    if target is None:
        return Target.current(allow_none=False)
    return target if isinstance(target, Target) else Target(target)


def _apply_rules(func, target, rules, tunable: bool):
    for rule in rules:
        space = rule.apply(func, target, tunable)
        if space is None:
            continue
        return [space] if isinstance(space, Schedule) else list(space)
    return None


@module_pass(opt_level=0, name="ApplyDefaultSchedule")
class ApplyDefaultSchedule:
    """A module pass that schedules each PrimFunc lacking the `tir.is_scheduled` attribute with
    the first of rules that applies to it (rules are tried in order); the result carries
    `tir.is_scheduled`. A function no rule applies to is left as it was. The target is the
    function's `target` attribute, else the one in scope (`with Target(...)`)."""

    def __init__(self, *rules: ScheduleRule):
        for rule in rules:
            if not isinstance(rule, ScheduleRule):
                raise TypeError(
                    f"ApplyDefaultSchedule: argument 'rules' must be ScheduleRule objects, got "
                    f"{type(rule).__name__}"
                )
        self.rules = list(rules)

    def transform_module(self, mod: IRModule, _ctx) -> IRModule:
        updated = {}
        for gv, func in mod.functions.items():
            if not isinstance(func, PrimFunc) or _is_scheduled(func):
                continue
            target = _get_target(func)
            # Run-time checks a legalisation put first in the root block (symbolic dims that
            # must agree) stay in front of whatever the rules make of the rest.
            checks, unchecked = leading_checks(func)
            spaces = _apply_rules(unchecked, target, self.rules, tunable=False)
            if spaces is None:
                continue
            if len(spaces) != 1:
                raise ValueError(
                    f"ApplyDefaultSchedule: a rule gave {len(spaces)} schedules for "
                    f"{gv.name_hint!r}; without tuning it must give one"
                )
            scheduled = with_leading_checks(spaces[0].mod["main"], checks)
            updated[gv] = scheduled.with_attr(IS_SCHEDULED, True)
        if not updated:
            return mod
        return mod._with_replaced_functions(updated)
