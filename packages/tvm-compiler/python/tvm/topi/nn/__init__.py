"""tvm.topi.nn: neural-network operators over te tensors (conv2d, pool2d, dense, ...)."""

from .batch_matmul import batch_matmul, matmul
from .conv2d import conv2d
from .conv_variants import (
    conv1d_ncw,
    conv1d_nwc,
    conv2d_nchw,
    conv2d_nhwc,
    depthwise_conv2d_nchw,
    get_pad_tuple,
    group_conv2d_nchw,
)
from .dense import dense
from .elemwise import leaky_relu, prelu, relu, softplus
from .norm import batch_norm, group_norm, instance_norm, layer_norm, lrn, rms_norm
from .pad import circular_pad, mirror_pad, pad, reflect_pad, replicate_pad
from .pooling import pool2d
from .pooling_more import adaptive_pool, global_pool, pool1d
from .reshape import dilate, flatten
from .softmax import fast_softmax, log_softmax, softmax
from .upsampling import upsampling

__all__ = [
    "adaptive_pool",
    "batch_matmul",
    "batch_norm",
    "circular_pad",
    "conv1d_ncw",
    "conv1d_nwc",
    "conv2d",
    "conv2d_nchw",
    "conv2d_nhwc",
    "dense",
    "depthwise_conv2d_nchw",
    "dilate",
    "fast_softmax",
    "flatten",
    "get_pad_tuple",
    "global_pool",
    "group_conv2d_nchw",
    "group_norm",
    "instance_norm",
    "layer_norm",
    "leaky_relu",
    "log_softmax",
    "lrn",
    "matmul",
    "mirror_pad",
    "pad",
    "pool1d",
    "pool2d",
    "prelu",
    "reflect_pad",
    "relu",
    "replicate_pad",
    "rms_norm",
    "softmax",
    "softplus",
    "upsampling",
]
