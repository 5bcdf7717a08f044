# size, outer, masked_fill, ewise_fma, eye and eye_like: struct info as upstream prints it,
# bad input, and values against NumPy.
import numpy as np
import pytest
import tvm
from tvm import relax, tir


def _var(name, shape, dtype="float32"):
    return relax.Var(name, relax.TensorStructInfo(shape, dtype))


def _run(params, make, *arrays):
    bb = relax.BlockBuilder()
    with bb.function("main", params):
        out = bb.emit(make(*params))
        bb.emit_func_output(out)
    mod = bb.get()
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    return mod, vm["main"](*[tvm.runtime.tensor(a) for a in arrays]).numpy()


def test_size_and_outer():
    x = np.ones((2, 3, 4), "float32")
    mod, got = _run([_var("x", (2, 3, 4))], relax.op.size, x)
    assert got.shape == () and got.dtype == np.int64 and int(got) == 24
    assert 'R.Tensor((), dtype="int64") = R.size(x)' in mod.script()
    a, b = np.arange(3, dtype="float32"), np.arange(4, dtype="float32") + 1
    _, got = _run([_var("a", (3,)), _var("b", (4,))], relax.op.outer, a, b)
    np.testing.assert_array_equal(got, np.outer(a, b))


def test_size_of_a_symbolic_shape():
    n = tir.Var("n", "int64")
    bb = relax.BlockBuilder()
    x = _var("x", (n, 5))
    with bb.function("main", [x]):
        out = bb.emit(relax.op.size(x))
        bb.emit_func_output(out)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    assert int(vm["main"](tvm.runtime.tensor(np.zeros((7, 5), "float32"))).numpy()) == 35


def test_masked_fill_and_ewise_fma():
    x = np.arange(6, dtype="float32").reshape(2, 3)
    mask = np.array([[True, False, True], [False, False, True]])
    _, got = _run(
        [_var("x", (2, 3)), _var("m", (2, 3), "bool")],
        lambda v, m: relax.op.masked_fill(v, m, relax.const(-1.0, "float32")),
        x,
        mask,
    )
    np.testing.assert_array_equal(got, np.where(mask, -1.0, x))
    _, got = _run(
        [_var("a", (2, 3)), _var("b", (2, 3)), _var("c", (2, 3))], relax.op.ewise_fma, x, x, x
    )
    np.testing.assert_array_equal(got, x * x + x)


@pytest.mark.parametrize(("n", "m", "k"), [(3, None, 0), (3, 5, 1), (4, 2, -1)])
def test_eye(n, m, k):
    mod, got = _run([], lambda: relax.op.eye(n, m, k, dtype="int32"))
    np.testing.assert_array_equal(got, np.eye(n, m, k, dtype="int32"))


def test_eye_like():
    x = np.zeros((3, 4), "float32")
    _, got = _run([_var("x", (3, 4))], lambda v: relax.op.eye_like(v, 1), x)
    np.testing.assert_array_equal(got, np.eye(3, 4, 1, dtype="float32"))


def test_bad_input_is_named():
    bb = relax.BlockBuilder()
    x, y = _var("x", (2, 3)), _var("y", (3, 2))
    with bb.function("main", [x, y]):
        with pytest.raises(ValueError, match=r"outer: x1 must be 1-D, got shape \(2, 3\)"):
            bb.emit(relax.op.outer(x, y))
        with pytest.raises(ValueError, match="ewise_fma: the arguments must have one shape"):
            bb.emit(relax.op.ewise_fma(x, y, x))
        with pytest.raises(ValueError, match="eye_like: x must be 2-D"):
            bb.emit(relax.op.eye_like(_var("z", (2, 2, 2))))
        bb.emit_func_output(x)
    with pytest.raises(TypeError, match="eye: n must be an int or PrimExpr, got str"):
        relax.op.eye("3")
