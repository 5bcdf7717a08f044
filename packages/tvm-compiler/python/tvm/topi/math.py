"""Unary elementwise math operators over te tensors (and reinterpret, a bit cast)."""

from __future__ import annotations

from tvm import te
from tvm.tir import op as tir_op


def _unary(name, fop):
    def operator(x):
        if not isinstance(x, te.Tensor):
            raise TypeError(
                f"topi.{name}: argument 'x' must be a te.Tensor, got {type(x).__name__}"
            )
        return te.compute(x.shape, lambda *i: fop(x[i]), name=f"T_{name}")

    operator.__name__ = name
    operator.__doc__ = f"Elementwise {name} of x."
    return operator


exp = _unary("exp", tir_op.exp)
tanh = _unary("tanh", tir_op.tanh)
sigmoid = _unary("sigmoid", tir_op.sigmoid)


def reinterpret(x, dtype):
    """Each element of x with its bits read as dtype (of the same width), as upstream."""
    if not isinstance(x, te.Tensor):
        raise TypeError(
            f"topi.reinterpret: argument 'x' must be a te.Tensor, got {type(x).__name__}"
        )
    return te.compute(x.shape, lambda *i: tir_op.reinterpret(dtype, x[i]), name="T_reinterpret")
