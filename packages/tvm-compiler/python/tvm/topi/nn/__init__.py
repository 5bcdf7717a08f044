"""tvm.topi.nn: neural-network operators over te tensors (conv2d, pool2d, dense, ...)."""

from .conv2d import conv2d
from .dense import dense
from .elemwise import leaky_relu, prelu, relu
from .pad import pad
from .pooling import pool2d
from .softmax import softmax

__all__ = ["conv2d", "dense", "leaky_relu", "pad", "pool2d", "prelu", "relu", "softmax"]
