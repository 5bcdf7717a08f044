"""Converters of ONNX's window functions (HannWindow, HammingWindow, BlackmanWindow, opset
17): cosine sums over a length that is a scalar input, constant or known only at run time."""

from __future__ import annotations

import math

from tvm.relax import op as R

from .common import Node, const_value, np_dtype_name, symbolic_length
from .registry import converter

# cos(k * 2 pi n / N) coefficients of each window, k = 0, 1, 2
_COEFFS = {
    "HannWindow": (0.5, -0.5, 0.0),
    "HammingWindow": (25 / 46, -21 / 46, 0.0),
    "BlackmanWindow": (0.42, -0.5, 0.08),
}


def _size_te(x):
    from tvm import te

    return te.compute((1,), lambda _: x[()].astype("int64"), name="window_size")


def _window_te(shape, coeffs, periodic, dtype):
    from tvm import te, tir

    (n,) = shape
    denom = n.astype("float64") if periodic else (n - 1).astype("float64")

    def at(i):
        phase = tir.const(2 * math.pi, "float64") * i.astype("float64") / denom
        value = tir.const(coeffs[0], "float64")
        for k, c in enumerate(coeffs[1:], start=1):
            if c:
                value = value + tir.const(c, "float64") * tir.cos(phase * k)
        return value.astype(dtype)

    return te.compute((n,), at, name="window")


@converter("HannWindow", "HammingWindow", "BlackmanWindow", since=17)
def _window(node: Node):
    from tvm import relax

    size = node.input(0)
    dtype = np_dtype_name(node.attr("output_datatype", 1))
    periodic = bool(node.attr("periodic", 1))
    known = const_value(size)
    if known is not None:
        shape = relax.ShapeExpr([int(known.reshape(-1)[0])])
    else:
        count = node.emit_te(_size_te, node.emit(R.reshape(size, [])))
        shape = symbolic_length(node, count, "window_n")
    return node.emit_te(_window_te, shape, _COEFFS[node.op_type], periodic, dtype)
