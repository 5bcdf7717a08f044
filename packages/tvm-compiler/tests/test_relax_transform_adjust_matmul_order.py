# relax.transform.AdjustMatmulOrder: which products are reordered (only when provably cheaper;
# each case is what apache-tvm 0.27 does with the same shapes) and that values do not change.
import numpy as np
import pytest
import tvm
from tvm import relax, tir
from tvm.relax.transform import AdjustMatmulOrder

n = tir.Var("n", "int64")
m = tir.Var("m", "int64")
LEFT = ["R.matmul(x, A", "R.matmul(lv, B"]  # (x @ A) @ B
RIGHT = ["R.matmul(A, B", "R.matmul(x, lv"]  # x @ (A @ B)


def _build(xs, a_shape, b_shape, form):
    x = relax.Var("x", relax.TensorStructInfo(xs, "float32"))
    a = relax.Var("A", relax.TensorStructInfo(a_shape, "float32"))
    b = relax.Var("B", relax.TensorStructInfo(b_shape, "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, a, b]):
        with bb.dataflow():
            if form == "right":
                ab = bb.emit(relax.op.matmul(a, b))
                out = bb.emit_output(relax.op.matmul(x, ab))
            else:
                xa = bb.emit(relax.op.matmul(x, a))
                out = bb.emit_output(relax.op.matmul(xa, b))
        bb.emit_func_output(out)
    return bb.get()


def _form(mod):
    calls = [
        ln.strip().split("= ")[1] for ln in mod["main"].script().splitlines() if "matmul" in ln
    ]
    if all(c.startswith(p) for c, p in zip(calls, LEFT)):
        return "left"
    assert all(c.startswith(p) for c, p in zip(calls, RIGHT)), calls
    return "right"


@pytest.mark.parametrize(
    "xs, a_shape, b_shape, given, expected",
    [
        ((1, 4096), (4096, 16), (16, 4096), "right", "left"),  # LoRA: cheaper left
        ((1, 4096), (4096, 16), (16, 4096), "left", "left"),
        ((4096, 16), (16, 4096), (4096, 4096), "left", "right"),
        ((8, 32), (32, 32), (32, 32), "right", "left"),
        ((32, 32), (32, 32), (32, 32), "right", "right"),  # a tie: left alone
        ((32, 32), (32, 32), (32, 32), "left", "left"),
        ((2, 8, 32), (32, 4), (4, 32), "right", "left"),  # batched
        ((8, 32), (2, 32, 4), (4, 32), "right", "left"),
        ((n, 4096), (4096, 16), (16, 4096), "right", "left"),  # cheaper for every n >= 0
        ((n, 32), (32, m), (m, 32), "right", "right"),  # depends on n and m: left alone
        ((n, 32), (32, m), (m, 32), "left", "left"),
    ],
)
def test_order(xs, a_shape, b_shape, given, expected):
    mod = _build(xs, a_shape, b_shape, given)
    out = AdjustMatmulOrder()(mod)
    assert _form(out) == expected
    assert (out is mod) == (given == expected)
    assert relax.analysis.well_formed(out)
    assert len(out["main"].body.blocks[0].bindings) == 2  # the old intermediate is gone


def test_values_do_not_change():
    mod = _build((3, 64), (64, 4), (4, 64), "right")
    out = AdjustMatmulOrder()(mod)
    assert _form(out) == "left"
    rng = np.random.default_rng(0)
    args = [rng.standard_normal(s).astype("float32") for s in ((3, 64), (64, 4), (4, 64))]
    results = []
    for m_ in (mod, out):
        vm = relax.VirtualMachine(tvm.compile(m_, target="llvm"), tvm.cpu())
        results.append(vm["main"](*args).numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-4, atol=1e-4)
