"""relu over a te tensor."""

from tvm import te
from tvm.tir import op as tir_op


def relu(x):
    """max(x, 0) elementwise."""
    if not isinstance(x, te.Tensor):
        raise TypeError(f"topi.nn.relu: argument 'x' must be a te.Tensor, got {type(x).__name__}")
    return te.compute(x.shape, lambda *i: tir_op.max(x[i], te.const(0, x.dtype)), name="T_relu")
