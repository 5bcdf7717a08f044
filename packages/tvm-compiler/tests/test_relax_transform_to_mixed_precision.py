"""ToMixedPrecision: compiled models keep float32 accuracy within float16's, gemm/conv get
float16 operands, signatures keep their dtypes, and bad arguments are refused by name."""

import numpy as np
import pytest
from relax_programs import run
from tvm import relax
from tvm.relax.transform import (
    BindParams,
    FoldConstant,
    LegalizeOps,
    ToMixedPrecision,
    ToNonDataflow,
)
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class MLP:
    @R.function
    def main(
        x: R.Tensor((4, 32), "float32"),
        w1: R.Tensor((32, 64), "float32"),
        b1: R.Tensor((64,), "float32"),
        w2: R.Tensor((64, 8), "float32"),
    ) -> R.Tensor((4, 8), "float32"):
        with R.dataflow():
            h = R.matmul(x, w1)
            h1 = R.add(h, b1)
            h2 = R.nn.relu(h1)
            y = R.matmul(h2, w2)
            R.output(y)
        return y


@I.ir_module
class ConvNet:
    @R.function
    def main(
        x: R.Tensor((2, 3, 10, 10), "float32"),
        w: R.Tensor((8, 3, 3, 3), "float32"),
        w2: R.Tensor((4, 8, 1, 1), "float32"),
    ) -> R.Tensor((2, 4, 8, 8), "float32"):
        with R.dataflow():
            c = R.nn.conv2d(x, w)
            r = R.nn.relu(c)
            s = R.nn.softmax(r, axis=1)
            y = R.nn.conv2d(s, w2)
            R.output(y)
        return y


def _rng_inputs(shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1, 1, s).astype("float32") for s in shapes]


def _calls(func, op_name):
    return [
        b.value
        for block in func.body.blocks
        for b in block.bindings
        if isinstance(b.value, relax.Call) and getattr(b.value.op, "name", "") == op_name
    ]


def _softmax(v, axis):
    e = np.exp(v - v.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def _conv(x, w):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    out = np.zeros((n, o, h - kh + 1, wd - kw + 1), "float64")
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i : i + out.shape[2], j : j + out.shape[3]]
            out += np.einsum("nchw,oc->nohw", patch, w[:, :, i, j])
    return out


@pytest.mark.parametrize("out_dtype", ["float32", "float16"])
def test_mlp_matches_float32_numpy_within_fp16_tolerance(out_dtype):
    mod = ToMixedPrecision(out_dtype=out_dtype)(MLP)
    main = mod["main"]
    # the signature keeps float32; both matmuls read float16 operands
    assert [str(p.struct_info.dtype) for p in main.params] == ["float32"] * 4
    assert str(main.ret_struct_info.dtype) == "float32"
    matmuls = _calls(main, "relax.matmul")
    assert len(matmuls) == 2
    for call in matmuls:
        assert [str(a.struct_info.dtype) for a in call.args] == ["float16", "float16"]
        assert str(call.struct_info.dtype) == out_dtype
    x, w1, b1, w2 = _rng_inputs([(4, 32), (32, 64), (64,), (64, 8)])
    got = run(relax.build(mod, "llvm"), x, w1, b1, w2).numpy()
    assert got.dtype == np.float32
    want = np.maximum(x.astype("float64") @ w1 + b1, 0) @ w2
    np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2)
    # and it is not the float32 program: rounding to float16 shows
    exact = run(relax.build(MLP, "llvm"), x, w1, b1, w2).numpy()
    assert np.abs(got - exact).max() > 0


def test_conv_softmax_conv_keeps_softmax_in_float32():
    mod = ToMixedPrecision()(ConvNet)
    main = mod["main"]
    (softmax,) = _calls(main, "relax.nn.softmax")
    assert str(softmax.args[0].struct_info.dtype) == "float32"  # kNever
    for conv in _calls(main, "relax.nn.conv2d"):
        assert str(conv.args[0].struct_info.dtype) == "float16"
        assert conv.attrs.out_dtype == "float32"
    (relu,) = _calls(main, "relax.nn.relu")
    assert str(relu.struct_info.dtype) == "float16"  # follows its float16 input
    x, w, w2 = _rng_inputs([(2, 3, 10, 10), (8, 3, 3, 3), (4, 8, 1, 1)], seed=1)
    got = run(relax.build(mod, "llvm"), x, w, w2).numpy()
    h = _softmax(np.maximum(_conv(x.astype("float64"), w), 0), 1)
    np.testing.assert_allclose(got, _conv(h, w2), rtol=2e-2, atol=2e-2)


def test_bound_weights_become_float16_constants_at_compile_time():
    x, w1, b1, w2 = _rng_inputs([(4, 32), (32, 64), (64,), (64, 8)], seed=2)
    params = {"w1": w1, "b1": b1, "w2": w2}
    bound = BindParams("main", {k: relax.const(v) for k, v in params.items()})(MLP)
    mod = FoldConstant()(ToMixedPrecision(out_dtype="float16")(bound))
    for call in _calls(mod["main"], "relax.matmul"):
        weight = call.args[1]
        assert isinstance(weight, relax.Constant) and weight.data.numpy().dtype == np.float16
    assert not any(
        isinstance(c.args[0], relax.Constant) for c in _calls(mod["main"], "relax.astype")
    )
    got = run(relax.build(mod, "llvm"), x).numpy()
    want = np.maximum(x.astype("float64") @ w1 + b1, 0) @ w2
    np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2)


