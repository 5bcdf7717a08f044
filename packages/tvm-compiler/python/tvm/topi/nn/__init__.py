"""tvm.topi.nn: neural-network operators over te tensors (relu, softmax, dense)."""

from .dense import dense
from .elemwise import relu
from .softmax import softmax

__all__ = ["dense", "relu", "softmax"]
