# The C backend's And/Or: branch-free (& and |) when neither side can fault, so a padding test
# around a load leaves the loop vectorisable; short-circuit (&& and ||) when a side loads.
import numpy as np
import tvm
from tvm import te, tir


def _source(func):
    return tvm.compile(func).inspect_source()


def test_pure_conditions_use_bitwise_operators_and_keep_their_value():
    a = te.placeholder((10,), name="A")
    padded = te.compute(
        (14,),
        lambda i: tir.if_then_else(tir.all(i >= 2, i < 12), a[i - 2], tir.const(-1.0, "float32")),
        name="P",
    )
    func = te.create_prim_func([a, padded])
    src = _source(func)
    assert "((i >= 2) & (i < 12))" in src.replace("(int64_t)", "")
    x = np.arange(10, dtype="float32")
    out = np.zeros(14, "float32")
    tvm.compile(func)(x, out)
    np.testing.assert_array_equal(out, np.pad(x, 2, constant_values=-1.0))


def test_a_condition_that_loads_keeps_short_circuit_evaluation():
    a = te.placeholder((8,), name="A")
    b = te.compute(
        (8,),
        lambda i: tir.if_then_else(tir.Or(i >= 8, a[i] > 0.0), a[i], tir.const(0.0, "float32")),
        name="B",
    )
    src = _source(te.create_prim_func([a, b]))
    assert " || " in src