def test_fp16_input_names_change_the_signature():
    mod = ToMixedPrecision(out_dtype="float16", fp16_input_names=["w1", "w2"])(MLP)
    dtypes = {p.name_hint: str(p.struct_info.dtype) for p in mod["main"].params}
    assert dtypes == {"x": "float32", "w1": "float16", "b1": "float32", "w2": "float16"}
    x, w1, b1, w2 = _rng_inputs([(4, 32), (32, 64), (64,), (64, 8)], seed=3)
    got = run(relax.build(mod, "llvm"), x, w1.astype("float16"), b1, w2.astype("float16"))
    want = np.maximum(x.astype("float64") @ w1 + b1, 0) @ w2
    np.testing.assert_allclose(got.numpy(), want, rtol=2e-2, atol=2e-2)


def test_nothing_to_convert_returns_the_module_itself():
    @I.ir_module
    class Ints:
        @R.function
        def main(x: R.Tensor((4,), "int32")) -> R.Tensor((4,), "int32"):
            with R.dataflow():
                y = R.add(x, x)
                R.output(y)
            return y

    assert ToMixedPrecision()(Ints) is Ints
    # outside dataflow blocks nothing is rewritten (upstream's scope), nor are call_tir kernels
    plain = ToNonDataflow()(MLP)
    assert ToMixedPrecision()(plain) is plain
    legal = LegalizeOps()(MLP)
    assert ToMixedPrecision()(legal) is legal


def test_bad_arguments_name_the_pass_and_argument():
    who = r"relax\.transform\.ToMixedPrecision: argument"
    with pytest.raises(ValueError, match=who + r" 'out_dtype'.*'int8'"):
        ToMixedPrecision(out_dtype="int8")
    with pytest.raises(TypeError, match=who + r" 'out_dtype'.*int"):
        ToMixedPrecision(out_dtype=32)
    with pytest.raises(TypeError, match=who + r" 'fp16_input_names'.*str"):
        ToMixedPrecision(fp16_input_names="w1")
    with pytest.raises(TypeError, match=who + r" 'fp16_input_names' must hold str"):
        ToMixedPrecision(fp16_input_names=["w1", 2])


def test_tuple_output_is_computed_once_and_returned_in_float32():
    @I.ir_module
    class Split:
        @R.function
        def main(x: R.Tensor((1, 3, 8, 8), "float32"), w: R.Tensor((4, 3, 3, 3), "float32")):
            with R.dataflow():
                c = R.nn.conv2d(x, w)
                s = R.split(c, 2, axis=1)
                R.output(s)
            return s

    mod = ToMixedPrecision()(Split)
    (split,) = _calls(mod["main"], "relax.split")
    assert str(split.struct_info.fields[0].dtype) == "float16"  # follows the stored conv
    x, w = _rng_inputs([(1, 3, 8, 8), (4, 3, 3, 3)], seed=4)
    out = run(relax.build(mod, "llvm"), x, w)
    want = _conv(x.astype("float64"), w)
    for i, part in enumerate(out):
        assert part.numpy().dtype == np.float32
        np.testing.assert_allclose(part.numpy(), want[:, 2 * i : 2 * i + 2], rtol=2e-2, atol=2e-2)


def test_integer_matmul_is_left_alone():
    @I.ir_module
    class IntMM:
        @R.function
        def main(x: R.Tensor((2, 3), "int32"), w: R.Tensor((3, 4), "int32")):
            with R.dataflow():
                y = R.matmul(x, w)
                R.output(y)
            return y

    assert ToMixedPrecision()(IntMM) is IntMM


def test_attention_runs_on_float16_operands_and_keeps_its_attributes():
    @I.ir_module
    class Attn:
        @R.function
        def main(
            q: R.Tensor((1, 4, 2, 8), "float32"),
            k: R.Tensor((1, 4, 2, 8), "float32"),
            v: R.Tensor((1, 4, 2, 8), "float32"),
        ):
            with R.dataflow():
                y = R.nn.attention(q, k, v, scale=0.5, causal_mask="TopLeft")
                R.output(y)
            return y

    mod = ToMixedPrecision()(Attn)
    (attn,) = _calls(mod["main"], "relax.nn.attention")
    assert [str(a.struct_info.dtype) for a in attn.args] == ["float16"] * 3
    assert attn.attrs.scale == 0.5 and attn.attrs.causal_mask == "TopLeft"
    q, k, v = _rng_inputs([(1, 4, 2, 8)] * 3, seed=5)
    got = run(relax.build(mod, "llvm"), q, k, v).numpy()
    scores = np.einsum("bqhd,bkhd->bhqk", q.astype("float64"), k) * 0.5
    scores = np.where(np.tril(np.ones((4, 4), bool)), scores, -np.inf)
    want = np.einsum("bhqk,bkhd->bqhd", _softmax(scores, -1), v)
    np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2)
