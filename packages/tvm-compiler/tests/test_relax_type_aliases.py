# The 0.26+ names of Relax's struct info (StructInfo was renamed Type upstream): relax.*Type,
# the tvm.relax.type / tvm.relax.ty modules, expr.ty, and the script dialects as modules.
import importlib
import subprocess
import sys

import pytest
import tvm
from tvm import relax


def test_type_names_are_the_struct_info_classes():
    assert relax.Type is relax.StructInfo
    assert relax.AnyType is relax.ObjectType is relax.ObjectStructInfo
    assert relax.TensorType is relax.TensorStructInfo
    assert relax.ShapeType is relax.ShapeStructInfo
    assert relax.TupleType is relax.TupleStructInfo
    assert relax.PrimType is relax.PrimStructInfo
    assert relax.FuncType is relax.FuncStructInfo
    t = relax.TensorType((2, 3), "float32")
    assert isinstance(t, relax.Type)
    assert tvm.ir.structural_equal(t, relax.TensorStructInfo((2, 3), "float32"))


def test_type_modules():
    from tvm.relax.ty import Type as TyType
    from tvm.relax.type import AnyType, FuncType, ShapeType, TensorType, TupleType, Type

    assert TyType is Type is relax.StructInfo
    assert (AnyType, FuncType, ShapeType, TensorType, TupleType) == (
        relax.ObjectStructInfo,
        relax.FuncStructInfo,
        relax.ShapeStructInfo,
        relax.TensorStructInfo,
        relax.TupleStructInfo,
    )
    assert relax.type is importlib.import_module("tvm.relax.type")
    assert relax.ty is importlib.import_module("tvm.relax.ty")


def test_expr_ty_is_struct_info():
    x = relax.Var("x", relax.TensorType((2, 3), "float32"))
    assert x.ty is x.struct_info
    # upstream prints the type the same way as the struct info
    assert str(x.ty) == 'R.Tensor((2, 3), dtype="float32")'
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        y = bb.emit(relax.op.add(x, x))
        bb.emit_func_output(y)
    assert tvm.ir.structural_equal(y.ty, relax.TensorType((2, 3), "float32"))
    assert isinstance(bb.get()["main"].ty, relax.FuncType)


def test_ty_of_unnormalised_expr_says_so():
    x = relax.Var("x", relax.TensorType((2,), "float32"))
    call = relax.Call(tvm.ir.Op.get("relax.add"), [x, x])
    with pytest.raises(ValueError, match="not known yet"):
        call.ty  # noqa: B018


@pytest.mark.parametrize("name", ["tvm.script.relax", "tvm.script.tir", "tvm.script.tirx"])
def test_script_dialects_are_modules(name):
    # a fresh interpreter: the import statement itself must find the module
    code = f"import {name}, importlib; m = importlib.import_module({name!r}); print(m.__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().startswith("tvm.script")


def test_tirx_is_the_tir_dialect():
    from tvm.script import tir, tirx
    from tvm.script import tirx as T

    assert tirx is tir

    @T.prim_func
    def add_one(a: T.Buffer((4,), "float32"), b: T.Buffer((4,), "float32")):
        for i in range(4):
            b[i] = a[i] + T.float32(1)

    assert isinstance(add_one, tvm.tir.PrimFunc)
    assert [p.name for p in add_one.params] == ["a", "b"]


def test_relax_namespace_reexports():
    # as upstream, the structural call constructors and Span are reachable from tvm.relax
    assert relax.call_tir is relax.op.call_tir
    assert relax.call_tir_inplace is relax.op.call_tir_inplace
    assert relax.call_dps_packed is relax.op.call_dps_packed
    assert relax.call_pure_packed is relax.op.call_pure_packed
    assert relax.Span is tvm.ir.Span
