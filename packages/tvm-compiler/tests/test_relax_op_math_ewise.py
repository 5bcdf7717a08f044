# The trig/hyperbolic, trunc, isnan/isinf/isfinite, bitwise_not, atan2, log_add_exp and shift
# Relax ops: struct info, bad dtypes, values after legalisation against NumPy (and tir/te/topi).
import numpy as np
import pytest
import tvm
from tvm import relax, te, tir, topi
from tvm.script import ir as I
from tvm.script import relax as R

FLOAT_OPS = {
    "acos": np.arccos,
    "asin": np.arcsin,
    "atan": np.arctan,
    "atanh": np.arctanh,
    "acosh": lambda v: np.arccosh(v + 2),
    "asinh": np.arcsinh,
    "cosh": np.cosh,
    "sinh": np.sinh,
    "trunc": np.trunc,
}


def _run(mod, *args):
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    return vm["main"](*[tvm.runtime.tensor(a) for a in args])


@pytest.mark.parametrize("name", sorted(FLOAT_OPS))
def test_float_unary_ops_match_numpy(name):
    x = relax.Var("x", relax.TensorStructInfo((2, 3), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        arg = bb.emit(relax.op.add(x, relax.const(2.0, "float32"))) if name == "acosh" else x
        out = bb.emit(getattr(relax.op, name)(arg))
        bb.emit_func_output(out)
    mod = bb.get()
    assert mod["main"].ret_struct_info.dtype == "float32"
    data = np.array([[-0.9, -0.5, 0.0], [0.25, 0.5, 0.75]], "float32")
    got = _run(mod, data).numpy()
    np.testing.assert_allclose(got, FLOAT_OPS[name](data), rtol=1e-5, atol=1e-6)


@I.ir_module
class Checks:
    @R.function
    def main(x: R.Tensor((6,), "float32"), k: R.Tensor((4,), "int32")):
        a = R.isnan(x)
        b = R.isinf(x)
        c = R.isfinite(x)
        d = R.bitwise_not(k)
        return (a, b, c, d)


def test_checks_give_bool_tensors_and_bitwise_not_flips_bits():
    ret = Checks["main"].ret_struct_info
    assert [f.dtype for f in ret.fields] == ["bool", "bool", "bool", "int32"]
    x = np.array([0.5, np.nan, -np.inf, np.inf, -1.0, 0.0], "float32")
    k = np.array([0, 1, -5, 7], "int32")
    a, b, c, d = _run(Checks, x, k)
    np.testing.assert_array_equal(a.numpy(), np.isnan(x))
    np.testing.assert_array_equal(b.numpy(), np.isinf(x))
    np.testing.assert_array_equal(c.numpy(), np.isfinite(x))
    np.testing.assert_array_equal(d.numpy(), np.bitwise_not(k))


def test_bad_dtypes_name_the_op_and_argument():
    bb = relax.BlockBuilder()
    ints = relax.Var("k", relax.TensorStructInfo((4,), "int32"))
    floats = relax.Var("x", relax.TensorStructInfo((4,), "float32"))
    with bb.function("main", [ints, floats]):
        with pytest.raises(TypeError, match="acos: argument 'x' must be a float tensor"):
            bb.emit(relax.op.acos(ints))
        with pytest.raises(TypeError, match="bitwise_not: argument 'x' must be an integer"):
            bb.emit(relax.op.bitwise_not(floats))
        bb.emit_func_output(floats)


def test_tir_te_and_topi_carry_the_same_functions():
    a = te.placeholder((3,), "float32", name="A")
    b = topi.acos(a)
    c = te.compute((3,), lambda i: te.atan2(a[i], te.sinh(a[i])) + te.fmod(a[i], 0.3), name="C")
    f = tvm.compile(te.create_prim_func([a, b, c]), target="llvm")
    data = np.array([-0.5, 0.1, 0.9], "float32")
    out_b, out_c = np.zeros(3, "float32"), np.zeros(3, "float32")
    args = [tvm.runtime.tensor(v) for v in (data, out_b, out_c)]
    f["main"](*args)
    np.testing.assert_allclose(args[1].numpy(), np.arccos(data), rtol=1e-6)
    expected = np.arctan2(data, np.sinh(data)) + np.fmod(data, np.float32(0.3))
    np.testing.assert_allclose(args[2].numpy(), expected, rtol=1e-5)
    assert str(tir.isnan(tir.Var("i", "int32"))) == "T.bool(False)"
    with pytest.raises(TypeError, match="topi.acos: argument 'x' must be a te.Tensor"):
        topi.acos(np.zeros(3))


@I.ir_module
class Binary:
    @R.function
    def main(
        x: R.Tensor((2, 3), "float32"),
        y: R.Tensor((3,), "float32"),
        k: R.Tensor((2, 3), "int32"),
        s: R.Tensor((3,), "int32"),
    ):
        a = R.atan2(x, y)
        b = R.log_add_exp(x, y)
        c = R.left_shift(k, s)
        d = R.right_shift(k, s)
        return (a, b, c, d)


def test_atan2_log_add_exp_and_shifts_broadcast_like_numpy():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3)).astype("float32") * 50  # large: log_add_exp must not overflow
    y = rng.standard_normal(3).astype("float32")
    k = np.array([[1, -8, 64], [3, 5, -1]], "int32")
    s = np.array([0, 2, 40], "int32")  # 40 is past the width: C leaves it undefined
    a, b, c, d = _run(Binary, x, y, k, s)
    np.testing.assert_allclose(a.numpy(), np.arctan2(x, y), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(b.numpy(), np.logaddexp(x, y), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(c.numpy(), [[1, -32, 0], [3, 20, 0]])
    np.testing.assert_array_equal(d.numpy(), [[1, -2, 0], [3, 1, -1]])


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
def test_log_add_exp_of_infinities_and_nan_matches_numpy(dtype):
    # inf with inf (and -inf with -inf) made inf - inf = NaN inside the overflow-safe form.
    inf, nan = np.inf, np.nan
    x = np.array([inf, -inf, inf, -inf, 3.0, nan, 0.0, 1.0], dtype)
    y = np.array([inf, -inf, -inf, 5.0, inf, 1.0, 0.0, 1.0], dtype)
    bb = relax.BlockBuilder()
    a = relax.Var("a", relax.TensorStructInfo((8,), dtype))
    b = relax.Var("b", relax.TensorStructInfo((8,), dtype))
    with bb.function("main", [a, b]):
        bb.emit_func_output(bb.emit(relax.op.log_add_exp(a, b)))
    got = _run(bb.get(), x, y).numpy()
    np.testing.assert_allclose(got, np.logaddexp(x, y), rtol=1e-3, equal_nan=True)


def test_binary_dtype_kinds_are_checked():
    bb = relax.BlockBuilder()
    f = relax.Var("f", relax.TensorStructInfo((3,), "float32"))
    i = relax.Var("i", relax.TensorStructInfo((3,), "int32"))
    with bb.function("main", [f, i]):
        with pytest.raises(TypeError, match="left_shift: argument 'x1' must be an integer"):
            bb.emit(relax.op.left_shift(f, f))
        # as upstream, atan2 takes any one dtype (its struct info does not restrict the kind)
        assert bb.emit(relax.op.atan2(i, i)).struct_info.dtype == "int32"
        bb.emit_func_output(f)
