"""tvm.s_tir.dlight (also tvm.dlight): default schedules without tuning. ApplyDefaultSchedule
schedules each PrimFunc not yet scheduled with the first rule that fits; dlight.cpu holds the
CPU rules."""

from . import cpu
from .base import ApplyDefaultSchedule, ScheduleRule

__all__ = ["ApplyDefaultSchedule", "ScheduleRule", "cpu"]
