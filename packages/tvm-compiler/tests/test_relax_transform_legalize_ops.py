# LegalizeOps: each op becomes a call_tir of a PrimFunc built through te/topi; the PrimFuncs,
# compiled with tvm.compile, agree with NumPy (static and symbolic shapes).
import math

import numpy as np
import pytest
import tvm
import tvm_ffi
from relax_eval import build_and_run, run
from tvm import relax, tir
from tvm.relax import op as R

RNG = np.random.default_rng(0)


def _rand(*shape, dtype="float32"):
    return RNG.standard_normal(shape).astype(dtype)


def _check_all(cases, *args, rtol=1e-5, atol=1e-5):
    """cases: {name: (build(*vars) -> relax expr, reference(*arrays) -> array)}; all cases
    are emitted into one function (one compile) and compared one by one."""
    names = list(cases)

    def build(bb, *params):
        return relax.Tuple([bb.emit(cases[n][0](*params)) for n in names])

    got, mod = build_and_run(build, *args)
    for name, value in zip(names, got):
        want = cases[name][1](*args)
        np.testing.assert_allclose(value, want, rtol=rtol, atol=atol, err_msg=name)
        assert value.dtype == np.asarray(want).dtype, name
    return mod


def test_binary_ops_broadcast():
    a, b = _rand(2, 3, 4), np.abs(_rand(3, 1)) + 0.5
    _check_all(
        {
            "add": (R.add, np.add),
            "subtract": (R.subtract, np.subtract),
            "multiply": (R.multiply, np.multiply),
            "divide": (R.divide, np.divide),
            "floor_divide": (R.floor_divide, np.floor_divide),
            "power": (lambda x, y: R.power(R.abs(x), y), lambda x, y: np.abs(x) ** y),
            "maximum": (R.maximum, np.maximum),
            "minimum": (R.minimum, np.minimum),
            "floor_mod": (R.floor_mod, np.mod),
            "equal": (R.equal, np.equal),
            "not_equal": (R.not_equal, np.not_equal),
            "less": (R.less, np.less),
            "less_equal": (R.less_equal, np.less_equal),
            "greater": (R.greater, np.greater),
            "greater_equal": (R.greater_equal, np.greater_equal),
            "logical_and": (
                lambda x, y: R.logical_and(R.less(x, y), R.greater(x, relax.const(0.0))),
                lambda x, y: np.logical_and(x < y, x > 0),
            ),
            "logical_or": (
                lambda x, y: R.logical_or(R.less(x, y), R.greater(x, relax.const(0.0))),
                lambda x, y: np.logical_or(x < y, x > 0),
            ),
        },
        a,
        b,
        rtol=1e-4,
    )


_erf = np.vectorize(math.erf, otypes=["float32"])


def test_unary_ops_and_clip():
    x = _rand(3, 5)
    p = np.abs(_rand(3, 5)) + 0.1
    _check_all(
        {
            "exp": (lambda x, p: R.exp(x), lambda x, p: np.exp(x)),
            "log": (lambda x, p: R.log(p), lambda x, p: np.log(p)),
            "sqrt": (lambda x, p: R.sqrt(p), lambda x, p: np.sqrt(p)),
            "rsqrt": (lambda x, p: R.rsqrt(p), lambda x, p: 1 / np.sqrt(p)),
            "tanh": (lambda x, p: R.tanh(x), lambda x, p: np.tanh(x)),
            "sigmoid": (lambda x, p: R.sigmoid(x), lambda x, p: 1 / (1 + np.exp(-x))),
            "erf": (lambda x, p: R.erf(x), lambda x, p: _erf(x)),
            "sin": (lambda x, p: R.sin(x), lambda x, p: np.sin(x)),
            "cos": (lambda x, p: R.cos(x), lambda x, p: np.cos(x)),
            "negative": (lambda x, p: R.negative(x), lambda x, p: -x),
            "abs": (lambda x, p: R.abs(x), lambda x, p: np.abs(x)),
            "floor": (lambda x, p: R.floor(x), lambda x, p: np.floor(x)),
            "ceil": (lambda x, p: R.ceil(x), lambda x, p: np.ceil(x)),
            "round": (lambda x, p: R.round(x), lambda x, p: np.round(x)),
            "sign": (lambda x, p: R.sign(x), lambda x, p: np.sign(x)),
            "square": (lambda x, p: R.square(x), lambda x, p: x * x),
            "clip": (lambda x, p: R.clip(x, -0.5, 0.5), lambda x, p: np.clip(x, -0.5, 0.5)),
        },
        x,
        p,
        rtol=1e-4,
    )


