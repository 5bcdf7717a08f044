# Relax expressions and struct info: constructors, the struct info leaf nodes carry, and errors.
import numpy as np
import pytest
import tvm
from tvm import relax, tir


def test_var_carries_its_struct_info_with_symbolic_dims():
    n = tir.Var("n", "int64")
    x = relax.Var("x", relax.TensorStructInfo([n, 4], "float32"))
    sinfo = x.struct_info
    assert sinfo.ndim == 2 and sinfo.dtype == "float32"
    assert sinfo.shape.values[0] is n and int(sinfo.shape.values[1]) == 4
    assert str(sinfo.shape.values[1].dtype) == "int64"
    assert isinstance(relax.DataflowVar("lv", sinfo), relax.Var)


def test_unnormalised_call_has_no_struct_info_yet():
    x = relax.Var("x", relax.TensorStructInfo([2], "float32"))
    call = relax.Call(relax.ExternFunc("f"), [x])
    with pytest.raises(ValueError, match="not known yet"):
        _ = call.struct_info


def test_leaf_nodes_know_their_struct_info():
    c = relax.const(np.arange(6, dtype="float32").reshape(2, 3))
    assert c.struct_info.dtype == "float32" and [int(v) for v in c.struct_info.shape] == [2, 3]
    # Python ints become int32 without a dtype, as in apache-tvm; beyond int32 they stay int64
    assert relax.const(1).struct_info.dtype == "int32"
    assert relax.const([1, -2]).struct_info.dtype == "int32"
    assert relax.const(2**40).struct_info.dtype == "int64"
    assert int(relax.const(2**40).data.numpy()) == 2**40
    assert relax.const(np.array([1, 2])).struct_info.dtype == "int64"  # an array keeps its own
    assert relax.const(True).struct_info.dtype == "bool"
    assert relax.const(1.5).struct_info.dtype == "float32"
    assert relax.PrimValue(3).struct_info.dtype == "int64"
    assert int(relax.PrimValue(3).struct_info.value) == 3
    shape = relax.ShapeExpr([2, tir.Var("m", "int64")])
    assert shape.struct_info.ndim == 2
    assert isinstance(relax.StringImm("s").struct_info, relax.ObjectStructInfo)
    assert relax.DataTypeImm("float16").value == "float16"
    tup = relax.Tuple([c, shape])
    assert isinstance(tup.struct_info, relax.TupleStructInfo)
    assert relax.TupleGetItem(tup, 1).struct_info is shape.struct_info
    assert isinstance(relax.ExternFunc("f").struct_info, relax.FuncStructInfo)


def test_tuple_get_item_out_of_range_names_both_counts():
    tup = relax.Tuple([relax.const(1.0), relax.const(2.0)])
    with pytest.raises(IndexError, match="index 2 is out of range for a tuple of 2 fields"):
        relax.TupleGetItem(tup, 2)


def test_struct_info_constructors():
    assert relax.TensorStructInfo(ndim=3, dtype="int8").shape is None
    assert relax.TensorStructInfo(dtype=None, ndim=-1).is_unknown_dtype
    assert relax.ShapeStructInfo(ndim=2).values is None
    assert relax.ShapeStructInfo([1, 2]).ndim == 2
    assert relax.PrimStructInfo("float32").value is None
    assert relax.PrimStructInfo(value=tir.Var("k", "int64")).dtype == "int64"
    f = relax.FuncStructInfo([relax.ObjectStructInfo()], relax.ShapeStructInfo(ndim=1))
    assert f.purity and not f.is_opaque()
    assert relax.FuncStructInfo.opaque_func().is_opaque()
    # The 0.26+ names are the same classes.
    assert relax.TensorType is relax.TensorStructInfo and relax.FuncType is relax.FuncStructInfo


def test_struct_info_errors_name_the_argument():
    with pytest.raises(ValueError, match="ndim 3 does not match the shape's ndim 2"):
        relax.TensorStructInfo([1, 2], ndim=3)
    with pytest.raises(TypeError, match="ShapeStructInfo: expected an int or a PrimExpr"):
        relax.ShapeStructInfo(["a"])
    with pytest.raises(TypeError, match="TupleStructInfo: field 0 must be a StructInfo"):
        relax.TupleStructInfo([1])
    with pytest.raises(TypeError, match="PrimStructInfo: give a dtype or a value"):
        relax.PrimStructInfo()
    with pytest.raises(TypeError, match="ShapeExpr: dimension 0 must be an integer"):
        relax.ShapeExpr([tir.Var("f", "float32")])


def test_function_struct_info_follows_params_and_purity():
    x = relax.Var("x", relax.TensorStructInfo([2], "float32"))
    f = relax.Function([x], relax.SeqExpr([], x), is_pure=False)
    assert f.struct_info.params[0] is x.struct_info and not f.struct_info.purity
    assert f.ret_struct_info is x.struct_info
    public = f.with_attr("global_symbol", "main")
    assert public.attrs["global_symbol"] == "main" and "global_symbol" not in f.attrs
    with pytest.raises(ValueError, match="param 'y' has no struct info"):
        relax.Function([relax.Var("y")], x)


def test_bindings_and_blocks_check_their_parts():
    x = relax.Var("x", relax.TensorStructInfo([2], "float32"))
    with pytest.raises(TypeError, match="VarBinding: var must be a relax Var"):
        relax.VarBinding(x.struct_info, x)
    with pytest.raises(TypeError, match="binding 0 must be a VarBinding or MatchCast"):
        relax.DataflowBlock([x])
    with pytest.raises(TypeError, match="MatchCast: struct_info must be a StructInfo"):
        relax.MatchCast(relax.Var("y"), x, [2])


def test_nodes_are_immutable_and_keyed_in_the_relax_namespace():
    x = relax.Var("x", relax.ObjectStructInfo())
    with pytest.raises(AttributeError, match="immutable"):
        x.name_hint = "y"
    assert x.name == "x" and relax.DataflowVar("d").name == "d"  # upstream's newer spelling
    assert relax.Var._type_key == "relax.Var"
    assert relax.StringImm._type_key == "relax.StringImm"
    assert relax.Function._type_key == "relax.Function"
    assert relax.TensorStructInfo._type_key == "relax.TensorStructInfo"
    assert isinstance(relax.Function([], x), tvm.ir.BaseFunc)
