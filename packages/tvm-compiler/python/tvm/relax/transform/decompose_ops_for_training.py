"""DecomposeOpsForTraining: composite ops become the simple ops training computes:
batch_norm normalises with the batch's own mean and variance and returns the moving
statistics updated by momentum; layer_norm becomes mean, variance and arithmetic."""

from __future__ import annotations

from tvm.ir.op import Op

from ..expr import Tuple
from ..expr_functor import ExprMutator
from .decompose_ops import _expand_to_input, decompose_pass


def _batch_norm_training(call, bb):
    from .. import op as R
    from ..expr import const
    from ..op._utils import normalize_axis

    data, gamma, beta, moving_mean, moving_var = call.args
    sinfo = data.struct_info
    ndim = sinfo.ndim
    axis = normalize_axis("nn.batch_norm", call.attrs.axis, ndim)
    reduce_axes = [i for i in range(ndim) if i != axis]
    # bound once: both the normalisation and the moving statistics read them
    batch_mean = bb.emit(R.mean(data, reduce_axes, keepdims=False))
    batch_var = bb.emit(R.variance(data, reduce_axes, keepdims=False))
    eps = const(call.attrs.epsilon, sinfo.dtype)
    out = R.divide(
        R.subtract(data, _expand_to_input(batch_mean, ndim, axis)),
        R.sqrt(R.add(_expand_to_input(batch_var, ndim, axis), eps)),
    )
    if call.attrs.scale:
        out = R.multiply(out, _expand_to_input(gamma, ndim, axis))
    if call.attrs.center:
        out = R.add(out, _expand_to_input(beta, ndim, axis))
    momentum = float(call.attrs.momentum)
    keep = const(1.0 - momentum, sinfo.dtype)
    take = const(momentum, sinfo.dtype)
    new_mean = R.add(R.multiply(keep, moving_mean), R.multiply(take, batch_mean))
    new_var = R.add(R.multiply(keep, moving_var), R.multiply(take, batch_var))
    return Tuple([out, new_mean, new_var])


def _layer_norm(call, bb):
    from .. import op as R
    from ..expr import const

    data, gamma, beta = call.args
    sinfo = data.struct_info
    ndim = sinfo.ndim
    axes = sorted(int(a) % ndim for a in call.attrs.axes)
    if axes != list(range(ndim - len(axes), ndim)):
        return None  # gamma and beta broadcast over the trailing axes only
    mean = R.mean(data, list(call.attrs.axes), keepdims=True)
    var = R.variance(data, list(call.attrs.axes), keepdims=True)
    eps = const(call.attrs.epsilon, sinfo.dtype)
    out = R.divide(R.subtract(data, mean), R.sqrt(R.add(var, eps)))
    if call.attrs.scale:
        out = R.multiply(out, gamma)
    if call.attrs.center:
        out = R.add(out, beta)
    return out


_TRAINING = {"relax.nn.batch_norm": _batch_norm_training, "relax.nn.layer_norm": _layer_norm}


class _Decomposer(ExprMutator):
    def visit_Call(self, call):  # noqa: N802  (dispatch names follow the node class)
        call = super().visit_Call(call)
        if not isinstance(call.op, Op) or call.op.name not in _TRAINING:
            return call
        call = self.builder_.normalize(call)
        if call.args[0].struct_info.ndim < 0:
            return call  # rank unknown: which axes to reduce is not known
        new = _TRAINING[call.op.name](call, self.builder_)
        return call if new is None else new


def DecomposeOpsForTraining(func_name: str | None = None):  # noqa: N802
    """Decompose composite ops as training computes them (relax.transform
    .DecomposeOpsForTraining); func_name limits it to one function."""
    return decompose_pass("DecomposeOpsForTraining", _Decomposer, func_name)
