# tvm.relax.frontend.nn.op: each op's IR (name hints, struct info) and its values against NumPy.
import math

import numpy as np
import pytest
import tvm
from tvm import relax, te
from tvm.relax.frontend import nn
from tvm.relax.frontend.nn import op


def _compile_run(module, spec, *args):
    mod, params = module.export_tvm({"forward": spec})
    assert params == []
    ex = tvm.compile(relax.get_pipeline("zero")(mod), target="llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    out = vm["forward"](*[tvm.runtime.tensor(a) for a in args])
    return mod, [o.numpy() for o in out]


def _erf(x):
    return np.vectorize(math.erf)(x).astype(x.dtype)


def test_elementwise_shape_and_reduction_ops_match_numpy():
    class M(nn.Module):
        def forward(self, a, b, idx):
            outs = [
                op.add(a, b), op.subtract(a, b), op.multiply(a, b), op.divide(a, b),
                op.matmul(a, op.permute_dims(b)), op.reshape(a, [3, 2]),
                op.concat([a, b], dim=0), op.split(a, 3, axis=1)[1], op.split(a, [1], axis=1)[1],
                op.softmax(a, axis=-1), op.relu(a), op.silu(a), op.gelu(a),
                op.gelu(a, approximate="tanh"), op.sigmoid(a), op.tanh(a), op.exp(a),
                op.sqrt(b), op.square(a), op.negative(a), op.astype(a, "float16"),
                op.zeros([2, 2]), op.ones([2], "int32"), op.full([2], 2.5),
                op.take(a, idx, axis=1), op.broadcast_to(b, [2, 2, 3]),
                op.where(op.greater(a, b), a, b), op.maximum(a, b), op.minimum(a, b),
                op.sum(a, axis=1), op.mean(a, axis=[0, 1]), op.max(a, axis=0, keepdims=True),
                op.min(a), op.argmax(a, axis=1), op.pad(a, [0, 0, 1, 2], value=9.0),
                op.unsqueeze(a, 0), op.squeeze(op.unsqueeze(a, 1), 1), op.chunk(a, 3, dim=1)[2],
                op.cumsum(a, axis=1), op.triu(op.matmul(op.permute_dims(a), a)),
                op.arange(0, 5, 2, dtype="int32"), op.less(a, b), op.equal(a, a),
            ]  # fmt: skip
            return tuple(outs)

    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 3)).astype("float32")
    b = rng.random((2, 3)).astype("float32") + 0.5
    idx = np.array([2, 0], "int32")
    spec = {
        "a": nn.spec.Tensor([2, 3], "float32"),
        "b": nn.spec.Tensor([2, 3], "float32"),
        "idx": nn.spec.Tensor([2], "int32"),
    }
    mod, got = _compile_run(M(), spec, a, b, idx)
    tanh_gelu = 0.5 * a * (1 + np.tanh(np.sqrt(2 / np.pi) * (a + 0.044715 * a**3)))
    expected = [
        a + b, a - b, a * b, a / b, a @ b.T, a.reshape(3, 2), np.concatenate([a, b]),
        a[:, 1:2], a[:, 1:], np.exp(a) / np.exp(a).sum(-1, keepdims=True), np.maximum(a, 0),
        a / (1 + np.exp(-a)), 0.5 * a * (1 + _erf(a / np.sqrt(2))), tanh_gelu,
        1 / (1 + np.exp(-a)), np.tanh(a), np.exp(a), np.sqrt(b), a * a, -a,
        a.astype("float16"), np.zeros((2, 2)), np.ones(2, "int32"), np.full(2, 2.5),
        a[:, idx], np.broadcast_to(b, (2, 2, 3)), np.where(a > b, a, b), np.maximum(a, b),
        np.minimum(a, b), a.sum(1), a.mean(), a.max(0, keepdims=True), a.min(), a.argmax(1),
        np.pad(a, [(0, 0), (1, 2)], constant_values=9.0), a[None], a, a[:, 2:3],
        np.cumsum(a, axis=1), np.triu(a.T @ a), np.arange(0, 5, 2), a < b, a == a,
    ]  # fmt: skip
    assert len(got) == len(expected)
    for i, (g, e) in enumerate(zip(got, expected)):
        assert g.shape == np.shape(e), f"output {i}: shape {g.shape} != {np.shape(e)}"
        if g.dtype == np.bool_ or np.issubdtype(g.dtype, np.integer):
            np.testing.assert_array_equal(g, e, err_msg=f"output {i}")
        else:
            np.testing.assert_allclose(g, e, rtol=2e-3, atol=2e-3, err_msg=f"output {i}")
    # name hints follow upstream's defaults
    names = [b.var.name_hint for b in mod["forward"].body.blocks[0].bindings]
    for hint in ("add", "subtract", "mul", "divide", "matmul", "permute_dims", "neg", "astype",
                 "split", "split.1", "softmax", "gelu", "full", "take", "where", "argmax", "pad",
                 "chunk.2", "arange"):  # fmt: skip
        assert hint in names, hint


def test_astype_same_dtype_is_the_input():
    class M(nn.Module):
        def forward(self, x):
            y = op.astype(x, "float32")
            assert y is x
            return y

    mod, _ = M().export_tvm({"forward": {"x": nn.spec.Tensor([2], "float32")}})
    assert len(mod["forward"].body.blocks[0].bindings) == 1


