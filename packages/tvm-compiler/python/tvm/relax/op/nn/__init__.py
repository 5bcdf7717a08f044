"""tvm.relax.op.nn: neural-network ops."""

from .conv import adaptive_avg_pool2d, avg_pool2d, conv2d, max_pool2d
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
    "conv2d",
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
