"""tvm.topi.nn: neural-network operators over te tensors (conv2d, pool2d, dense, ...)."""

# Re-exported, as upstream's topi.nn namespace does.
from ..broadcast import add
from ..transform import concatenate, strided_slice
from ..utils import equal_const_int, get_const_int, get_const_tuple, simplify
from .batch_matmul import batch_matmul, matmul
from .conv2d import conv2d
from .conv_generic import (
    conv,
    conv2d_hwcn,
    conv3d_ncdhw,
    conv3d_ndhwc,
    depthwise_conv2d_nhwc,
    get_pad_tuple3d,
    get_pad_tuple_generic,
    group_conv1d_nwc,
    group_conv2d_nhwc,
)
from .conv_transpose import (
    conv1d_transpose_ncw,
    conv2d_transpose_nchw,
    group_conv1d_transpose_ncw,
    group_conv2d_transpose_nchw,
)
from .conv_variants import (
    conv1d,
    conv1d_ncw,
    conv1d_nwc,
    conv2d_nchw,
    conv2d_nhwc,
    depthwise_conv2d_nchw,
    get_pad_tuple,
    get_pad_tuple1d,
    group_conv1d_ncw,
    group_conv2d_nchw,
)
from .dense import dense
from .elemwise import leaky_relu, prelu, relu, softplus
from .loss import nll_loss
from .norm import batch_norm, group_norm, instance_norm, layer_norm, lrn, rms_norm
from .pad import circular_pad, get_padded_shape, mirror_pad, pad, reflect_pad, replicate_pad
from .pool3d import adaptive_pool3d, pool3d
from .pooling import pool2d
from .pooling_more import adaptive_pool, adaptive_pool1d, global_pool, pool1d
from .reshape import dilate, flatten
from .scale_shift import scale_shift_nchw, scale_shift_nhwc
from .softmax import fast_softmax, log_softmax, softmax, softmax_common
from .space import batch_to_space_nd, depth_to_space, space_to_batch_nd, space_to_depth
from .upsampling import upsampling

__all__ = [
    "conv3d_ndhwc",
    "group_conv1d_transpose_ncw",
    "group_conv2d_transpose_nchw",
    "batch_to_space_nd",
    "space_to_batch_nd",
    "adaptive_pool3d",
    "get_padded_shape",
    "pool3d",
    "softmax_common",
    "conv",
    "conv2d_hwcn",
    "conv3d_ncdhw",
    "depthwise_conv2d_nhwc",
    "get_pad_tuple3d",
    "get_pad_tuple_generic",
    "group_conv1d_nwc",
    "group_conv2d_nhwc",
    "add",
    "concatenate",
    "strided_slice",
    "equal_const_int",
    "get_const_int",
    "get_const_tuple",
    "simplify",
    "conv1d",
    "conv1d_transpose_ncw",
    "conv2d_transpose_nchw",
    "get_pad_tuple1d",
    "group_conv1d_ncw",
    "nll_loss",
    "scale_shift_nchw",
    "scale_shift_nhwc",
    "depth_to_space",
    "space_to_depth",
    "adaptive_pool1d",
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
