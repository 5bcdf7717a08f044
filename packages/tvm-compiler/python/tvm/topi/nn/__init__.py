"""tvm.topi.nn: neural-network operators over te tensors (conv2d, pool2d, dense, ...)."""

from .conv2d import conv2d
from .dense import dense
from .elemwise import leaky_relu, prelu, relu, softplus
from .norm import batch_norm, group_norm, instance_norm, layer_norm, lrn, rms_norm
from .pad import pad
from .pooling import pool2d
from .softmax import fast_softmax, log_softmax, softmax

__all__ = [
    "batch_norm",
    "conv2d",
    "dense",
    "fast_softmax",
    "group_norm",
    "instance_norm",
    "layer_norm",
    "leaky_relu",
    "log_softmax",
    "lrn",
    "pad",
    "pool2d",
    "prelu",
    "relu",
    "rms_norm",
    "softmax",
    "softplus",
]