def test_matmul_batched_broadcasting_and_vectors():
    a, b = _rand(2, 1, 3, 4), _rand(5, 4, 6)
    v = _rand(4)
    _check_all(
        {
            "batched": (lambda a, b, v: R.matmul(a, b), lambda a, b, v: np.matmul(a, b)),
            "vec_mat": (lambda a, b, v: R.matmul(v, b), lambda a, b, v: np.matmul(v, b)),
            "mat_vec": (lambda a, b, v: R.matmul(a, v), lambda a, b, v: np.matmul(a, v)),
        },
        a,
        b,
        v,
        rtol=1e-4,
    )


def test_nn_ops():
    x, w, bias = _rand(4, 8), _rand(6, 8), _rand(6)
    gamma, beta = _rand(8), _rand(8)

    def softmax(x, axis):
        e = np.exp(x - x.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)

    def layer_norm(x):
        m = x.mean(-1, keepdims=True)
        return (x - m) / np.sqrt(x.var(-1, keepdims=True) + 1e-5) * gamma + beta

    _check_all(
        {
            "relu": (lambda x, *_: R.nn.relu(x), lambda x, *_: np.maximum(x, 0)),
            "gelu": (
                lambda x, *_: R.nn.gelu(x),
                lambda x, *_: 0.5 * x * (1 + _erf(x / math.sqrt(2))),
            ),
            "gelu_tanh": (
                lambda x, *_: R.nn.gelu_tanh(x),
                lambda x, *_: (
                    0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
                ),
            ),
            "silu": (lambda x, *_: R.nn.silu(x), lambda x, *_: x / (1 + np.exp(-x))),
            "softmax": (lambda x, *_: R.nn.softmax(x, axis=0), lambda x, *_: softmax(x, 0)),
            "log_softmax": (
                lambda x, *_: R.nn.log_softmax(x),
                lambda x, *_: np.log(softmax(x, -1)),
            ),
            "linear": (
                lambda x, w, b, *_: R.nn.linear(x, w, b),
                lambda x, w, b, *_: x @ w.T + b,
            ),
            "layer_norm": (
                lambda x, w, b, g, bt: R.nn.layer_norm(x, g, bt, axes=-1),
                lambda x, *_: layer_norm(x),
            ),
        },
        x,
        w,
        bias,
        gamma,
        beta,
        rtol=1e-4,
        atol=1e-4,
    )


def test_manipulation_ops():
    x, y = _rand(2, 3, 4), _rand(2, 1, 4)
    _check_all(
        {
            "reshape": (lambda x, y: R.reshape(x, [-1, 4]), lambda x, y: x.reshape(-1, 4)),
            "permute_dims": (
                lambda x, y: R.permute_dims(x, [2, 0, 1]),
                lambda x, y: x.transpose(2, 0, 1),
            ),
            "expand_dims": (
                lambda x, y: R.expand_dims(x, [0, 3]),
                lambda x, y: np.expand_dims(x, (0, 3)),
            ),
            "squeeze": (lambda x, y: R.squeeze(y, 1), lambda x, y: y.squeeze(1)),
            "flatten": (lambda x, y: R.flatten(x), lambda x, y: x.reshape(-1)),
            "concat": (lambda x, y: R.concat([x, y], 1), lambda x, y: np.concatenate([x, y], 1)),
            "broadcast_to": (
                lambda x, y: R.broadcast_to(y, [3, 2, 5, 4]),
                lambda x, y: np.broadcast_to(y, (3, 2, 5, 4)),
            ),
            "split": (lambda x, y: R.split(x, [1], axis=1)[1], lambda x, y: x[:, 1:]),
            "astype": (lambda x, y: R.astype(x, "int32"), lambda x, y: x.astype("int32")),
            "where": (
                lambda x, y: R.where(R.greater(x, y), x, y),
                lambda x, y: np.where(x > y, x, y),
            ),
            "strided_slice": (
                lambda x, y: R.strided_slice(x, [1, 2], [2, -1], [0, 0], [-1, -2]),
                lambda x, y: x[:, 2:0:-1, -1:0:-2],
            ),
        },
        x,
        y,
    )