def test_norms_conv_interpolate_match_numpy():
    class M(nn.Module):
        def forward(self, x, w, g, img, k):
            ln = op.layer_norm(x, 4, g, None, eps=1e-5)
            rms = op.rms_norm(x, g, axes=-1)
            gn = op.group_norm(op.reshape(x, [1, 4, 3]), 2, g, g, eps=1e-5)
            c1 = op.conv1d(op.reshape(x, [1, 4, 3]), w, None, padding=1)
            c2 = op.conv2d(img, k, stride=2)
            up = op.interpolate(img, scale_factor=2.0)
            up2 = op.interpolate(img, size=(3, 3), mode="bilinear", align_corners=True)
            return ln, rms, gn, c1, c2, up, up2

    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 4)).astype("float32")
    w = rng.standard_normal((2, 4, 3)).astype("float32")
    g = rng.random(4).astype("float32") + 0.5
    img = rng.standard_normal((1, 1, 4, 4)).astype("float32")
    k = rng.standard_normal((2, 1, 2, 2)).astype("float32")
    spec = {
        "x": nn.spec.Tensor([3, 4], "float32"),
        "w": nn.spec.Tensor([2, 4, 3], "float32"),
        "g": nn.spec.Tensor([4], "float32"),
        "img": nn.spec.Tensor([1, 1, 4, 4], "float32"),
        "k": nn.spec.Tensor([2, 1, 2, 2], "float32"),
    }
    _, (ln, rms, gn, c1, c2, up, up2) = _compile_run(M(), spec, x, w, g, img, k)
    mu, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    np.testing.assert_allclose(ln, (x - mu) / np.sqrt(var + 1e-5) * g, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(
        rms, x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-5) * g, rtol=1e-4, atol=1e-4
    )
    xg = x.reshape(1, 2, 6)
    norm = ((xg - xg.mean(-1, keepdims=True)) / np.sqrt(xg.var(-1, keepdims=True) + 1e-5)).reshape(
        1, 4, 3
    )
    np.testing.assert_allclose(gn, norm * g[:, None] + g[:, None], rtol=1e-4, atol=1e-4)
    xp = np.pad(x.reshape(1, 4, 3), [(0, 0), (0, 0), (1, 1)])
    ref1 = np.stack(
        [np.einsum("ck,ck->", xp[0, :, t : t + 3], w[o]) for o in range(2) for t in range(3)]
    )
    np.testing.assert_allclose(c1, ref1.reshape(1, 2, 3), rtol=1e-4, atol=1e-4)
    ref2 = np.array(
        [[[(img[0, 0, 2 * i : 2 * i + 2, 2 * j : 2 * j + 2] * k[o, 0]).sum() for j in range(2)]
          for i in range(2)] for o in range(2)]
    )  # fmt: skip
    np.testing.assert_allclose(c2[0], ref2, rtol=1e-4, atol=1e-4)
    # nearest, asymmetric, rounding halves to even (upstream's te.round): rows 0 0 1 2 2 2 3 3
    pick = np.minimum(np.round(np.arange(8) / 2.0).astype(int), 3)
    np.testing.assert_allclose(up, img[:, :, pick][:, :, :, pick])
    assert up2.shape == (1, 1, 3, 3)
    np.testing.assert_allclose(up2[0, 0, ::2, ::2], img[0, 0, ::3, ::3], rtol=1e-5)


def test_tensor_expr_op_emits_call_tir():
    class M(nn.Module):
        def forward(self, x):
            return op.tensor_expr_op(
                lambda t: te.compute(t.shape, lambda i: t[i] * 3.0, name="triple"), "triple", [x]
            )

    mod, params = M().export_tvm({"forward": {"x": nn.spec.Tensor([4], "float32")}})
    text = mod.script()
    assert "R.call_tir(cls.triple" in text and "def triple(" in text
    ex = tvm.compile(relax.get_pipeline("zero")(mod), target="llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    out = vm["forward"](tvm.runtime.tensor(np.arange(4, dtype="float32"))).numpy()
    np.testing.assert_allclose(out, np.arange(4) * 3.0)


def test_bad_arguments_are_clear_errors():
    class M(nn.Module):
        def __init__(self, fn):
            self.fn = fn

        def forward(self, x):
            return self.fn(x)

    spec = {"forward": {"x": nn.spec.Tensor([2, 3], "float32")}}
    cases = [
        (lambda x: op.pad(x, [1, 1]), ValueError, r"nn.op.pad: argument 'pad' must hold 2 \* ndim"),
        (lambda x: op.gelu(x, approximate="fast"), ValueError, "nn.op.gelu: approximate"),
        (lambda x: op.concat(x, dim=0), TypeError, "nn.op.concat: x must be a non-empty list"),
        (lambda x: op.matmul(x, 2.0), TypeError, "nn.op.matmul: argument 'b' must be an nn.Tensor"),
        (lambda x: op.interpolate(x), ValueError, "exactly one of size and scale_factor"),
        # int() read these: "invalid literal for int()" (ValueError), "'NoneType' object is not
        # iterable", 0 groups a ZeroDivisionError
        (lambda x: op.zeros("ab"), TypeError, "zeros: shape must be a tuple/list .* got str 'ab'"),
        (lambda x: op.reshape(x, None), TypeError, "reshape: shape must be a tuple/list of dims"),
        (lambda x: op.reshape(x, ["a"]), TypeError, "reshape: shape entries must be ints or Pr"),
        (lambda x: op.triu(x, diagonal="a"), TypeError, "triu: argument .k. must be an int"),
        (lambda x: op.group_norm(op.reshape(x, [1, 3, 2]), 0, None, None), ValueError,
         "num_groups must be a positive int, got 0"),
    ]  # fmt: skip
    for fn, exc, msg in cases:
        with pytest.raises(exc, match=msg):
            M(fn).export_tvm(spec)
