# Upstream's module paths and helper names that its own tests import (tvm.ir.transform, R.tuple...).
import subprocess
import sys

import pytest
import tvm
from tvm import relax as rx
from tvm.script import relax as R


def test_ir_transform_is_tvm_transform_in_a_fresh_process():
    code = (
        "import tvm; import tvm.ir.transform as t; from tvm.ir.transform import PassContext; "
        "assert t is tvm.transform and tvm.ir.transform is tvm.transform; "
        "assert PassContext is tvm.transform.PassContext; print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_ir_base_holds_structural_equality():
    from tvm.ir.base import assert_structural_equal, structural_equal

    assert structural_equal(rx.ShapeStructInfo([1, 2]), rx.ShapeStructInfo([1, 2]))
    with pytest.raises(ValueError):
        assert_structural_equal(rx.ShapeStructInfo([1, 2]), rx.ShapeStructInfo([1, 3]))


def test_ir_vdevice_and_prim_type():
    from tvm.ir import PrimType, VDevice

    vdev = VDevice("llvm", 0, "global")
    assert isinstance(vdev, tvm.relax.global_info.VDevice) and vdev.vdevice_id == 0
    tvm.ir.assert_structural_equal(tvm.ir.PrimType("float32"), rx.PrimStructInfo("float32"))
    assert PrimType is rx.PrimStructInfo
    with pytest.raises(AttributeError, match="no attribute 'NoSuchName'"):
        tvm.ir.NoSuchName  # noqa: B018


def test_script_tuple_builds_a_relax_tuple():
    x = rx.Var("x", R.Tensor((2,), "float32"))
    tup = R.tuple(x, 1)
    assert isinstance(tup, rx.Tuple) and len(tup.fields) == 2
    assert tup.fields[0] is x and isinstance(tup.fields[1], rx.PrimValue)
    assert isinstance(R.tuple(), rx.Tuple) and len(R.tuple().fields) == 0

    @R.function
    def empty():
        return R.tuple()

    assert isinstance(empty.body.body, rx.Tuple) and len(empty.body.body.fields) == 0


def test_update_struct_info_sets_it_once():
    gv = rx.GlobalVar("f")
    fsinfo = rx.FuncStructInfo([rx.ObjectStructInfo()], rx.ObjectStructInfo())
    rx.expr._update_struct_info(gv, fsinfo)
    assert gv.struct_info is fsinfo
    with pytest.raises(ValueError, match="already set"):
        rx.expr._update_struct_info(gv, rx.ObjectStructInfo())
    with pytest.raises(TypeError, match="_update_struct_info: struct_info must be a StructInfo"):
        rx.expr._update_struct_info(rx.GlobalVar("g"), "R.Object")


def test_struct_info_proxy_is_a_base_no_annotation_needs():
    from tvm.script.parser.relax.entry import StructInfoProxy, TypeProxy

    assert TypeProxy is StructInfoProxy
    # annotations resolve at once: the StructInfo itself, never a proxy
    assert not isinstance(R.Prim("int32"), StructInfoProxy)
    assert isinstance(R.Prim("int32"), rx.StructInfo)
    with pytest.raises(NotImplementedError):
        StructInfoProxy().as_struct_info()


def test_prim_func_returning_none():
    from tvm.script import tir as T

    @T.prim_func
    def f(a: T.Buffer((4,), "float32")) -> None:
        for i in range(4):
            a[i] = T.float32(0)

    assert isinstance(f, tvm.tir.PrimFunc)
    assert f.ret_type is None


def test_tir_pow_is_power():
    from tvm import tir

    x = tir.Var("x", "float32")
    assert tir.pow is tir.power
    tvm.ir.assert_structural_equal(tir.pow(x, 2.0), tir.power(x, 2.0))
