"""ScheduleRule: a named way to schedule a PrimFunc for a target, or None where it does not fit."""

from __future__ import annotations

from collections.abc import Callable


class ScheduleRule:
    """Given a PrimFunc, a target and a tunable flag, `apply` returns a Schedule (or a list of
    them) for the function, or None when the rule does not apply to it. Without tunable, a
    rule returns one Schedule with no sampling instructions in it."""

    def apply(self, func, target, tunable: bool):
        """The Schedule(s) of func for target, or None when this rule does not apply."""
        raise NotImplementedError

    @staticmethod
    def from_callable(name) -> Callable:
        """Decorator: a ScheduleRule called name whose apply is the decorated function
        f(func, target, tunable)."""

        def decorator(f) -> ScheduleRule:
            class _Rule(ScheduleRule):
                def apply(self, func, target, tunable):
                    return f(func, target, tunable)

            _Rule.__name__ = name
            _Rule.__qualname__ = name
            return _Rule()

        return decorator

    def is_target_available(self, target) -> bool:
        """Whether the rule can schedule for target (every target, unless a subclass says)."""
        return True
