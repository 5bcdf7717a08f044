"""tvm.relax.op.nn: neural-network ops."""

from .conv import adaptive_avg_pool2d, avg_pool2d, conv2d, max_pool2d
from .nn import (
    batch_norm,
    dropout,
    gelu,
    gelu_tanh,
    layer_norm,
    linear,
    log_softmax,
    relu,
    silu,
    softmax,
)

__all__ = [
    "adaptive_avg_pool2d",
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
