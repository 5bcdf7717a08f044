"""Rectifiers over te tensors: relu, leaky_relu, prelu, softplus."""

from tvm import te
from tvm.tir import expr as E
from tvm.tir import op as tir_op


def _check_tensor(who, name, value):
    if not isinstance(value, te.Tensor):
        raise TypeError(
            f"topi.nn.{who}: argument {name!r} must be a te.Tensor, got {type(value).__name__}"
        )


def relu(x):
    """max(x, 0) elementwise."""
    _check_tensor("relu", "x", x)
    return te.compute(x.shape, lambda *i: tir_op.max(x[i], te.const(0, x.dtype)), name="T_relu")


def leaky_relu(x, alpha):
    """x where positive, alpha * x elsewhere."""
    _check_tensor("leaky_relu", "x", x)
    zero, slope = te.const(0, x.dtype), te.const(float(alpha), x.dtype)
    return te.compute(
        x.shape, lambda *i: E.Select(x[i] > zero, x[i], x[i] * slope), name="T_leaky_relu"
    )


def prelu(x, slope, axis=1):
    """leaky_relu with slope[c] for channel c of x's axis (slope is 1-D)."""
    _check_tensor("prelu", "x", x)
    _check_tensor("prelu", "slope", slope)
    if len(slope.shape) != 1:
        raise ValueError(f"topi.nn.prelu: slope must be 1-D, got shape {list(slope.shape)}")
    ndim = len(x.shape)
    if not -ndim <= axis < ndim:
        raise ValueError(f"topi.nn.prelu: axis {axis} is out of range for a {ndim}-D x")
    axis %= ndim
    zero = te.const(0, x.dtype)
    single = isinstance(slope.shape[0], E.IntImm) and slope.shape[0].value == 1

    def element(*i):
        s = slope[0] if single else slope[i[axis]]
        return E.Select(x[i] > zero, x[i], x[i] * s)

    return te.compute(x.shape, element, name="T_prelu")


def softplus(x, beta=1.0, threshold=20.0):
    """log(1 + exp(beta * x)) / beta, x itself where beta * x passes threshold (no overflow)."""
    _check_tensor("softplus", "x", x)
    b, limit = te.const(float(beta), x.dtype), te.const(float(threshold), x.dtype)

    def element(*i):
        scaled = x[i] * b
        # log(1 + e^s) as max(s, 0) + log1p(e^-|s|): e^s itself overflows float16 from
        # s = 11.1, below the default threshold of 20.
        zero = te.const(0, x.dtype)
        stable = tir_op.max(scaled, zero) + tir_op.log1p(tir_op.exp(zero - tir_op.abs(scaled)))
        return E.Select(scaled > limit, x[i], stable / b)

    return te.compute(x.shape, element, name="T_softplus")
