"""tvm.s_tir: upstream's newer home of the TIR schedule (`tvm.s_tir.Schedule`, `get_sblock`);
the names of tvm.tir.schedule, one implementation."""

from tvm.tir.schedule import BlockRV, LoopRV, Schedule, Trace

SBlockRV = BlockRV


def __getattr__(name):
    if name == "dlight":  # the subpackage, imported on first use
        import importlib

        return importlib.import_module("tvm.s_tir.dlight")
    import tvm.tir.schedule

    return getattr(tvm.tir.schedule, name)


__all__ = ["BlockRV", "LoopRV", "SBlockRV", "Schedule", "Trace"]
