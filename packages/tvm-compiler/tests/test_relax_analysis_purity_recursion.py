# relax.analysis.contains_impure_call and detect_recursion, against what apache-tvm 0.27
# answers for the same functions and modules.
import pytest
import tvm
from tvm import relax
from tvm.relax.analysis import contains_impure_call, detect_recursion

T2 = relax.TensorStructInfo((2,), "float32")


def _printing(name="f"):
    x = relax.Var("x", T2)
    bb = relax.BlockBuilder()
    with bb.function(name, [x], pure=False):
        bb.emit(relax.op.print(x, format="hi"))
        bb.emit_func_output(x)
    return bb.get()[name]


def test_impure_op_call():
    assert contains_impure_call(_printing()) is True
    assert contains_impure_call(_printing().body) is True
    x = relax.Var("x", T2)
    pure = relax.Function([x], relax.SeqExpr([], x), T2)
    assert contains_impure_call(pure) is False


def test_nested_function_is_only_defined_not_called():
    x = relax.Var("x", T2)
    bb = relax.BlockBuilder()
    with bb.function("outer", [x]):
        bb.emit(_printing("inner"))
        bb.emit_func_output(x)
    assert contains_impure_call(bb.get()["outer"]) is False


def test_call_of_impure_global_and_own_name():
    gv = tvm.ir.GlobalVar("loop")
    x = relax.Var("x", T2)
    r = relax.Var("r", T2)
    callee_sinfo = relax.FuncStructInfo([T2], T2, purity=False)
    gv._fill_late_field("struct_info_", callee_sinfo)
    body = relax.SeqExpr([relax.BindingBlock([relax.VarBinding(r, relax.Call(gv, [x]))])], r)
    func = relax.Function([x], body, T2, is_pure=False)
    assert contains_impure_call(func) is True
    assert contains_impure_call(func, own_name=gv) is False  # a recursive call of itself


def test_contains_impure_call_bad_input():
    with pytest.raises(TypeError, match="contains_impure_call: expr must be a relax Expr"):
        contains_impure_call("f")
    with pytest.raises(
        TypeError, match="contains_impure_call: own_name must be a Var or GlobalVar"
    ):
        contains_impure_call(_printing(), own_name="f")


def _module(edges):
    gvs = {name: tvm.ir.GlobalVar(name) for name in {a for a, _ in edges} | {b for _, b in edges}}
    funcs = {}
    for src, dsts in {a: [b for a2, b in edges if a2 == a] for a, _ in edges}.items():
        z = relax.Var("z", T2)
        bindings, last = [], z
        for dst in dsts:
            r = relax.Var("r", T2)
            bindings.append(relax.VarBinding(r, relax.Call(gvs[dst], [z])))
            last = r
        body = relax.SeqExpr([relax.BindingBlock(bindings)], last)
        funcs[gvs[src]] = relax.Function([z], body, T2)
    return tvm.IRModule(funcs)


def _groups(mod):
    return {frozenset(gv.name_hint for gv in group) for group in detect_recursion(mod)}


def test_detect_recursion():
    # a <-> b mutually recursive, c calls itself, d only calls into the cycle
    mod = _module([("a", "b"), ("b", "a"), ("c", "c"), ("d", "a")])
    assert _groups(mod) == {frozenset({"a", "b"}), frozenset({"c"})}
    assert all(isinstance(g, list) for g in detect_recursion(mod))
    # a three-function cycle with a tail
    mod = _module([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e")])
    assert _groups(mod) == {frozenset({"a", "b", "c"})}
    assert detect_recursion(_module([("a", "b"), ("b", "c")])) == []


def test_detect_recursion_bad_input():
    with pytest.raises(TypeError, match="detect_recursion: mod must be an IRModule, got Function"):
        detect_recursion(_printing())
