# Tests of tvm.ir: immutability, structural equality/hash, spans, dtypes, the op registry, IRModule.
import pytest
import tvm.ir
from tvm import tir
from tvm.ir import (
    DataType,
    GlobalVar,
    IRModule,
    Op,
    SourceName,
    Span,
    assert_structural_equal,
    structural_equal,
    structural_hash,
)


def test_nodes_are_immutable():
    x = tir.Var("x")
    with pytest.raises(AttributeError, match="immutable"):
        x.name = "y"
    e = x + 1
    assert e.with_fields(a=e.a) is e
    changed = e.with_fields(b=tir.const(2))
    assert changed is not e and changed.b.value == 2 and e.b.value == 1


def test_structural_equal_maps_bound_vars(add_one_func):
    def build():
        a = tir.decl_buffer((8,), "float32", name="A")
        b = tir.decl_buffer((8,), "float32", name="B")
        pa, pb = tir.Var("p", "handle"), tir.Var("q", "handle")
        k = tir.Var("k")
        body = tir.For(k, 0, 8, tir.ForKind.SERIAL, tir.BufferStore(b, a[k] + 1.0, [k]))
        return tir.PrimFunc([pa, pb], body, buffer_map={pa: a, pb: b})

    other = build()
    assert structural_equal(add_one_func, other)
    assert structural_hash(add_one_func) == structural_hash(other)
    assert_structural_equal(add_one_func, other)


def test_structural_equal_reports_difference(add_one_func):
    a = tir.decl_buffer((8,), "float32", name="A")
    b = tir.decl_buffer((8,), "float32", name="B")
    pa, pb = tir.Var("a", "handle"), tir.Var("b", "handle")
    i = tir.Var("i")
    body = tir.For(i, 0, 8, tir.ForKind.SERIAL, tir.BufferStore(b, a[i] + 2.0, [i]))
    other = tir.PrimFunc([pa, pb], body, buffer_map={pa: a, pb: b})
    assert not structural_equal(add_one_func, other)
    assert structural_hash(add_one_func) != structural_hash(other)
    with pytest.raises(ValueError, match="value"):
        assert_structural_equal(add_one_func, other)


def test_free_vars_compare_by_identity_unless_mapped():
    x, y = tir.Var("x"), tir.Var("y")
    assert not structural_equal(x + 1, y + 1)
    assert structural_equal(x + 1, y + 1, map_free_vars=True)
    assert structural_equal(x + 1, x + 1)
    assert not structural_equal(x + y, x + x, map_free_vars=True)


def test_span_and_source_name():
    name = SourceName("model.py")
    assert SourceName("model.py") is name
    span = Span(name, 3, 4, 3, 9)
    assert repr(span) == "model.py:3:4"
    with pytest.raises(ValueError, match="before start"):
        Span("f.py", 5, 1, 4, 1)
    x = tir.Var("x", span=span)
    assert structural_equal(x + 1, x.with_fields(span=None) + 1) is False  # different var objects
    assert structural_equal(tir.Add(x, 1, span=span), tir.Add(x, 1))


def test_dtypes():
    t = DataType("float32x4")
    assert (t.type_code, t.bits, t.lanes, t.bytes) == ("float", 32, 4, 16)
    assert DataType("bool").bits == 1 and DataType("int8").is_int
    with pytest.raises(ValueError, match="DataType"):
        DataType("float13")
    with pytest.raises(ValueError, match="bit width"):
        DataType("int")


def test_op_registry_and_attrs():
    op = tvm.ir.register_op("test.my_op")
    assert Op.get("test.my_op") is op
    op.set_attr("TMyAttr", 3)
    assert op.get_attr("TMyAttr") == 3
    with pytest.raises(ValueError, match="already set"):
        op.set_attr("TMyAttr", 4)
    op.set_attr("TMyAttr", 5, level=11)
    assert op.get_attr("TMyAttr") == 5
    assert Op.get("tir.exp").get_attr("TCallEffectKind") == tir.CallEffectKind.PURE
    with pytest.raises(ValueError, match="no operator named 'nope'"):
        Op.get("nope")
    assert "tir.call_extern" in tvm.ir.list_op_names()


