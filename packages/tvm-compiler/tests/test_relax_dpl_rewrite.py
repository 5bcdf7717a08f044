# tvm.relax.dpl.rewrite_call: each call the pattern matches (operands first, looking through
# bindings) is replaced by what the rewriter builds from the match; values the rewriter reuses
# stay bound to their variables, dead bindings go, and the result runs as NumPy says.
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.relax.dpl import is_op, rewrite_call, wildcard
from tvm.script import ir as I
from tvm.script import relax as R


@R.function
def before(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
    with R.dataflow():
        lv0 = R.add(x, x)
        lv1 = R.exp(lv0)
        lv2 = R.add(lv1, lv1)
        gv = R.multiply(lv2, x)
        R.output(gv)
    return gv


def _double_to_scale():
    w = wildcard()

    def rewriter(expr, matches):
        return R.multiply(matches[w], R.const(2, "float32"))

    return is_op("relax.add")(w, w), rewriter


def test_rewrite_doubles_to_scales():
    pattern, rewriter = _double_to_scale()
    after = rewrite_call(pattern, rewriter, globals()["before"])

    @R.function
    def before(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):  # the name too
        with R.dataflow():
            lv0 = R.multiply(x, R.const(2, "float32"))
            lv1 = R.exp(lv0)
            lv2 = R.multiply(lv1, R.const(2, "float32"))
            gv = R.multiply(lv2, x)
            R.output(gv)
        return gv

    tvm.ir.assert_structural_equal(after, before)


def test_rewritten_function_runs():
    pattern, rewriter = _double_to_scale()
    mod = tvm.IRModule({"before": rewrite_call(pattern, rewriter, before)})
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    data = np.random.default_rng(0).standard_normal((2, 3)).astype("float32")
    want = np.exp(data + data) * 2 * data
    np.testing.assert_allclose(vm["before"](data).numpy(), want, rtol=1e-5)


def test_match_through_bindings_and_dead_code_removed():
    # add(x, lv0) with lv0 bound to exp(x) matches add(a, exp(*)); the rewrite to x + 1 leaves
    # the exp binding unread, so it goes.
    @R.function
    def f(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            lv0 = R.exp(x)
            gv = R.add(x, lv0)
            R.output(gv)
        return gv

    a = wildcard()
    pat = is_op("relax.add")(a, is_op("relax.exp")(wildcard()))
    seen = []

    def rewriter(expr, matches):
        seen.append(matches[pat.args[1]])
        return R.add(matches[a], R.const(1, "float32"))

    after = rewrite_call(pat, rewriter, f)
    assert len(seen) == 1 and isinstance(seen[0], relax.Call) and seen[0].op.name == "relax.exp"
    bindings = after.body.blocks[0].bindings
    assert [b.var.name_hint for b in bindings] == ["gv"]
    assert bindings[0].value.op.name == "relax.add"


def test_no_match_or_identity_rewriter_keeps_the_function():
    pat = is_op("relax.subtract")(wildcard(), wildcard())
    assert rewrite_call(pat, lambda e, m: R.exp(e), before) is before
    pattern, _ = _double_to_scale()
    assert rewrite_call(pattern, lambda e, m: e, before) is before


def test_bad_input():
    pattern, rewriter = _double_to_scale()
    with pytest.raises(TypeError, match="rewrite_call: pattern must be a DFPattern"):
        rewrite_call("add", rewriter, before)
    with pytest.raises(TypeError, match="rewrite_call: rewriter must be a callable"):
        rewrite_call(pattern, 3, before)
    with pytest.raises(TypeError, match="rewrite_call: func must be a relax.Function"):
        rewrite_call(pattern, rewriter, I.ir_module)
    with pytest.raises(TypeError, match="rewrite_call: the rewriter must return a relax Expr"):
        rewrite_call(pattern, lambda e, m: 3, before)


def test_a_replacement_naming_a_variable_the_function_lacks_is_refused():
    # A fresh Var in the result made an ill-formed function that only a later pass noticed.
    from tvm.relax.dpl import PatternContext, rewrite_bindings

    ghost = relax.Var("ghost", relax.TensorStructInfo((2, 3), "float32"))
    with pytest.raises(ValueError, match=r"rewrite_call: the rewriter's result uses .*'ghost'"):
        rewrite_call(is_op("relax.exp")(wildcard()), lambda expr, m: ghost, before)
    with PatternContext() as ctx:
        exp = is_op("relax.exp")(wildcard())
    with pytest.raises(ValueError, match=r"rewrite_bindings: the rewriter's result uses"):
        rewrite_bindings(ctx, lambda m, b: {m[exp]: R.add(ghost, ghost)}, before)
