"""dlight's rule interface and the pass that applies rules to a module."""

from .schedule_rule import ScheduleRule
from .transform import ApplyDefaultSchedule

__all__ = ["ApplyDefaultSchedule", "ScheduleRule"]
