# A reduction over an axis of extent 0 gives the identity (or its init), as NumPy does: its
# loop never ran the block's init, so the output held whatever memory it was given.
import numpy as np
import pytest
import tvm
from tvm import relax, te


def _run_relax(make, *arrays):
    bb = relax.BlockBuilder()
    params = [
        relax.Var(f"x{k}", relax.TensorStructInfo(a.shape, "float32")) for k, a in enumerate(arrays)
    ]
    with bb.function("main", params):
        out = bb.emit(make(*params))
        bb.emit_func_output(out)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    return vm["main"](*[tvm.runtime.tensor(a) for a in arrays]).numpy()


EMPTY = np.zeros((3, 0), "float32")


@pytest.mark.parametrize(
    ("op", "expected"),
    [("sum", 0.0), ("prod", 1.0), ("max", -np.inf), ("min", np.inf)],
)
def test_relax_reductions_over_an_empty_axis(op, expected):
    got = _run_relax(lambda x: getattr(relax.op, op)(x, axis=1), EMPTY)
    np.testing.assert_array_equal(got, np.full(3, expected, "float32"))


def test_mean_of_nothing_is_nan_and_matmul_over_nothing_is_zero():
    assert np.isnan(_run_relax(lambda x: relax.op.mean(x, axis=1), EMPTY)).all()
    got = _run_relax(relax.op.matmul, EMPTY, np.zeros((0, 4), "float32"))
    np.testing.assert_array_equal(got, np.zeros((3, 4), "float32"))


def test_te_sum_with_init_over_an_empty_axis_is_the_init():
    a = te.placeholder((3, 0), "float32", name="A")
    k = te.reduce_axis((0, 0), name="k")
    b = te.compute((3,), lambda i: te.sum(a[i, k], axis=k, init=7.0), name="B")
    f = tvm.compile(te.create_prim_func([a, b]), target="llvm")
    out = tvm.runtime.tensor(np.full(3, -1.0, "float32"))
    f["main"](tvm.runtime.tensor(EMPTY), out)
    np.testing.assert_array_equal(out.numpy(), [7.0, 7.0, 7.0])
