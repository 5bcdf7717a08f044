"""tvm.tir.schedule: the Schedule API and its block/loop handles."""

from .index_map import IndexMap
from .schedule import BlockRV, LoopRV, Schedule
from .trace import Trace


def __getattr__(name):
    if name == "ScheduleError":
        from tvm.error import ScheduleError

        return ScheduleError
    if name == "TensorIntrin":  # tvm.s_tir.TensorIntrin, upstream 0.27's home of it
        from ..tensor_intrin import TensorIntrin

        return TensorIntrin
    raise AttributeError(f"module 'tvm.tir.schedule' has no attribute {name!r}")


__all__ = ["BlockRV", "IndexMap", "LoopRV", "Schedule", "Trace"]