def test_irmodule_lookup_and_copy_on_write(add_one_func):
    mod = IRModule({"main": add_one_func}, attrs={"note": "x"})
    assert mod["main"] is add_one_func
    gv = mod.get_global_var("main")
    assert isinstance(gv, GlobalVar) and mod[gv] is add_one_func
    assert "main" in mod and len(mod) == 1
    assert mod.with_function("main", add_one_func) is mod
    other = add_one_func.with_attr("global_symbol", "f")
    mod2 = mod.with_function("main", other)
    assert mod2["main"] is other and mod["main"] is add_one_func
    with pytest.raises(ValueError, match="no function named 'missing'"):
        mod["missing"]
    with pytest.raises(TypeError, match="function node"):
        IRModule({"main": 3})
    assert structural_equal(mod, IRModule({"main": add_one_func}, attrs={"note": "x"}))


def test_use_count_tracks_references():
    x = tir.Var("x")
    base = x.use_count()
    held = [x, x]
    # Counted outside assert statements: pytest's assert rewriting holds extra references.
    with_list = x.use_count()
    del held
    after = x.use_count()
    assert (base, with_list, after) == (1, 3, 1)


def test_script_prints_prim_func(add_one_func):
    text = IRModule({"main": add_one_func}).script()
    assert "@I.ir_module\nclass Module:\n    @T.prim_func(private=True)\n" in text
    assert 'def main(A: T.Buffer((8,), "float32")' in text
    assert "B[i] = A[i] + T.float32(1.0)" in text


def test_irmodule_is_reachable_as_tvm_irmodule(add_one_func):
    import tvm

    assert tvm.IRModule is IRModule
    assert tvm.IRModule({"main": add_one_func})["main"] is add_one_func


def test_expression_roots_live_in_tvm_ir():
    import tvm.ir
    from tvm import tir

    assert tvm.ir.PrimExpr is tir.PrimExpr and tvm.ir.Range is tir.Range
    x = tir.Var("x")
    assert isinstance(x, tvm.ir.PrimExpr) and isinstance(x, tvm.ir.BaseExpr)
    assert not isinstance(x, tvm.ir.RelaxExpr)
    gv = tvm.ir.GlobalVar("f")
    assert isinstance(gv, tvm.ir.RelaxExpr) and isinstance(gv, tvm.ir.BaseExpr)
    r = tvm.ir.Range(2, 10)
    assert r.min.value == 2 and r.extent.value == 8


def test_late_fields_are_filled_once_through_one_path():
    import tvm.ir

    gv = tvm.ir.GlobalVar("f")
    with pytest.raises(ValueError, match="struct_info: not known yet"):
        gv.struct_info  # noqa: B018
    info = object()
    gv._fill_late_field("struct_info_", info)
    gv._fill_late_field("struct_info_", info)  # the same value again is fine
    assert gv.struct_info is info
    with pytest.raises(ValueError, match="already set"):
        gv._fill_late_field("struct_info_", object())
    with pytest.raises(AttributeError, match="'name_hint' is not a late field"):
        gv._fill_late_field("name_hint", "g")
    with pytest.raises(AttributeError, match="immutable"):
        gv.struct_info_ = info


def test_first_structural_mismatch_names_the_path():
    from tvm.ir import get_first_structural_mismatch
    from tvm_ffi.access_path import AccessPath

    x, y = tir.Var("x"), tir.Var("y")
    f1 = tir.PrimFunc([x], tir.Evaluate(x + 1))
    f2 = tir.PrimFunc([y], tir.Evaluate(y + 1))
    f3 = tir.PrimFunc([y], tir.Evaluate(y + 2))
    assert get_first_structural_mismatch(f1, f2) is None
    # Upstream returns tvm_ffi AccessPaths, one per side.
    lhs, rhs = get_first_structural_mismatch(f1, f3)
    assert str(lhs) == str(rhs) == "<root>.body.value.b.value"
    assert lhs == AccessPath.root().attr("body").attr("value").attr("b").attr("value")


def test_variables_compare_by_their_declared_fields():
    from tvm.ir import structural_equal, structural_hash

    a, b = tir.Var("a", "int32"), tir.Var("b", "int64")
    assert tir.Var._var_compare_fields == ("dtype",)
    assert not structural_equal(a, b, map_free_vars=True)
    assert structural_equal(a, tir.Var("c", "int32"), map_free_vars=True)
    assert structural_hash(a, map_free_vars=True) != structural_hash(b, map_free_vars=True)
    assert structural_hash(a, map_free_vars=True) == structural_hash(
        tir.Var("c", "int32"), map_free_vars=True
    )
