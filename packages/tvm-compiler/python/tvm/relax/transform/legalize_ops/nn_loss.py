"""Legalisation of the loss ops: cross_entropy_with_logits and nll_loss (to topi.nn.nll_loss;
without weights every class weighs 1; 1-D predictions are one sample of shape (1, C))."""

from __future__ import annotations

from tvm import te, topi

from .common import register_legalize, scalar


def cross_entropy_with_logits_te(x, y):
    prod = te.compute(x.shape, lambda *i: x[i] * y[i], name="product")
    total = topi.sum(prod)
    total = te.compute((), lambda: scalar(0, x.dtype) - total[()], name="neg_sum")
    if len(x.shape) == 1:
        return total
    batch = x.shape[0].astype(x.dtype)
    return te.compute((), lambda: total[()] / batch, name="cross_entropy_with_logits")


@register_legalize("relax.nn.cross_entropy_with_logits")
def _cross_entropy_with_logits(bb, call):
    return bb.call_te(
        cross_entropy_with_logits_te,
        call.args[0],
        call.args[1],
        primfunc_name_hint="cross_entropy_with_logits",
    )


def nll_loss_te(predictions, targets, *weights, reduction="mean", ignore_index=-100):
    if weights:
        (w,) = weights
    else:
        w = topi.full(
            (predictions.shape[0 if len(predictions.shape) == 1 else 1],), predictions.dtype, 1.0
        )
    if len(predictions.shape) == 1:  # (C,) with a scalar target: one sample of (1, C)
        p = topi.reshape(predictions, (1, predictions.shape[0]))
        t = topi.reshape(targets, (1,))
        out = topi.nn.nll_loss(p, t, w, reduction, ignore_index)
        return topi.reshape(out, ()) if reduction == "none" else out
    return topi.nn.nll_loss(predictions, targets, w, reduction, ignore_index)


@register_legalize("relax.nn.nll_loss")
def _nll_loss(bb, call):
    a = call.attrs
    return bb.call_te(
        nll_loss_te,
        *call.args,
        reduction=a.reduction,
        ignore_index=a.ignore_index,
        primfunc_name_hint="nll_loss",
    )
