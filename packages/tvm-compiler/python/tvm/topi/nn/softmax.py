"""softmax (and log_softmax) along an axis: exp(x - max) / sum(exp(x - max))."""

from tvm import te
from tvm.tir import op as tir_op


def softmax(x, axis=-1):
    """The softmax of x along axis, stabilised by the maximum (as upstream)."""
    return _softmax("softmax", x, axis, tir_op.exp)


def _softmax(who, x, axis, exp):
    if not isinstance(x, te.Tensor):
        raise TypeError(f"topi.nn.{who}: argument 'x' must be a te.Tensor, got {type(x).__name__}")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"topi.nn.{who}: axis {axis} is out of range for {x.ndim} dimensions")
    axis %= x.ndim
    outer = [s for k, s in enumerate(x.shape) if k != axis]

    def at(i, j):
        return tuple(list(i[:axis]) + [j] + list(i[axis:]))

    k1 = te.reduce_axis((0, x.shape[axis]), name="k1")
    maxelem = te.compute(outer, lambda *i: te.max(x[at(i, k1)], axis=k1), name="T_softmax_maxelem")
    k2 = te.reduce_axis((0, x.shape[axis]), name="k2")
    expsum = te.compute(
        outer,
        lambda *i: te.sum(exp(x[at(i, k2)] - maxelem[i]), axis=k2),
        name="T_softmax_expsum",
    )

    def norm(*i):
        rest = i[:axis] + i[axis + 1 :]
        return exp(x[i] - maxelem[rest]) / expsum[rest]

    return te.compute(x.shape, norm, name="T_softmax_norm")


def fast_softmax(x, axis=-1):
    """softmax with exp approximated as topi.fast_exp does (float32)."""
    from ..fast_math import approximate, exp_float32

    return _softmax("fast_softmax", x, axis, approximate(exp_float32, tir_op.exp))


def log_softmax(x, axis=-1):
    """log(softmax(x)) along axis, as x - max - log(sum(exp(x - max)))."""
    if not isinstance(x, te.Tensor):
        raise TypeError(
            f"topi.nn.log_softmax: argument 'x' must be a te.Tensor, got {type(x).__name__}"
        )
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(
            f"topi.nn.log_softmax: axis {axis} is out of range for {x.ndim} dimensions"
        )
    axis %= x.ndim
    outer = [s for k, s in enumerate(x.shape) if k != axis]

    def at(i, j):
        return tuple(list(i[:axis]) + [j] + list(i[axis:]))

    k1 = te.reduce_axis((0, x.shape[axis]), name="k1")
    maxelem = te.compute(outer, lambda *i: te.max(x[at(i, k1)], axis=k1), name="maxelem")
    k2 = te.reduce_axis((0, x.shape[axis]), name="k2")
    expsum = te.compute(
        outer, lambda *i: te.sum(tir_op.exp(x[at(i, k2)] - maxelem[i]), axis=k2), name="expsum"
    )

    def body(*i):
        rest = i[:axis] + i[axis + 1 :]
        return x[i] - maxelem[rest] - tir_op.log(expsum[rest])

    return te.compute(x.shape, body, name="log_softmax")


def softmax_common(x, axis, use_fast_exp):
    """softmax of x along axis (use_fast_exp is accepted: exp is exact here either way)."""
    return softmax(x, axis)
