# tvm.relax.frontend.nn layers (parameters, IR, values against NumPy) and Module.jit.
import importlib.util
import math

import numpy as np
import pytest
import tvm
from tvm.relax.frontend import nn


def _bind(module, seed=0):
    rng = np.random.default_rng(seed)
    for _, p in module.named_parameters():
        p.data = (rng.standard_normal(p.shape) * 0.5).astype(p.dtype)
    return {name: p.data.numpy() for name, p in module.named_parameters()}


def _jit(module, **spec):
    return module.jit({"forward": spec}, out_format="tvm")["forward"]


def test_layer_parameters_follow_upstream_shapes():
    layers = {
        "lin": nn.Linear(4, 3),
        "lin_nb": nn.Linear(4, 3, bias=False),
        "lin_sym": nn.Linear("n_in", 3),
        "c1": nn.Conv1D(4, 6, 3, groups=2),
        "c2": nn.Conv2D(4, 6, 3),
        "ct": nn.ConvTranspose1D(4, 2, 3),
        "ln": nn.LayerNorm(8),
        "ln_na": nn.LayerNorm(8, elementwise_affine=False),
        "rms": nn.RMSNorm(8, axes=-1, bias=False),
        "gn": nn.GroupNorm(2, 4),
        "emb": nn.Embedding(10, 8),
    }
    shapes = {name: [(n, p.shape) for n, p in m.named_parameters()] for name, m in layers.items()}
    assert shapes["lin"] == [("weight", [3, 4]), ("bias", [3])]
    assert shapes["lin_nb"] == [("weight", [3, 4])]
    assert str(shapes["lin_sym"][0][1][1]) == "n_in"
    assert shapes["c1"] == [("weight", [6, 2, 3]), ("bias", [6])]
    assert shapes["c2"] == [("weight", [6, 4, 3, 3]), ("bias", [6])]
    assert shapes["ct"] == [("weight", [4, 2, 3]), ("bias", [2])]
    assert shapes["ln"] == [("weight", [8]), ("bias", [8])]
    assert shapes["ln_na"] == []
    assert shapes["rms"] == [("weight", [8])]
    assert shapes["gn"] == [("weight", [4]), ("bias", [4])]
    assert shapes["emb"] == [("weight", [10, 8])]
    half = nn.Linear(4, 3, dtype="float16", out_dtype="float32")
    assert (half.weight.dtype, half.bias.dtype) == ("float16", "float32")
    half.to("float16")
    assert half.bias.dtype == "float32"  # stays out_dtype, the matmul's result type


