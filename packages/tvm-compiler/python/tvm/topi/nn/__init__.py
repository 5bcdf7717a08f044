"""tvm.topi.nn: neural-network operators over te tensors (conv2d, pool2d, dense, ...)."""

from .conv2d import conv2d
from .dense import dense
from .elemwise import relu
from .pad import pad
from .pooling import pool2d
from .softmax import softmax

__all__ = ["conv2d", "dense", "pad", "pool2d", "relu", "softmax"]
