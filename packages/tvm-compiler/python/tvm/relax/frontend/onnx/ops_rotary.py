"""The converter of ONNX RotaryEmbedding: the first rotary_embedding_dim channels of every
head rotated pairwise (halves, or even/odd channels when interleaved) by the cos/sin caches."""

from __future__ import annotations

from tvm.relax import op as R

from .common import Node, dtype_of
from .registry import converter


def _slice(node: Node, x, begin, end, step=1):
    return node.emit(R.strided_slice(x, axes=[3], begin=[begin], end=[end], strides=[step]))


@converter("RotaryEmbedding", since=23)
def _rotary_embedding(node: Node):
    x, cos, sin = node.input(0), node.input(1), node.input(2)
    positions = node.input(3, optional=True)
    interleaved = node.attr("interleaved", 0)
    num_heads = node.attr("num_heads", 0)
    rotary_dim = node.attr("rotary_embedding_dim", 0)
    shape = node.shape(x)
    if len(shape) == 3:  # [B, S, heads * D]: seen as [B, S, heads, D]
        if not num_heads:
            raise ValueError(f"from_onnx: {node.where()}: a 3-D input needs num_heads")
        batch, seq, hidden = shape
        if not isinstance(hidden, int) or hidden % num_heads:
            raise ValueError(
                f"from_onnx: {node.where()}: the hidden size {hidden} is not a multiple of "
                f"num_heads={num_heads}"
            )
        x = node.emit(R.reshape(x, [batch, seq, num_heads, hidden // num_heads]))
        head_axis = 2  # caches [B, S, half] broadcast over the heads at axis 2
    elif len(shape) == 4:  # [B, heads, S, D]
        head_axis = 1
    else:
        raise ValueError(f"from_onnx: {node.where()}: the input must be 3-D or 4-D, got {shape}")
    head_size = node.shape(x)[3]
    rotary_dim = rotary_dim or head_size
    if not isinstance(head_size, int) or rotary_dim > head_size or rotary_dim % 2:
        raise ValueError(
            f"from_onnx: {node.where()}: rotary_embedding_dim {rotary_dim} must be even and at "
            f"most the head size {head_size}"
        )
    half = rotary_dim // 2
    if positions is not None:  # caches [max_position, half] read at each position
        cos = node.emit(R.take(cos, positions, axis=0))
        sin = node.emit(R.take(sin, positions, axis=0))
    if node.shape(cos)[-1] != half or node.shape(sin)[-1] != half:
        raise ValueError(
            f"from_onnx: {node.where()}: the caches' last dimension must be "
            f"rotary_embedding_dim / 2 = {half}, got {node.shape(cos)} and {node.shape(sin)}"
        )
    cos = node.emit(R.expand_dims(cos, [head_axis]))
    sin = node.emit(R.expand_dims(sin, [head_axis]))
    if interleaved:
        x1, x2 = _slice(node, x, 0, rotary_dim, 2), _slice(node, x, 1, rotary_dim, 2)
    else:
        x1, x2 = _slice(node, x, 0, half), _slice(node, x, half, rotary_dim)
    real = node.emit(R.subtract(R.multiply(cos, x1), R.multiply(sin, x2)))
    imag = node.emit(R.add(R.multiply(sin, x1), R.multiply(cos, x2)))
    if interleaved:  # real, imag back at the even and odd channels
        pairs = node.emit(R.concat([R.expand_dims(real, [4]), R.expand_dims(imag, [4])], axis=4))
        rotated = node.emit(R.reshape(pairs, [*node.shape(x)[:3], rotary_dim]))
    else:
        rotated = node.emit(R.concat([real, imag], axis=3))
    if rotary_dim < head_size:
        rotated = node.emit(R.concat([rotated, _slice(node, x, rotary_dim, head_size)], axis=3))
    if dtype_of(rotated) != dtype_of(x):
        rotated = node.emit(R.astype(rotated, dtype_of(x)))
    if len(shape) == 3:
        rotated = node.emit(R.reshape(rotated, shape))
    return rotated
