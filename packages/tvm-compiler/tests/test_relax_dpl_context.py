# tvm.relax.dpl.PatternContext / rewrite_bindings: a graph of patterns (call patterns made in
# the context use their arguments; ^ and >> add use constraints) matched against a dataflow
# block as a whole; rewrite_bindings replaces the matched bindings' values (two matmuls sharing
# an input become one matmul of the concatenated weights, as upstream's example) and runs.
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.relax.dpl import PatternContext, is_op, rewrite_bindings, wildcard
from tvm.script import relax as R


@R.function
def two_matmuls(
    x: R.Tensor((2, 4), "float32"),
    w0: R.Tensor((4, 3), "float32"),
    w1: R.Tensor((4, 3), "float32"),
) -> R.Tensor((2, 3), "float32"):
    with R.dataflow():
        lv0 = R.matmul(x, w0)
        lv1 = R.matmul(x, w1)
        lv2 = R.add(lv0, lv1)
        gv = R.multiply(lv2, lv2)
        R.output(gv)
    return gv


def _graph():
    with PatternContext() as ctx:
        inp, a, b = wildcard(), wildcard(), wildcard()
        m1 = is_op("relax.matmul")(inp, a)
        m2 = is_op("relax.matmul")(inp, b)
    return ctx, inp, a, b, m1, m2


def test_match_dfb_assigns_variables():
    ctx, inp, a, b, m1, m2 = _graph()
    block = two_matmuls.body.blocks[0]
    found = ctx.match_dfb(block)
    assert [found[p].name_hint for p in (inp, a, b, m1, m2)] == ["x", "w0", "w1", "lv0", "lv1"]
    with PatternContext() as other:
        inp2 = wildcard()
        is_op("relax.matmul")(inp2, wildcard())
        is_op("relax.matmul")(inp2, wildcard())
        is_op("relax.matmul")(inp2, wildcard())  # a third one: the block has two
    assert other.match_dfb(block) is None


def test_use_constraints():
    block = two_matmuls.body.blocks[0]
    with PatternContext() as ctx:
        m = is_op("relax.matmul")(wildcard(), wildcard())
        add = is_op("relax.add")(wildcard(), wildcard())
        m.only_used_by(add)
    assert ctx.match_dfb(block)[add].name_hint == "lv2"
    with PatternContext() as ctx:
        add = is_op("relax.add")(wildcard(), wildcard())
        mul = is_op("relax.multiply")(wildcard(), wildcard())
        add ^ mul
    assert ctx.match_dfb(block)[mul].name_hint == "gv"
    with PatternContext() as ctx:
        mul = is_op("relax.multiply")(wildcard(), wildcard())
        add = is_op("relax.add")(wildcard(), wildcard())
        mul >> add  # gv is used by nothing
    assert ctx.match_dfb(block) is None
    with pytest.raises(ValueError, match="needs an active PatternContext"):
        wildcard() ^ wildcard()


def _combine(inp, a, b, m1, m2):
    def rewriter(matchings, bindings):
        assert set(v.name_hint for v in bindings) == {"lv0", "lv1", "lv2", "gv"}
        mm = R.matmul(matchings[inp], R.concat([matchings[a], matchings[b]], axis=1))
        q = R.strided_slice(mm, axes=[1], begin=[0], end=[3])
        k = R.strided_slice(mm, axes=[1], begin=[3], end=[6])
        return {matchings[m1]: q, matchings[m2]: k}

    return rewriter


def test_rewrite_bindings_combines_the_matmuls():
    ctx, inp, a, b, m1, m2 = _graph()
    out = rewrite_bindings(ctx, _combine(inp, a, b, m1, m2), globals()["two_matmuls"])

    @R.function
    def two_matmuls(  # the expected function, under the same name
        x: R.Tensor((2, 4), "float32"),
        w0: R.Tensor((4, 3), "float32"),
        w1: R.Tensor((4, 3), "float32"),
    ) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            lv = R.concat((w0, w1), axis=1)
            lv1 = R.matmul(x, lv)
            lv0 = R.strided_slice(lv1, axes=[1], begin=[0], end=[3])
            lv1_1 = R.strided_slice(lv1, axes=[1], begin=[3], end=[6])
            lv2 = R.add(lv0, lv1_1)
            gv = R.multiply(lv2, lv2)
            R.output(gv)
        return gv

    tvm.ir.assert_structural_equal(out, two_matmuls)
    mod = tvm.IRModule({"two_matmuls": out})
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    rng = np.random.default_rng(5)
    x, w0, w1 = (rng.standard_normal(s).astype("float32") for s in [(2, 4), (4, 3), (4, 3)])
    lv2 = x @ w0 + x @ w1
    np.testing.assert_allclose(vm["two_matmuls"](x, w0, w1).numpy(), lv2 * lv2, rtol=1e-5)


def test_rewrite_bindings_without_match_keeps_the_function():
    with PatternContext() as ctx:
        is_op("relax.exp")(wildcard())
    assert rewrite_bindings(ctx, lambda m, b: {}, two_matmuls) is two_matmuls


def test_bad_input():
    ctx, *_ = _graph()
    with pytest.raises(TypeError, match="rewrite_bindings: ctx must be a PatternContext"):
        rewrite_bindings(None, lambda m, b: {}, two_matmuls)
    with pytest.raises(TypeError, match="rewrite_bindings: rewriter must be a callable"):
        rewrite_bindings(ctx, 1, two_matmuls)
    with pytest.raises(TypeError, match="rewrite_bindings: func must be a relax.Function"):
        rewrite_bindings(ctx, lambda m, b: {}, two_matmuls.body)
    with pytest.raises(TypeError, match="the rewriter must return a dict of bound Var to Expr"):
        rewrite_bindings(ctx, lambda m, b: [1], two_matmuls)
    with pytest.raises(TypeError, match="PatternContext.match_dfb: dfb must be"):
        ctx.match_dfb(two_matmuls)


def test_exiting_a_context_that_is_not_innermost_is_refused():
    # It popped whichever context was innermost (an IndexError when none was active).
    with pytest.raises(RuntimeError, match="not the innermost active one"):
        PatternContext().__exit__(None, None, None)
    outer, inner = PatternContext(), PatternContext()
    with outer:
        inner.__enter__()
        with pytest.raises(RuntimeError, match="not the innermost active one"):
            outer.__exit__(None, None, None)
        assert PatternContext.current() is inner
        inner.__exit__(None, None, None)
        assert PatternContext.current() is outer
    assert PatternContext.current() is None
