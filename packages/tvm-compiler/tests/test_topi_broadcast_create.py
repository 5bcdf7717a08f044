# tvm.topi's broadcast family, cast/clip/reinterpret/identity and creation ops against NumPy.
import numpy as np
import pytest
import tvm
from tvm import te, topi

RNG = np.random.default_rng(1)


def _run(inputs, output, arrays):
    f = tvm.compile(te.create_prim_func([*inputs, output]), target="llvm")
    out = np.zeros([int(s) for s in output.shape], output.dtype)
    f(*arrays, out)
    return out


FLOAT_CASES = [
    ("floor_divide", np.floor_divide),
    ("floor_mod", np.mod),
    ("mod", np.fmod),
    ("power", np.power),
    ("atan2", np.arctan2),
    ("log_add_exp", np.logaddexp),
    ("equal", np.equal),
    ("not_equal", np.not_equal),
    ("less", np.less),
    ("less_equal", np.less_equal),
    ("greater", np.greater),
    ("greater_equal", np.greater_equal),
]


@pytest.mark.parametrize(("name", "ref"), FLOAT_CASES)
def test_float_broadcast(name, ref):
    a = te.placeholder((3, 1, 5), name="A")
    b = te.placeholder((4, 1), name="B")
    x = (RNG.random((3, 1, 5)) * 4 - 2).astype("float32")
    y = (RNG.random((4, 1)) * 2 + 0.5).astype("float32")
    if name == "power":
        x = np.abs(x)
    c = getattr(topi, name)(a, b)
    assert c.op.name == f"T_{name}"
    want = ref(x, y)
    assert c.dtype == str(want.dtype)
    np.testing.assert_allclose(_run([a, b], c, [x, y]), want, rtol=1e-5, atol=1e-6)


INT_CASES = [
    ("floor_divide", np.floor_divide),
    ("floor_mod", np.mod),
    ("mod", np.fmod),
    ("bitwise_and", np.bitwise_and),
    ("bitwise_or", np.bitwise_or),
    ("bitwise_xor", np.bitwise_xor),
]


@pytest.mark.parametrize(("name", "ref"), INT_CASES)
def test_int_broadcast(name, ref):
    a = te.placeholder((2, 6), "int32", name="A")
    b = te.placeholder((6,), "int32", name="B")
    x = RNG.integers(-20, 20, (2, 6)).astype("int32")
    y = np.array([3, -4, 5, 7, -2, 9], "int32")
    np.testing.assert_array_equal(_run([a, b], getattr(topi, name)(a, b), [x, y]), ref(x, y))


def test_shifts_define_out_of_range_counts():
    a = te.placeholder((5,), "int32", name="A")
    b = te.placeholder((5,), "int32", name="B")
    x = np.array([1, -8, 3, -1, 7], "int32")
    y = np.array([3, 1, 40, 33, -1], "int32")
    got_l = _run([a, b], topi.left_shift(a, b), [x, y])
    np.testing.assert_array_equal(got_l, [8, -16, 0, 0, 0])
    got_r = _run([a, b], topi.right_shift(a, b), [x, y])
    np.testing.assert_array_equal(got_r, [0, -4, 0, -1, 0])


@pytest.mark.parametrize(
    ("name", "ref"),
    [
        ("logical_and", np.logical_and),
        ("logical_or", np.logical_or),
        ("logical_xor", np.logical_xor),
    ],
)
def test_logical(name, ref):
    a = te.placeholder((3, 1), "bool", name="A")
    b = te.placeholder((4,), "bool", name="B")
    x = np.array([[True], [False], [True]])
    y = np.array([True, False, False, True])
    c = getattr(topi, name)(a, b)
    assert [int(s) for s in c.shape] == [3, 4] and c.dtype == "bool"
    np.testing.assert_array_equal(_run([a, b], c, [x, y]), ref(x, y))


def test_broadcast_scalars_and_errors():
    a = te.placeholder((4,), name="A")
    x = RNG.random(4).astype("float32")
    np.testing.assert_array_equal(_run([a], topi.greater(a, 0.5), [x]), x > 0.5)
    np.testing.assert_allclose(_run([a], topi.power(2.0, a), [x]), 2.0**x, rtol=1e-6)
    with pytest.raises(TypeError, match=r"topi\.equal: argument 'rhs'"):
        topi.equal(a, "x")
    with pytest.raises(ValueError, match=r"topi\.less: shapes .* do not broadcast"):
        topi.less(a, te.placeholder((3,), name="B"))


def test_broadcast_to():
    b = te.placeholder((4, 1), name="B")
    y = RNG.random((4, 1)).astype("float32")
    c = topi.broadcast_to(b, (2, 4, 3))
    np.testing.assert_array_equal(_run([b], c, [y]), np.broadcast_to(y, (2, 4, 3)))
    with pytest.raises(ValueError, match=r"topi\.broadcast_to: data .* does not broadcast"):
        topi.broadcast_to(b, (2, 5, 3))
    with pytest.raises(ValueError, match=r"topi\.broadcast_to: argument 'shape'"):
        topi.broadcast_to(b, (4,))
    with pytest.raises(TypeError, match=r"topi\.broadcast_to: argument 'data'"):
        topi.broadcast_to([1, 2], (2,))


