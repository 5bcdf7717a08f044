# A cast to bool in the C backend is "nonzero" (NaN included), as NumPy's astype(bool) has it.
import numpy as np
import pytest
import tvm
from tvm import relax, te


@pytest.mark.parametrize("src", ["float32", "float64", "float16", "int32", "int64", "uint8"])
def test_cast_to_bool_is_nonzero_like_numpy(src):
    # The value was converted to an integer and stored in the bool byte: 0.3 and NaN gave
    # False, and 256 wrapped to 0.
    values = [0, 1, 2, 255, 256, -1, 0.3, -0.5, np.inf, -np.inf, np.nan, -0.0, 1e10, 2**40]
    if src.startswith(("int", "uint")):
        info = np.iinfo(src)
        values = [int(v) for v in values if np.isfinite(v) and float(v).is_integer()]
        values = [v for v in values if info.min <= v <= info.max]
    with np.errstate(over="ignore", invalid="ignore"):
        x = np.array(values, "float64").astype(src)
    a = te.placeholder((len(x),), src, name="A")
    b = te.compute(a.shape, lambda i: a[i].astype("bool"), name="B")
    out = np.zeros(len(x), "bool")
    tvm.compile(te.create_prim_func([a, b]))(x, out)
    np.testing.assert_array_equal(out, x.astype(bool))
    assert out.view(np.uint8).max(initial=0) <= 1  # a true bool byte holds 1


def test_relax_astype_to_bool_is_nonzero():
    x = np.array([0.3, np.nan, 256.0, 0.0, -0.0, -2.5], "float32")
    bb = relax.BlockBuilder()
    v = relax.Var("x", relax.TensorStructInfo(x.shape, "float32"))
    with bb.function("main", [v]):
        bb.emit_func_output(bb.emit(relax.op.astype(v, "bool")))
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    got = vm["main"](tvm.runtime.tensor(x)).numpy()
    np.testing.assert_array_equal(got, [True, True, True, False, False, True])
