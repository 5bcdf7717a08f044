"""Converters of the ONNX ops that write blocks of values back into a larger tensor:
TensorScatter (a KV-cache update), Col2Im (the inverse of im2col: overlapping blocks summed)
and MaxUnpool (pooled values put back at their argmax positions)."""

from __future__ import annotations

import itertools

import numpy as np
from tvm import te
from tvm.relax import op as R

from ._relax_api import tir
from .common import Node, const, dtype_of, normalize_axis
from .registry import converter


def tensor_scatter_te(cache, update, indices, axis: int, circular: bool):
    """te: cache with update's entries along axis written from indices[b] on (per batch b)."""
    max_len, length = cache.shape[axis], update.shape[axis]

    def compute(*i):
        start = indices[i[0]].astype("int64") if indices is not None else tir.const(0, "int64")
        offset = i[axis] - start
        if circular:
            offset = tir.floormod(offset, max_len)
        inside = tir.all(offset >= 0, offset < length)
        src = tir.max(tir.min(offset, length - 1), 0)
        new = update[(*i[:axis], src, *i[axis + 1 :])]
        return tir.Select(inside, new, cache[i])

    return te.compute(cache.shape, compute, name="tensor_scatter")


@converter("TensorScatter", since=24)
def _tensor_scatter(node: Node):
    cache, update = node.input(0), node.input(1)
    indices = node.input(2, optional=True)
    mode = node.attr("mode", "linear")
    if mode not in ("linear", "circular"):
        raise node.unsupported(f"mode={mode!r}")
    shape, up_shape = node.shape(cache), node.shape(update)
    axis = normalize_axis(node, node.attr("axis", -2), len(shape))
    if axis == 0 or len(up_shape) != len(shape):
        raise ValueError(
            f"from_onnx: {node.where()}: past_cache {shape} and update {up_shape} must have one "
            f"rank and the sequence axis ({axis}) must not be the batch axis 0"
        )
    args = [cache, update] + ([indices] if indices is not None else [])
    if indices is None:
        return node.emit_te(
            lambda c, u: tensor_scatter_te(c, u, None, axis, mode == "circular"), *args
        )
    return node.emit_te(tensor_scatter_te, *args, axis=axis, circular=mode == "circular")


def col2im_te(cols, image, block, dilations, pads, strides, channels):
    """te: image [N, C, *image] summing every block column of cols [N, C * prod(block), L]
    at its place (the blocks laid out as a convolution with these parameters visits them)."""
    nsp = len(image)
    counts = [
        (image[k] + pads[k] + pads[k + nsp] - dilations[k] * (block[k] - 1) - 1) // strides[k] + 1
        for k in range(nsp)
    ]
    block_size = int(np.prod(block))

    def compute(n, c, *p):
        total = tir.const(0, cols.dtype)
        for taps in itertools.product(*[range(b) for b in block]):
            col, ok = tir.const(0, "int64"), []
            for k, tap in enumerate(taps):
                pos = p[k] + pads[k] - tap * dilations[k]  # block start * stride
                ok += [pos >= 0, tir.floormod(pos, strides[k]) == 0]
                where = tir.floordiv(pos, strides[k])
                ok.append(where < counts[k])
                col = col * counts[k] + tir.max(tir.min(where, counts[k] - 1), 0)
            flat_tap = 0
            for k, tap in enumerate(taps):
                flat_tap = flat_tap * block[k] + tap
            value = cols[n, c * block_size + flat_tap, col]
            total = total + tir.Select(tir.all(*ok), value, tir.const(0, cols.dtype))
        return total

    shape = [cols.shape[0], channels, *image]
    return te.compute(shape, compute, name="col2im")


@converter("Col2Im", since=18)
def _col2im(node: Node):
    cols = node.input(0)
    image = [int(v) for v in node.const_input(1, "image_shape").reshape(-1)]
    block = [int(v) for v in node.const_input(2, "block_shape").reshape(-1)]
    nsp = len(image)
    dilations = list(node.attr("dilations", [1] * nsp))
    pads = list(node.attr("pads", [0] * (2 * nsp)))
    strides = list(node.attr("strides", [1] * nsp))
    n, rows, length = node.static_shape(cols)
    block_size = int(np.prod(block))
    counts = [
        (image[k] + pads[k] + pads[k + nsp] - dilations[k] * (block[k] - 1) - 1) // strides[k] + 1
        for k in range(nsp)
    ]
    if len(block) != nsp or rows % block_size or int(np.prod(counts)) != length:
        raise ValueError(
            f"from_onnx: {node.where()}: input {[n, rows, length]} does not fit image_shape "
            f"{image} and block_shape {block} (it needs C * {block_size} rows and "
            f"{int(np.prod(counts))} columns)"
        )
    return node.emit_te(
        col2im_te,
        cols,
        image=image,
        block=block,
        dilations=dilations,
        pads=pads,
        strides=strides,
        channels=rows // block_size,
    )


@converter("MaxUnpool", since=9)
def _max_unpool(node: Node):
    """Zeros of the output shape with X's values scattered at their flat indices I."""
    x, indices = node.input(0), node.input(1)
    shape = node.static_shape(x)
    nsp = len(shape) - 2
    kernel = list(node.attr("kernel_shape"))
    strides = list(node.attr("strides", [1] * nsp))
    pads = list(node.attr("pads", [0] * (2 * nsp)))
    given = node.const_input(2, "output_shape", optional=True)
    inferred = shape[:2] + [
        (shape[2 + k] - 1) * strides[k] - pads[k] - pads[k + nsp] + kernel[k] for k in range(nsp)
    ]
    out_shape = inferred if given is None else [int(v) for v in given.reshape(-1)]
    if len(out_shape) != len(shape) or any(o < i for o, i in zip(out_shape, inferred)):
        raise ValueError(
            f"from_onnx: {node.where()}: output_shape {out_shape} is smaller than the unpooled "
            f"shape {inferred}"
        )
    flat = node.emit(R.reshape(x, [-1]))
    where = node.emit(R.reshape(R.astype(indices, "int64"), [-1]))
    zeros = const(np.zeros(int(np.prod(inferred)), dtype=dtype_of(x)))
    out = node.emit(R.reshape(R.scatter_elements(zeros, where, flat, axis=0), inferred))
    # a larger output_shape: the unpooled values at its origin, zeros after them (the reference)
    current = list(inferred)
    for axis, (want, have) in enumerate(zip(out_shape, inferred)):
        if want > have:
            filler = [*current[:axis], want - have, *current[axis + 1 :]]
            zero = const(np.zeros(filler, dtype=dtype_of(x)))
            out = node.emit(R.concat([out, zero], axis=axis))
            current[axis] = want
    return out
