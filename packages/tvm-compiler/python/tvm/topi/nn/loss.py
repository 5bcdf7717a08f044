"""nll_loss: the negative log-likelihood of targets under log-probability predictions."""

from __future__ import annotations

from tvm import te
from tvm.tir import expr as E
from tvm.tir import op as T


def nll_loss(predictions, targets, weights, reduction, ignore_index):
    """-predictions[n, t, ...] * weights[t] for each target t (0 where t is ignore_index),
    reduced by "mean" (divided by the weights counted), "sum" or "none"."""
    for name, t in (("predictions", predictions), ("targets", targets), ("weights", weights)):
        if not isinstance(t, te.Tensor):
            raise TypeError(f"topi.nn.nll_loss: argument {name!r} must be a te.Tensor, got {t!r}")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(
            f"topi.nn.nll_loss: argument 'reduction' must be 'mean', 'sum' or 'none', got "
            f"{reduction!r}"
        )
    if predictions.ndim != targets.ndim + 1:
        raise ValueError("topi.nn.nll_loss: predictions must have one more axis (C) than targets")
    dtype = predictions.dtype
    zero = E.const(0.0, dtype)

    def pick(*i):
        t = targets[i]
        kept = t != E.const(ignore_index, t.dtype)
        safe = T.if_then_else(kept, t, E.const(0, t.dtype))
        value = predictions[(i[0], safe) + tuple(i[1:])]
        return T.if_then_else(kept, zero - value * weights[safe], zero)

    def weight(*i):
        t = targets[i]
        kept = t != E.const(ignore_index, t.dtype)
        return T.if_then_else(kept, weights[T.if_then_else(kept, t, E.const(0, t.dtype))], zero)

    loss = te.compute(targets.shape, pick, name="nll_loss")
    if reduction == "none":
        return loss
    raxes = [te.reduce_axis((0, e), name=f"r{k}") for k, e in enumerate(targets.shape)]
    total = te.compute(
        (), lambda: te.sum(loss[tuple(r.var for r in raxes)], axis=raxes), name="nll_loss_sum"
    )
    if reduction == "sum":
        return total
    waxes = [te.reduce_axis((0, e), name=f"w{k}") for k, e in enumerate(targets.shape)]
    wsum = te.compute(
        (), lambda: te.sum(weight(*[r.var for r in waxes]), axis=waxes), name="nll_loss_weights"
    )
    return te.compute((), lambda: total[()] / wsum[()], name="nll_loss_mean")
