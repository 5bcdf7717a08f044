"""tvm.relax.op.nn: neural-network ops."""

from .conv import adaptive_avg_pool2d, avg_pool2d, conv2d, max_pool2d
from .conv_more import conv1d, conv2d_transpose
from .nn import (
    attention,
    batch_norm,
    dropout,
    gelu,
    gelu_tanh,
    group_norm,
    layer_norm,
    linear,
    log_softmax,
    pad,
    relu,
    rms_norm,
    silu,
    softmax,
)

__all__ = [
    "adaptive_avg_pool2d",
    "attention",
    "group_norm",
    "pad",
    "rms_norm",
    "avg_pool2d",
    "batch_norm",
    "conv1d",
    "conv2d",
    "conv2d_transpose",
    "dropout",
    "gelu",
    "gelu_tanh",
    "layer_norm",
    "linear",
    "log_softmax",
    "max_pool2d",
    "relu",
    "silu",
    "softmax",
]