def test_reductions_and_indexing():
    x = _rand(3, 4, 5)
    idx = np.array([[2, 0], [1, 3]], dtype="int64")
    _check_all(
        {
            "sum": (lambda x, i: R.sum(x, axis=[0, 2]), lambda x, i: x.sum((0, 2))),
            "mean": (
                lambda x, i: R.mean(x, axis=1, keepdims=True),
                lambda x, i: x.mean(1, keepdims=True),
            ),
            "max": (lambda x, i: R.max(x), lambda x, i: x.max()),
            "min": (lambda x, i: R.min(x, axis=-1), lambda x, i: x.min(-1)),
            "prod": (lambda x, i: R.prod(x, axis=0), lambda x, i: x.prod(0)),
            "variance": (lambda x, i: R.variance(x, axis=2), lambda x, i: x.var(2)),
            "std": (lambda x, i: R.std(x, axis=2), lambda x, i: x.std(2)),
            "argmax": (lambda x, i: R.argmax(x, axis=1), lambda x, i: x.argmax(1)),
            "argmin": (lambda x, i: R.argmin(x, axis=2), lambda x, i: x.argmin(2)),
            "take": (lambda x, i: R.take(x, i, axis=1), lambda x, i: np.take(x, i, axis=1)),
        },
        x,
        idx,
        rtol=1e-4,
        atol=1e-5,
    )


def test_creation_ops():
    x = _rand(2, 3)
    _check_all(
        {
            "zeros": (lambda x: R.zeros([2, 2], "int32"), lambda x: np.zeros((2, 2), "int32")),
            "ones": (lambda x: R.ones([3], "float32"), lambda x: np.ones(3, "float32")),
            "full": (lambda x: R.full([2], relax.const(2.5)), lambda x: np.full(2, 2.5, "float32")),
            "zeros_like": (lambda x: R.zeros_like(x), lambda x: np.zeros_like(x)),
            "ones_like": (lambda x: R.ones_like(x, "int64"), lambda x: np.ones_like(x, "int64")),
            "full_like": (
                lambda x: R.full_like(x, relax.const(7.0)),
                lambda x: np.full_like(x, 7.0),
            ),
            "arange": (lambda x: R.arange(1, 10, 2), lambda x: np.arange(1, 10, 2)),
        },
        x,
    )