def test_linear_relu_silu_gelu_identity_values():
    class M(nn.Module):
        def __init__(self):
            self.fc = nn.Linear(4, 3)
            self.acts = nn.ModuleList([nn.ReLU(), nn.SiLU(), nn.GELU(), nn.Identity()])

        def forward(self, x):
            h = self.fc(x)
            return tuple(act(h) for act in self.acts)

    m = M()
    w = _bind(m)
    x = np.random.default_rng(1).standard_normal((2, 4)).astype("float32")
    relu, silu, gelu, ident = _jit(m, x=nn.spec.Tensor([2, 4], "float32"))(x)
    h = x @ w["fc.weight"].T + w["fc.bias"]
    np.testing.assert_allclose(ident.numpy(), h, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(relu.numpy(), np.maximum(h, 0), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(silu.numpy(), h / (1 + np.exp(-h)), rtol=1e-5, atol=1e-5)
    erf = np.vectorize(math.erf)
    np.testing.assert_allclose(
        gelu.numpy(), 0.5 * h * (1 + erf(h / np.sqrt(2))), rtol=1e-4, atol=1e-5
    )


def test_conv_layers_values():
    class M(nn.Module):
        def __init__(self):
            self.c1 = nn.Conv1D(2, 3, 3, padding=1)
            self.c2 = nn.Conv2D(2, 3, 2, bias=False)
            self.ct = nn.ConvTranspose1D(2, 3, 3, stride=2)

        def forward(self, x, img):
            return self.c1(x), self.c2(img), self.ct(x)

    m = M()
    w = _bind(m)
    rng = np.random.default_rng(2)
    x = rng.standard_normal((1, 2, 4)).astype("float32")
    img = rng.standard_normal((1, 2, 3, 3)).astype("float32")
    c1, c2, ct = _jit(
        m, x=nn.spec.Tensor([1, 2, 4], "float32"), img=nn.spec.Tensor([1, 2, 3, 3], "float32")
    )(x, img)
    xp = np.pad(x, [(0, 0), (0, 0), (1, 1)])
    ref1 = np.einsum(
        "ick,ock->io", np.stack([xp[0, :, t : t + 3] for t in range(4)]), w["c1.weight"]
    )
    np.testing.assert_allclose(c1.numpy()[0], ref1.T + w["c1.bias"][:, None], rtol=1e-4, atol=1e-4)
    patches = np.array([[img[0, :, i : i + 2, j : j + 2] for j in range(2)] for i in range(2)])
    ref2 = np.einsum("ijchw,ochw->oij", patches, w["c2.weight"])
    np.testing.assert_allclose(c2.numpy()[0], ref2, rtol=1e-4, atol=1e-4)
    # transposed conv: every input element scatters weight[c_in, c_out, :] at 2 * t
    ref3 = np.zeros((3, (4 - 1) * 2 + 3), "float32")
    for c in range(2):
        for t in range(4):
            ref3[:, 2 * t : 2 * t + 3] += x[0, c, t] * w["ct.weight"][c]
    np.testing.assert_allclose(ct.numpy()[0], ref3 + w["ct.bias"][:, None], rtol=1e-4, atol=1e-4)


def test_norm_and_embedding_layers_values():
    class M(nn.Module):
        def __init__(self):
            self.emb = nn.Embedding(10, 4)
            self.ln = nn.LayerNorm(4)
            self.rms = nn.RMSNorm(4, axes=-1)
            self.gn = nn.GroupNorm(2, 4)

        def forward(self, ids, x):
            e = self.emb(ids)
            return e, self.ln(e), self.rms(e), self.gn(x)

    m = M()
    w = _bind(m)
    ids = np.array([[1, 7, 3], [0, 9, 9]], "int32")
    x = np.random.default_rng(4).standard_normal((2, 4, 3)).astype("float32")
    spec = dict(ids=nn.spec.Tensor([2, 3], "int32"), x=nn.spec.Tensor([2, 4, 3], "float32"))
    e, ln, rms, gn = (t.numpy() for t in _jit(m, **spec)(ids, x))
    ref_e = w["emb.weight"][ids]
    np.testing.assert_allclose(e, ref_e)
    mu, var = ref_e.mean(-1, keepdims=True), ref_e.var(-1, keepdims=True)
    ref_ln = (ref_e - mu) / np.sqrt(var + 1e-5) * w["ln.weight"] + w["ln.bias"]
    np.testing.assert_allclose(ln, ref_ln, rtol=1e-4, atol=1e-4)
    ms = (ref_e**2).mean(-1, keepdims=True)
    ref_rms = ref_e / np.sqrt(ms + 1e-5) * w["rms.weight"] + w["rms.bias"]
    np.testing.assert_allclose(rms, ref_rms, rtol=1e-4, atol=1e-4)
    xg = x.reshape(2, 2, 6)
    ref_gn = (
        (xg - xg.mean(-1, keepdims=True)) / np.sqrt(xg.var(-1, keepdims=True) + 1e-5)
    ).reshape(2, 4, 3) * w["gn.weight"][:, None] + w["gn.bias"][:, None]
    np.testing.assert_allclose(gn, ref_gn, rtol=1e-4, atol=1e-4)


def test_embedding_ir_matches_upstream_form():
    mod, params = nn.Embedding(10, 8).export_tvm({"forward": {"x": nn.spec.Tensor(["n"], "int32")}})
    assert [n for n, _ in params] == ["weight"]
    (binding,) = [b for b in mod["forward"].body.blocks[0].bindings if b.var.name_hint == "take"]
    assert binding.value.op.name == "relax.take" and int(binding.value.attrs.axis) == 0
    assert str(binding.var.struct_info) == 'R.Tensor((n, 8), dtype="float32")'


def test_jit_checks_and_symbolic_batch():
    m = nn.Linear(3, 2)
    with pytest.raises(
        ValueError, match="parameters are not set to any concrete values: weight, bias"
    ):
        m.jit({"forward": {"x": nn.spec.Tensor([1, 3], "float32")}}, out_format="tvm")
    w = _bind(m)
    fwd = m.jit({"forward": {"x": nn.spec.Tensor(["b", 3], "float32")}}, out_format="tvm")
    for batch in (1, 5):
        x = np.ones((batch, 3), "float32")
        out = fwd["forward"](x)
        assert isinstance(out, tvm.runtime.Tensor)
        np.testing.assert_allclose(out.numpy(), x @ w["weight"].T + w["bias"], rtol=1e-5)
        np.testing.assert_allclose(fwd["forward"](tvm.runtime.tensor(x)).numpy(), out.numpy())
        np.testing.assert_allclose(fwd(x).numpy(), out.numpy())
    with pytest.raises(ValueError, match="Method `backward` is not found"):
        fwd["backward"]
    with pytest.raises(TypeError, match=r"forward: expected 1 arguments \(x\), got 2"):
        fwd["forward"](x, x)
    with pytest.raises(TypeError, match="forward: argument `x` must be a numpy.ndarray"):
        fwd["forward"]([[1.0, 2.0, 3.0]])
    with pytest.raises(ValueError, match='out_format must be "torch" or "tvm"'):
        m.jit({"forward": {"x": nn.spec.Tensor([1, 3], "float32")}}, out_format="numpy")
    with pytest.raises(ValueError, match="unknown device 'tpu'"):
        m.jit({"forward": {"x": nn.spec.Tensor([1, 3], "float32")}}, device="tpu", out_format="tvm")


def test_jit_debug_threads_the_effect(capfd):
    class M(nn.Module):
        def forward(self, x, n: int):
            nn.print_(x)
            return x.reshape(n, -1)

    j = M().jit(
        {"forward": {"x": nn.spec.Tensor([4], "float32"), "n": int}}, out_format="tvm", debug=True
    )
    out = j["forward"](np.arange(4, dtype="float32"), 2)
    np.testing.assert_array_equal(out.numpy(), np.arange(4).reshape(2, 2))
    assert "shape = (4,), dtype = float32" in capfd.readouterr().out
    with pytest.raises(TypeError, match="argument `n` must be an int"):
        j["forward"](np.arange(4, dtype="float32"), 2.0)


def test_jit_tuple_argument_runs_and_checks_its_length():
    class M(nn.Module):
        def forward(self, t):
            a, (b, c) = t
            return a + b * c

    x = nn.spec.Tensor(["n"], "float32")
    fwd = M().jit({"forward": {"t": (x, (x, x))}}, out_format="tvm")["forward"]
    a, b, c = (np.arange(3, dtype="float32") + i for i in range(3))
    np.testing.assert_array_equal(fwd((a, [b, c])).numpy(), a + b * c)
    with pytest.raises(
        TypeError, match=r"argument `t` must be a tuple or list of 2, got list of 1"
    ):
        fwd([a])  # was an IndexError
    with pytest.raises(TypeError, match=r"argument `t`\[1\] must be a tuple or list of 2, got nd"):
        fwd((a, b))


@pytest.mark.skipif(importlib.util.find_spec("torch") is not None, reason="torch is installed")
def test_jit_torch_format_without_torch_says_so():
    m = nn.Linear(3, 2)
    _bind(m)
    with pytest.raises(ImportError, match='out_format="torch"\\) needs PyTorch'):
        m.jit({"forward": {"x": nn.spec.Tensor([1, 3], "float32")}})


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_jit_torch_format_round_trips_torch_tensors():
    import torch

    m = nn.Linear(3, 2)
    w = _bind(m)
    fwd = m.jit({"forward": {"x": nn.spec.Tensor([1, 3], "float32")}})
    out = fwd["forward"](torch.ones(1, 3))
    assert isinstance(out, torch.Tensor)
    np.testing.assert_allclose(out.numpy(), np.ones((1, 3)) @ w["weight"].T + w["bias"], rtol=1e-5)


def test_debug_func_passes_line_info_and_arguments():
    import tvm_ffi

    seen = []
    tvm_ffi.register_global_func(
        "testing.nn_debug_func", lambda line, *args: seen.append((line, args)), override=True
    )

    class M(nn.Module):
        def forward(self, x):
            nn.op.debug_func("testing.nn_debug_func", x, 3, 2.5, "s", _line_info="here")
            return x

    j = M().jit({"forward": {"x": nn.spec.Tensor([2], "float32")}}, out_format="tvm", debug=True)
    j["forward"](np.ones(2, "float32"))
    ((line, args),) = seen
    assert line == "here" and args[1:] == (3, 2.5, "s")
    np.testing.assert_array_equal(args[0].numpy(), [1.0, 1.0])
    with pytest.raises(TypeError, match="nn.op.debug_func: unsupported argument type list"):

        class Bad(nn.Module):
            def forward(self, x):
                nn.op.debug_func("f", [1])
                return x

        Bad().export_tvm({"forward": {"x": nn.spec.Tensor([2], "float32")}}, debug=True)
    # StringImm refused the name with an error naming neither debug_func nor 'name'.
    with pytest.raises(TypeError, match="debug_func: argument 'name' must be the str name"):

        class BadName(nn.Module):
            def forward(self, x):
                nn.op.debug_func(5, x)
                return x

        BadName().export_tvm({"forward": {"x": nn.spec.Tensor([2], "float32")}}, debug=True)