def test_where():
    c = te.placeholder((3, 1), "bool", name="C")
    a = te.placeholder((3, 4), name="A")
    b = te.placeholder((4,), name="B")
    cond = np.array([[True], [False], [True]])
    x = RNG.random((3, 4)).astype("float32")
    y = RNG.random(4).astype("float32")
    np.testing.assert_array_equal(
        _run([c, a, b], topi.where(c, a, b), [cond, x, y]), np.where(cond, x, y)
    )
    ci = te.placeholder((3, 4), "int32", name="CI")
    mask = RNG.integers(0, 2, (3, 4)).astype("int32")
    np.testing.assert_array_equal(
        _run([ci, a, b], topi.where(ci, a, b), [mask, x, y]), np.where(mask != 0, x, y)
    )
    with pytest.raises(TypeError, match=r"topi\.where: argument 'x'"):
        topi.where(c, 1.0, b)
    with pytest.raises(ValueError, match=r"topi\.where: x .* and y .* must share a dtype"):
        topi.where(c, a, te.placeholder((4,), "int32"))


def test_cast_clip_reinterpret_identity():
    a = te.placeholder((2, 3), name="A")
    x = (RNG.random((2, 3)) * 6 - 3).astype("float32")
    np.testing.assert_array_equal(_run([a], topi.cast(a, "int32"), [x]), x.astype("int32"))
    assert topi.cast(a, "float16").dtype == "float16"
    assert int(topi.cast(7, "int64").value) == 7 and topi.cast(7, "int64").dtype == "int64"
    np.testing.assert_array_equal(_run([a], topi.clip(a, -1, 1.5), [x]), np.clip(x, -1, 1.5))
    bits = _run([a], topi.reinterpret(a, "int32"), [x])
    np.testing.assert_array_equal(bits, x.view("int32"))
    np.testing.assert_array_equal(_run([a], topi.identity(a), [x]), x)
    with pytest.raises(TypeError, match=r"topi\.cast: argument 'x'"):
        topi.cast("x", "int32")
    with pytest.raises(TypeError, match=r"topi\.clip: argument 'x'"):
        topi.clip(x, 0, 1)


def test_full_full_like_elemwise_sum():
    f = topi.full((2, 3), "int32", 7)
    assert f.op.name == "T_full"
    np.testing.assert_array_equal(_run([], f, []), np.full((2, 3), 7, "int32"))
    a = te.placeholder((2, 3), name="A")
    x = RNG.random((2, 3)).astype("float32")
    np.testing.assert_array_equal(
        _run([a], topi.full_like(a, 2.5), [x]), np.full((2, 3), 2.5, "float32")
    )
    v = te.placeholder((), name="V")
    np.testing.assert_array_equal(
        _run([v], topi.full((4,), "float32", v), [np.array(3.0, "float32")]), [3.0] * 4
    )
    np.testing.assert_allclose(_run([a], topi.elemwise_sum([a, a, a]), [x]), 3 * x, rtol=1e-6)
    with pytest.raises(TypeError, match=r"topi\.full: argument 'fill_value'"):
        topi.full((2,), "float32", "one")
    with pytest.raises(
        ValueError, match=r"topi\.full: argument 'fill_value' must be a scalar or a 0-d"
    ):
        topi.full((2,), "float32", a)
    with pytest.raises(TypeError, match=r"topi\.full_like: argument 'x'"):
        topi.full_like(x, 1.0)
    with pytest.raises(TypeError, match=r"topi\.elemwise_sum: argument 'xs'"):
        topi.elemwise_sum([])


@pytest.mark.parametrize(
    ("args", "dtype"),
    [
        ((5,), "float32"),
        ((2, 11, 3), "int32"),
        ((1.5, 5, 0.5), "float32"),
        ((5, 0, -2), "int64"),
        ((0.5, 5, 1.5), "int64"),
    ],
)
def test_arange(args, dtype):
    want = np.arange(*args).astype(dtype)
    c = topi.arange(*args, dtype=dtype)
    assert c.dtype == dtype and [int(s) for s in c.shape] == [len(want)]
    np.testing.assert_allclose(_run([], c, []), want)


def test_arange_symbolic_and_errors():
    n = te.var("n")
    c = topi.arange(0, n, 2, dtype="int32")
    f = tvm.compile(te.create_prim_func([n, c]), target="llvm")
    out = np.zeros(4, "int32")
    f(7, out)
    np.testing.assert_array_equal(out, [0, 2, 4, 6])
    with pytest.raises(ValueError, match=r"topi\.arange: argument 'step' must not be zero"):
        topi.arange(0, 4, 0)
    with pytest.raises(TypeError, match=r"topi\.arange: argument 'stop'"):
        topi.arange(0, "4")