def test_symbolic_shapes_run_on_any_size():
    n = tir.Var("n", "int64")
    x = relax.Var("x", relax.TensorStructInfo([n, 4], "float32"))
    w = relax.Var("w", relax.TensorStructInfo([4, 3], "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w]):
        with bb.dataflow():
            h = bb.emit(R.nn.relu(R.matmul(x, w)))
            r = bb.emit(R.reshape(h, [-1]))
            s = bb.emit(R.sum(R.strided_slice(h, [0], [1], [1000]), axis=0))
            gv = bb.emit_output(relax.Tuple([r, s]))
        bb.emit_func_output(gv)
    mod = relax.transform.LegalizeOps()(bb.get())
    assert all(
        b.value.op.name == "relax.call_tir"
        for blk in mod["main"].body.blocks
        for b in blk.bindings
        if isinstance(b.value, relax.Call)
    )
    for rows in (1, 5):
        a, wa = _rand(rows, 4), _rand(4, 3)
        flat, tail = run(mod, a, wa)
        h = np.maximum(a @ wa, 0)
        np.testing.assert_allclose(flat, h.reshape(-1), rtol=1e-5)
        np.testing.assert_allclose(tail, h[1:].sum(0), rtol=1e-5, atol=1e-6)


def test_legalize_leaves_unknown_shapes_and_unchanged_modules_alone():
    x = relax.Var("x", relax.TensorStructInfo(ndim=2, dtype="float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        bb.emit_func_output(bb.emit(R.exp(x)))
    mod = bb.get()
    assert relax.transform.LegalizeOps()(mod) is mod  # copy-on-write: nothing to change
    legal = relax.transform.LegalizeOps()(build_and_run(lambda bb, a: R.exp(a), _rand(2))[1])
    assert isinstance(legal, tvm.IRModule)


def test_register_legalize_and_customize_map():
    from tvm import te

    def twice(bb, call):
        return bb.call_te(
            lambda a: te.compute(a.shape, lambda *i: a[i] * 2.0, name="twice"),
            call.args[0],
            primfunc_name_hint="twice",
        )

    x = _rand(3)
    bb = relax.BlockBuilder()
    p = relax.Var("p", relax.TensorStructInfo([3], "float32"))
    with bb.function("main", [p]):
        bb.emit_func_output(bb.emit(R.exp(p)))
    mod = relax.transform.LegalizeOps({"relax.exp": twice})(bb.get())
    assert "twice" in mod
    np.testing.assert_allclose(run(mod, x), x * 2)
    with pytest.raises(ValueError, match="already set at level 10"):
        relax.transform.register_legalize("relax.exp", twice)


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _attention_ref(q, k, v, causal):
    scores = np.einsum("bsnh,btnh->bnst", q, k) / np.sqrt(q.shape[-1])
    if causal:
        s, t = scores.shape[-2:]
        scores = np.where(np.tril(np.ones((s, t), bool)), scores, np.finfo("float32").min)
    return np.einsum("bnst,btnd->bsnd", _softmax(scores), v).astype("float32")


def test_more_manipulation_and_nn_ops():
    x, y = _rand(2, 3), _rand(2, 3)
    idx = np.array([[1, 0, 1], [0, 1, 0]], dtype="int64")
    q, k, v = _rand(1, 4, 2, 8), _rand(1, 4, 2, 8), _rand(1, 4, 2, 5)
    w = np.abs(_rand(3)) + 0.5

    def group_norm(x):
        g = x.reshape(2, 1, 3)  # one group of 3 channels per batch row
        m, s = g.mean(axis=(1, 2), keepdims=True), g.var(axis=(1, 2), keepdims=True)
        return ((g - m) / np.sqrt(s + 1e-5)).reshape(2, 3)

    _check_all(
        {
            "stack": (
                lambda x, y, *_: R.stack([x, y], axis=1),
                lambda x, y, *_: np.stack([x, y], 1),
            ),
            "tile": (lambda x, *_: R.tile(x, [2, 1, 2]), lambda x, *_: np.tile(x, (2, 1, 2))),
            "repeat": (lambda x, *_: R.repeat(x, 2, axis=1), lambda x, *_: np.repeat(x, 2, axis=1)),
            "repeat_flat": (lambda x, *_: R.repeat(x, 2), lambda x, *_: np.repeat(x, 2)),
            "flip": (lambda x, *_: R.flip(x, 1), lambda x, *_: np.flip(x, 1)),
            "gather": (
                lambda x, y, i, *_: R.gather_elements(x, i, axis=0),
                lambda x, y, i, *_: np.take_along_axis(x, i, axis=0),
            ),
            "one_hot": (
                lambda x, y, i, *_: R.one_hot(
                    i, tir.const(1.0, "float32"), tir.const(0.0, "float32"), depth=3
                ),
                lambda x, y, i, *_: np.eye(3, dtype="float32")[i],
            ),
            "tril": (lambda x, *_: R.tril(x, 0), lambda x, *_: np.tril(x, 0)),
            "triu": (lambda x, *_: R.triu(x, 1), lambda x, *_: np.triu(x, 1)),
            "cumsum": (lambda x, *_: R.cumsum(x, axis=1), lambda x, *_: np.cumsum(x, axis=1)),
            "cumsum_flat": (lambda x, *_: R.cumsum(x), lambda x, *_: np.cumsum(x)),
            "pad": (
                lambda x, *_: R.nn.pad(x, [1, 0, 0, 2], 5.0),
                lambda x, *_: np.pad(x, ((1, 0), (0, 2)), constant_values=5.0),
            ),
            "pad_edge": (
                lambda x, *_: R.nn.pad(x, [1, 1, 2, 1], pad_mode="edge"),
                lambda x, *_: np.pad(x, ((1, 1), (2, 1)), mode="edge"),
            ),
            "pad_reflect": (
                lambda x, *_: R.nn.pad(x, [1, 1, 2, 1], pad_mode="reflect"),
                lambda x, *_: np.pad(x, ((1, 1), (2, 1)), mode="reflect"),
            ),
            "rms_norm": (
                lambda x, y, i, q, k, v, w: R.nn.rms_norm(x, w),
                lambda x, y, i, q, k, v, w: x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-5) * w,
            ),
            "group_norm": (
                lambda x, y, i, q, k, v, w: R.nn.group_norm(
                    x, w, w, 1, 1, [], center=False, scale=False
                ),
                lambda x, *_: group_norm(x),
            ),
            "attention": (
                lambda x, y, i, q, k, v, w: R.nn.attention(q, k, v),
                lambda x, y, i, q, k, v, w: _attention_ref(q, k, v, False),
            ),
            "causal": (
                lambda x, y, i, q, k, v, w: R.nn.attention(q, k, v, causal_mask="TopLeft"),
                lambda x, y, i, q, k, v, w: _attention_ref(q, k, v, True),
            ),
        },
        x,
        y,
        idx,
        q,
        k,
        v,
        w,
        rtol=1e-4,
        atol=1e-5,
    )


@pytest.mark.parametrize("new_shape", ["n,4", "n,-1"])
def test_a_reshape_whose_symbolic_element_count_differs_at_run_time_raises(new_shape):
    # topi's index arithmetic wrapped around x: (2, 4) as (3, 4) repeated its first row
    n = tir.Var("n", "int64")
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo((2, 4), "float32"))
    s = relax.Var("s", relax.ShapeStructInfo([n]))
    with bb.function("main", [x, s]):
        with bb.dataflow():
            out = bb.emit_output(R.reshape(x, (n, 4) if new_shape == "n,4" else (n, -1)))
        bb.emit_func_output(out)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    data = np.arange(8, dtype="float32").reshape(2, 4)
    got = vm["main"](tvm.runtime.tensor(data), tvm_ffi.Shape([2])).numpy()
    np.testing.assert_array_equal(got, data)
    for wrong in (3, 5, 0):
        with pytest.raises(ValueError, match=r"reshape: cannot reshape x of shape \(2, 4\) into"):
            vm["main"](tvm.runtime.tensor(data), tvm_ffi.Shape([wrong]))


def _symbolic_vm(params, build):
    bb = relax.BlockBuilder()
    args = [relax.Var(f"a{i}", relax.TensorStructInfo(s, d)) for i, (s, d) in enumerate(params)]
    with bb.function("main", args):
        with bb.dataflow():
            out = bb.emit_output(build(*args))
        bb.emit_func_output(out)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    return lambda *arrays: vm["main"](*map(tvm.runtime.tensor, arrays)).numpy()


def test_symbolic_dims_that_disagree_at_run_time_raise_in_matmul_concat_broadcast_to():
    # each returned a silently wrong result (or read outside x) before
    m, k, k2, p, q = (tir.Var(c, "int64") for c in ("m", "k", "k2", "p", "q"))
    f32 = "float32"
    a, b = _rand(3, 4), _rand(4, 5)
    matmul = _symbolic_vm([((m, k), f32), ((k2, 5), f32)], R.matmul)
    np.testing.assert_allclose(matmul(a, b), a @ b, rtol=1e-5)
    with pytest.raises(ValueError, match=r"matmul: x1 of shape \(m, k\) and x2 of shape"):
        matmul(a, _rand(5, 5))
    concat = _symbolic_vm([((m, k), f32), ((p, q), f32)], lambda x, y: R.concat([x, y], axis=0))
    np.testing.assert_array_equal(concat(a, a[:1]), np.concatenate([a, a[:1]]))
    with pytest.raises(ValueError, match="concat: the tensors of shapes .* disagree at run time"):
        concat(a, _rand(1, 5))
    bcast = _symbolic_vm([((m, 4), f32)], lambda x: R.broadcast_to(x, (3, 4)))
    np.testing.assert_array_equal(bcast(a), a)
    for rows in (2, 1):  # 1: topi broadcasts only a constant 1 (it read past x's row)
        with pytest.raises(ValueError, match=r"broadcast_to: x of shape \(m, 4\) cannot be"):
            bcast(a[:rows])
