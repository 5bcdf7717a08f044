"""Converters of ONNX's linear quantisation: QuantizeLinear and DequantizeLinear (per tensor,
per axis or per block), DynamicQuantizeLinear, and the integer MatMul / Conv ops, composed from
elementwise ops and int32 matmuls / convolutions."""

from __future__ import annotations

from tvm.relax import op as R

from .common import Node, const, dtype_of, normalize_axis, np_dtype_name
from .ops_elementwise import FLOAT8_MAX, saturate_float8
from .ops_nn import conv_nd
from .registry import converter

_RANGES = {
    "uint8": (0, 255),
    "int8": (-128, 127),
    "uint16": (0, 65535),
    "int16": (-32768, 32767),
    "int32": (-(2**31), 2**31 - 1),
    "uint4": (0, 15),
    "int4": (-8, 7),
    "uint2": (0, 3),
    "int2": (-2, 1),
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
        rep = node.emit(R.repeat(param, block, axis=axis))
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
    node.ignore("block_size", "precision")
    dtype = dtype_of(zp) if zp is not None else (np_dtype_name(out_dtype) if out_dtype else "uint8")
    scaled = R.divide(R.astype(x, "float32"), R.astype(_per_axis(node, scale, x), "float32"))
    if dtype in FLOAT8_MAX:  # rounded by the cast; a float8 zero point is not added
        node.ignore("saturate")
        scaled = node.emit(scaled)
        if node.attr("saturate", 1):
            scaled = saturate_float8(node, scaled, dtype)
        return node.emit(R.astype(scaled, dtype))
    if dtype == "float4_e2m1fn":  # no inf or NaN: the cast itself saturates
        if zp is not None:
            scaled = R.add(scaled, R.astype(_per_axis(node, zp, x), "float32"))
        return node.emit(R.astype(scaled, dtype))
    node.ignore("saturate")
    if dtype not in _RANGES:
        raise node.unsupported(f"quantizing to {dtype}")
    lo, hi = _RANGES[dtype]
    scaled = R.round(scaled)
    if zp is not None:
        scaled = R.add(scaled, R.astype(_per_axis(node, zp, x), "float32"))
    clipped = R.minimum(R.maximum(scaled, const(lo, "float32")), const(hi, "float32"))
    return node.emit(R.astype(clipped, dtype))


def _centered(node: Node, x, zp, zp_axis: int | None = None):
    """x - zero point, in int32; a per-row (per-channel) zero point of shape [n] is laid
    along zp_axis of x."""
    wide = node.emit(R.astype(x, "int32"))
    if zp is None:
        return wide
    zshape = node.static_shape(zp, "zero point")
    zp = R.astype(zp, "int32")
    if zp_axis is not None and len(zshape) == 1 and zshape[0] != 1:
        ndim = len(node.shape(x))
        zp = R.reshape(zp, [-1] + [1] * (ndim - 1 - normalize_axis(node, zp_axis, ndim)))
    return node.emit(R.subtract(wide, zp))


def _check_inputs(node: Node, least: int, most: int) -> None:
    if not least <= len(node.inputs) <= most:
        raise ValueError(
            f"from_onnx: {node.where()} takes {least} to {most} inputs, got {len(node.inputs)}"
        )


@converter("MatMulInteger", since=10)
def _matmul_integer(node: Node):
    """(A - a_zero_point) @ (B - b_zero_point) in int32; a_zero_point may be per row of A."""
    _check_inputs(node, 2, 4)
    a = _centered(node, node.input(0), node.input(2, optional=True), zp_axis=-2)
    b = _centered(node, node.input(1), node.input(3, optional=True))
    return node.emit(R.matmul(a, b))


@converter("ConvInteger", since=10)
def _conv_integer(node: Node):
    """Conv of (x - x_zero_point) by (w - w_zero_point) in int32; w's zero point may be per
    output channel."""
    _check_inputs(node, 2, 4)
    x = _centered(node, node.input(0), node.input(2, optional=True))
    w = _centered(node, node.input(1), node.input(3, optional=True), zp_axis=0)
    return node.emit(conv_nd(node, x, w))


def _requantize(node: Node, acc, ratio, zp, dtype: str):
    """saturate(round(acc * ratio) + zero point) in dtype, computed in float64 as NumPy does
    for an int32 accumulator times a float scale."""
    if dtype not in _RANGES:
        raise node.unsupported(f"quantizing to {dtype}")
    lo, hi = _RANGES[dtype]
    out = R.multiply(R.astype(acc, "float64"), R.astype(ratio, "float64"))
    if zp is not None:
        out = R.add(out, R.astype(zp, "float64"))
    out = R.minimum(R.maximum(R.round(out), const(lo, "float64")), const(hi, "float64"))
    return node.emit(R.astype(out, dtype))


@converter("QLinearMatMul", since=10)
def _qlinear_matmul(node: Node):
    """The int32 product of the centred operands, requantised by a_scale * b_scale / y_scale."""
    _check_inputs(node, 8, 8)
    a_scale, b_scale, y_scale = node.input(1), node.input(4), node.input(6)
    a = _centered(node, node.input(0), node.input(2, optional=True), zp_axis=-2)
    b = _centered(node, node.input(3), node.input(5, optional=True))
    acc = node.emit(R.matmul(a, b))
    scale_dtype = dtype_of(a_scale)
    ratio = R.divide(
        R.multiply(a_scale, R.astype(b_scale, scale_dtype)), R.astype(y_scale, scale_dtype)
    )
    zp = node.input(7, optional=True)
    dtype = dtype_of(zp) if zp is not None else dtype_of(node.input(0))
    return _requantize(node, acc, node.emit(ratio), zp, dtype)


@converter("DynamicQuantizeLinear", since=11)
def _dynamic_quantize(node: Node):
    """uint8 quantisation with the scale and zero point that map [min(0, x), max(0, x)] onto
    [0, 255]: outputs y, y_scale, y_zero_point."""
    _check_inputs(node, 1, 1)
    x = node.input(0)
    if dtype_of(x) != "float32":
        raise node.unsupported(f"DynamicQuantizeLinear of {dtype_of(x)}")
    zero = const(0.0, "float32")
    hi = R.maximum(R.max(x), zero)
    lo = node.emit(R.minimum(R.min(x), zero))
    span = node.emit(R.subtract(hi, lo))
    span = R.where(R.equal(span, zero), const(1.0, "float32"), span)
    scale = node.emit(R.divide(span, const(255.0, "float32")))
    zp = R.subtract(zero, R.divide(lo, scale))
    zp = node.emit(R.round(R.minimum(R.maximum(zp, zero), const(255.0, "float32"))))
    y = R.round(R.divide(x, scale))
    y = R.minimum(R.maximum(R.add(y, zp), zero), const(255.0, "float32"))
    return [node.emit(R.astype(y, "uint8")), scale, node.emit(R.astype(zp, "uint8"))]


@converter("QLinearConv", since=10)
def _qlinear_conv(node: Node):
    """The int32 convolution of the centred operands plus the int32 bias, requantised by
    x_scale * w_scale / y_scale (w_scale and w's zero point may be per output channel)."""
    _check_inputs(node, 8, 9)
    x_scale, w_scale, y_scale = node.input(1), node.input(4), node.input(6)
    x = _centered(node, node.input(0), node.input(2, optional=True))
    w = _centered(node, node.input(3), node.input(5, optional=True), zp_axis=0)
    nsp = len(node.shape(w, "weight")) - 2
    acc = conv_nd(node, x, w)
    bias = node.input(8, optional=True)
    if bias is not None:
        acc = R.add(acc, R.reshape(R.astype(bias, "int32"), [1, -1] + [1] * nsp))
    acc = node.emit(acc)
    scale_dtype = dtype_of(x_scale)
    w_scale = R.astype(w_scale, scale_dtype)
    if len(node.static_shape(node.input(4), "w_scale")) == 1:
        w_scale = R.reshape(w_scale, [1, -1] + [1] * nsp)
    ratio = R.divide(R.multiply(x_scale, w_scale), R.astype(y_scale, scale_dtype))
    zp = node.input(7, optional=True)
    dtype = dtype_of(zp) if zp is not None else dtype_of(node.input(0))
    return _requantize(node, acc, node.emit(ratio), zp, dtype)
