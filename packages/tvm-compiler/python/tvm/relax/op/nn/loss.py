"""Loss ops: cross_entropy_with_logits and nll_loss (struct info as upstream infers it)."""

from __future__ import annotations

from ...expr import ShapeExpr
from ...struct_info import TensorStructInfo
from .._utils import dim_text, dims_of, op_name, provably_unequal, tensor_arg
from ..base import call_op, register
from ..binary import _out_dtype, _vdevice
from ..op_attrs import Attrs


class NLLLossAttrs(Attrs):
    """nll_loss: reduction, ignore_index."""


def _scalar(dtype, vdevice):
    return TensorStructInfo([], dtype, vdevice)


def _infer_cross_entropy(call, ctx):
    who = op_name(call)
    pred, label = tensor_arg(call, 0, "predictions"), tensor_arg(call, 1, "labels")
    dtype = _out_dtype(who, pred, label, None)
    vdevice = _vdevice(who, pred, label)
    if -1 not in (pred.ndim, label.ndim) and pred.ndim != label.ndim:
        raise ValueError(
            f"{who}: predictions (ndim {pred.ndim}) and labels (ndim {label.ndim}) must have "
            "the same ndim"
        )
    a, b = dims_of(pred), dims_of(label)
    if a is not None and b is not None:
        for i, (x, y) in enumerate(zip(a, b)):
            if provably_unequal(x, y):
                raise ValueError(
                    f"{who}: predictions and labels differ at dim {i} ({dim_text(x)} vs "
                    f"{dim_text(y)}); they must have the same shape"
                )
    return _scalar(dtype, vdevice)


register("nn.cross_entropy_with_logits", _infer_cross_entropy)


def cross_entropy_with_logits(predictions, labels):
    """-sum(predictions * labels), divided by the batch size (axis 0) when predictions has
    more than one axis."""
    return call_op("nn.cross_entropy_with_logits", [predictions, labels])


def _nll_sizes(who, pred, tgt):
    """(N, C, output dims) from the predictions' shape (each None when unknown), checking the
    targets' shape against it."""
    n = c = None
    out = None
    pdims, tdims = dims_of(pred), dims_of(tgt)
    if pdims is not None:
        if len(pdims) == 1:
            c = pdims[0]
        else:
            n, c, out = pdims[0], pdims[1], [pdims[0], *pdims[2:]]
    if tdims is None:
        return n, c, out
    if not tdims:
        if n is not None:
            raise ValueError(f"{who}: predictions have shape (N, C, ...) but targets are a scalar")
        return n, c, out
    if n is not None and provably_unequal(n, tdims[0]):
        raise ValueError(
            f"{who}: the minibatch size N is {dim_text(n)} in predictions but "
            f"{dim_text(tdims[0])} in targets"
        )
    if n is None and c is not None:
        raise ValueError(f"{who}: predictions have shape (C,) but targets are not a scalar")
    if out is not None:
        for k in range(1, len(tdims)):
            if provably_unequal(out[k], tdims[k]):
                raise ValueError(
                    f"{who}: predictions and targets differ at spatial dim {k} "
                    f"({dim_text(out[k])} vs {dim_text(tdims[k])})"
                )
    return n, c, out


def _infer_nll_loss(call, ctx):
    who = op_name(call)
    if len(call.args) not in (2, 3):
        raise ValueError(f"{who}: expected 2 or 3 arguments, got {len(call.args)}")
    pred, tgt = tensor_arg(call, 0, "predictions"), tensor_arg(call, 1, "targets")
    weights = tensor_arg(call, 2, "weights") if len(call.args) == 3 else None
    if weights is not None:
        dtype, vdevice = _out_dtype(who, pred, weights, None), _vdevice(who, pred, weights)
    else:
        dtype, vdevice = pred.dtype, pred.vdevice
    if tgt.dtype != "void" and not tgt.dtype.startswith(("int", "uint")):
        raise TypeError(f"{who}: argument 'targets' must be an int/uint tensor, got {tgt.dtype}")
    k = -1
    if pred.ndim != -1:
        if pred.ndim < 1:
            raise ValueError(f"{who}: predictions must have at least one axis, got a scalar")
        k = max(pred.ndim - 2, 0)
    if tgt.ndim != -1 and k != -1 and k != max(tgt.ndim - 1, 0):
        raise ValueError(
            f"{who}: predictions (ndim {pred.ndim}) and targets (ndim {tgt.ndim}) disagree on "
            "the number of spatial dims"
        )
    if weights is not None and weights.ndim not in (-1, 1):
        raise ValueError(f"{who}: weights must be 1-D, got ndim {weights.ndim}")
    _, c, out = _nll_sizes(who, pred, tgt)
    wdims = None if weights is None else dims_of(weights)
    if c is not None and wdims is not None and provably_unequal(c, wdims[0]):
        raise ValueError(
            f"{who}: the number of classes C is {dim_text(c)} in predictions but "
            f"{dim_text(wdims[0])} in weights"
        )
    if call.attrs.reduction != "none":
        return _scalar(dtype, vdevice)
    if isinstance(pred.shape, ShapeExpr):  # upstream keeps the dims of a literal shape only
        return TensorStructInfo(out or [], dtype, vdevice)
    return TensorStructInfo(
        dtype=dtype, vdevice=vdevice, ndim=-1 if pred.ndim == -1 else pred.ndim - 1
    )


register("nn.nll_loss", _infer_nll_loss)


def nll_loss(predictions, targets, weights=None, reduction: str = "mean", ignore_index: int = -100):
    """The negative log-likelihood loss: -predictions[n, targets[n, ...], ...] * weights[t]
    (0 where the target is ignore_index), reduced by "mean", "sum" or "none"."""
    if reduction not in ("none", "sum", "mean"):
        raise ValueError(
            f"nn.nll_loss: reduction must be 'none', 'mean' or 'sum', got {reduction!r}"
        )
    args = [predictions, targets] + ([] if weights is None else [weights])
    attrs = NLLLossAttrs(reduction=reduction, ignore_index=int(ignore_index))
    return call_op("nn.nll_loss", args, attrs)


__all__ = ["cross_entropy_with_logits", "nll_loss"]
