# Upstream 0.27's spellings: tvm.tirx is tvm.tir, module for module; tvm.s_tir.Schedule.get_sblock.
import subprocess
import sys

import tvm


def test_tirx_is_tir_module_for_module():
    import tvm.tir.transform
    import tvm.tirx
    import tvm.tirx.transform
    from tvm.tirx import Var
    from tvm.tirx.schedule import Schedule

    assert tvm.tirx is tvm.tir and tvm.tirx.transform is tvm.tir.transform
    assert Var is tvm.tir.Var and Schedule is tvm.tir.Schedule
    assert isinstance(tvm.tirx.Var("x"), tvm.tir.PrimExpr)


def test_tirx_imported_first_in_a_fresh_process():
    code = (
        "import tvm.tirx.analysis as a, tvm.tir.analysis as b, tvm; "
        "assert a is b and tvm.tirx is tvm.tir; print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_missing_submodule_of_an_alias_is_an_import_error():
    import pytest

    with pytest.raises(ModuleNotFoundError, match="tvm.tirx.no_such_thing"):
        import tvm.tirx.no_such_thing  # noqa: F401


def test_s_tir_schedule_and_get_sblock():
    from tvm import te
    from tvm.s_tir import SBlockRV, Schedule

    a = te.placeholder((8,), name="A")
    b = te.compute((8,), lambda i: a[i] + 1.0, name="B")
    sch = Schedule(te.create_prim_func([a, b]))
    assert Schedule is tvm.tir.Schedule
    block = sch.get_sblock("B")
    assert isinstance(block, SBlockRV) and sch.get_loops(block)
