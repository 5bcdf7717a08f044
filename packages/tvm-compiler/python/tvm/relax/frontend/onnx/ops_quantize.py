"""Converters of ONNX's linear quantisation: QuantizeLinear and DequantizeLinear, per tensor,
per axis or per block, composed from elementwise ops."""

from __future__ import annotations

from tvm.relax import op as R

from . import te_fallbacks
from .common import Node, const, dtype_of, normalize_axis, np_dtype_name
from .registry import converter
from .te_fallbacks import op_or_te

_RANGES = {
    "uint8": (0, 255),
    "int8": (-128, 127),
    "uint16": (0, 65535),
    "int16": (-32768, 32767),
    "int32": (-(2**31), 2**31 - 1),
}


def _per_axis(node: Node, param, x, axis_attr_default=1):
    """A scale or zero point shaped to broadcast against x: scalar, along axis, or blocked."""
    pshape = node.static_shape(param, "scale")
    if len(pshape) == 0 or (len(pshape) == 1 and pshape[0] == 1):
        node.ignore("axis")  # a per-tensor scale has no axis
        return param
    ndim = len(node.shape(x))
    axis = normalize_axis(node, node.attr("axis", axis_attr_default), ndim)
    block = node.attr("block_size", 0) if node.opset >= 21 else 0
    if block:
        # one value per block of `block` elements along axis: repeat it over the block
        rep = op_or_te(node, "repeat", te_fallbacks.repeat, param, block, axis=axis)
        dim = node.static_shape(x)[axis]
        if node.static_shape(rep)[axis] != dim:
            rep = node.emit(R.strided_slice(rep, axes=[axis], begin=[0], end=[dim]))
        return rep
    if len(pshape) != 1:
        raise ValueError(f"from_onnx: {node.where()}: a scale of shape {pshape} without block_size")
    return node.emit(R.reshape(param, [-1] + [1] * (ndim - axis - 1)))


@converter("DequantizeLinear", since=10)
def _dequantize(node: Node):
    x, scale = node.input(0), node.input(1)
    zp = node.input(2, optional=True)
    out_dtype = node.attr("output_dtype", 0) if node.opset >= 23 else 0
    dtype = np_dtype_name(out_dtype) if out_dtype else dtype_of(scale)
    node.ignore("block_size")
    scale_b = _per_axis(node, scale, x)
    wide = R.astype(x, "float32")
    if zp is not None:
        wide = R.subtract(wide, R.astype(_per_axis(node, zp, x), "float32"))
    out = R.multiply(wide, R.astype(scale_b, "float32"))
    return node.emit(R.astype(out, dtype) if dtype != "float32" else out)


@converter("QuantizeLinear", since=10)
def _quantize(node: Node):
    x, scale = node.input(0), node.input(1)
    zp = node.input(2, optional=True)
    out_dtype = node.attr("output_dtype", 0) if node.opset >= 21 else 0
    node.ignore("saturate", "block_size", "precision")
    dtype = dtype_of(zp) if zp is not None else (np_dtype_name(out_dtype) if out_dtype else "uint8")
    if dtype not in _RANGES:
        raise node.unsupported(f"quantizing to {dtype}")
    lo, hi = _RANGES[dtype]
    scaled = R.round(
        R.divide(R.astype(x, "float32"), R.astype(_per_axis(node, scale, x), "float32"))
    )
    if zp is not None:
        scaled = R.add(scaled, R.astype(_per_axis(node, zp, x), "float32"))
    clipped = R.minimum(R.maximum(scaled, const(lo, "float32")), const(hi, "float32"))
    return node.emit(R.astype(clipped, dtype))
