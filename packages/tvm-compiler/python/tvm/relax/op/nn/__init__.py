"""tvm.relax.op.nn: neural-network ops."""

from .nn import gelu, gelu_tanh, layer_norm, linear, log_softmax, relu, silu, softmax

__all__ = ["gelu", "gelu_tanh", "layer_norm", "linear", "log_softmax", "relu", "silu", "softmax"]
