# relax.op.nn.cross_entropy_with_logits and nll_loss: upstream's struct info, bad input, and
# the legalised values against NumPy references.
import numpy as np
import pytest
import tvm
from tvm import relax, tir


def _var(name, shape, dtype="float32"):
    return relax.Var(name, relax.TensorStructInfo(shape, dtype))


def _sinfo(call):
    return relax.BlockBuilder().normalize(call).struct_info


def _run(params, make, *arrays):
    bb = relax.BlockBuilder()
    with bb.function("main", params):
        out = bb.emit(make(*params))
        bb.emit_func_output(out)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    return vm["main"](*[tvm.runtime.tensor(a) for a in arrays]).numpy()


def _nll_ref(p, t, w, reduction, ignore_index=-100):
    n = p.shape[0]
    picked = np.take_along_axis(p, np.expand_dims(np.where(t == ignore_index, 0, t), 1), 1)
    wt = np.where(t == ignore_index, 0, w[np.where(t == ignore_index, 0, t)])
    loss = -picked[:, 0] * wt
    assert loss.shape[0] == n
    if reduction == "none":
        return loss
    return loss.sum() if reduction == "sum" else loss.sum() / wt.sum()


def test_struct_info():
    m, n = tir.Var("m", "int64"), tir.Var("n", "int64")
    ce = relax.op.nn.cross_entropy_with_logits(_var("x", (m, n)), _var("y", (m, n)))
    assert len(_sinfo(ce).shape.values) == 0 and _sinfo(ce).dtype == "float32"
    x, y = _var("x", (n, 5, 7)), _var("y", (n, 7), "int64")
    out = _sinfo(relax.op.nn.nll_loss(x, y, reduction="none"))
    assert [str(d) for d in out.shape.values] == ["n", "T.int64(7)"]
    assert _sinfo(relax.op.nn.nll_loss(x, y, _var("w", (5,)))).ndim == 0
    assert (
        _sinfo(relax.op.nn.nll_loss(_var("p", (5,)), _var("t", (), "int32"), reduction="none")).ndim
        == 0
    )


def test_bad_input():
    x = _var("x", (3, 5, 10))
    with pytest.raises(
        ValueError, match="nn.cross_entropy_with_logits: predictions and labels differ at dim 1"
    ):
        _sinfo(relax.op.nn.cross_entropy_with_logits(_var("a", (2, 3)), _var("b", (2, 4))))
    with pytest.raises(
        TypeError, match="nn.nll_loss: argument 'targets' must be an int/uint tensor"
    ):
        _sinfo(relax.op.nn.nll_loss(x, _var("t", (3, 10))))
    with pytest.raises(
        ValueError, match="nn.nll_loss: the number of classes C is 5 in predictions but 4"
    ):
        _sinfo(relax.op.nn.nll_loss(x, _var("t", (3, 10), "int64"), _var("w", (4,))))
    with pytest.raises(
        ValueError, match="nn.nll_loss: the minibatch size N is 3 in predictions but 4"
    ):
        _sinfo(relax.op.nn.nll_loss(x, _var("t", (4, 10), "int64")))
    with pytest.raises(
        ValueError, match="nn.nll_loss: reduction must be 'none', 'mean' or 'sum', got 'foo'"
    ):
        relax.op.nn.nll_loss(x, _var("t", (3, 10), "int64"), reduction="foo")


def test_cross_entropy_values():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((4, 6)).astype("float32"), rng.random((4, 6)).astype("float32")
    got = _run([_var("a", (4, 6)), _var("b", (4, 6))], relax.op.nn.cross_entropy_with_logits, a, b)
    np.testing.assert_allclose(got, -(a * b).sum() / 4, rtol=1e-5)
    got = _run(
        [_var("a", (6,)), _var("b", (6,))], relax.op.nn.cross_entropy_with_logits, a[0], b[0]
    )
    np.testing.assert_allclose(got, -(a[0] * b[0]).sum(), rtol=1e-5)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_nll_loss_values(reduction):
    rng = np.random.default_rng(1)
    p = rng.standard_normal((4, 5)).astype("float32")
    t = np.array([0, 4, -100, 2], "int64")
    w = rng.random(5).astype("float32")
    params = [_var("p", (4, 5)), _var("t", (4,), "int64"), _var("w", (5,))]
    got = _run(params, lambda *a: relax.op.nn.nll_loss(*a, reduction=reduction), p, t, w)
    np.testing.assert_allclose(got, _nll_ref(p, t, w, reduction), rtol=1e-5)
    # without weights every class weighs 1
    got = _run(params[:2], lambda *a: relax.op.nn.nll_loss(*a, reduction=reduction), p, t)
    np.testing.assert_allclose(got, _nll_ref(p, t, np.ones(5, "float32"), reduction), rtol=1e-5)
