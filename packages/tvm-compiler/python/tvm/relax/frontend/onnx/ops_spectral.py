"""Converters of ONNX DFT and STFT: a discrete Fourier transform of static length is a
matmul with constant cosine and sine matrices (real and imaginary parts apart)."""

from __future__ import annotations

import numpy as np
from tvm import relax
from tvm.relax import op as R

from .common import Node, const, dtype_of, normalize_axis
from .registry import converter


def _matrices(rows: int, n_fft: int, bins: int, dtype: str, scale: float = 1.0):
    """scale times cos and sin of 2 pi t k / n_fft for t < rows, k < bins, as constants."""
    t = np.arange(rows, dtype="float64")[:, None]
    k = np.arange(bins, dtype="float64")[None, :]
    angle = 2 * np.pi * ((t * k) % n_fft) / n_fft
    return const((np.cos(angle) * scale).astype(dtype)), const(
        (np.sin(angle) * scale).astype(dtype)
    )


def _last(node: Node, x, length: int):
    """x [..., n] cut to its first length entries on the last axis (those the transform
    reads; a shorter x is zero-padded by the matrices having only its rows)."""
    n = node.shape(x)[-1]
    if n > length:
        x = node.emit(R.strided_slice(x, axes=[len(node.shape(x)) - 1], begin=[0], end=[length]))
    return x, min(n, length)


def dft_last_axis(node: Node, re, im, n_fft: int, inverse: bool, onesided: bool):
    """The DFT over the last axis of re + i im (im may be None): (real, imag), imag None for
    an inverse one-sided transform (a real signal). Forward onesided keeps the first
    n_fft // 2 + 1 bins; inverse onesided reads those bins as a Hermitian spectrum."""
    dtype = dtype_of(re)
    if inverse and onesided:  # irfft: x[t] = sum_k w_k (Re X_k cos - Im X_k sin) / n_fft
        bins = n_fft // 2 + 1
        re, rows = _last(node, re, bins)
        weight = np.full(rows, 2.0)
        weight[0] = 1.0
        if n_fft % 2 == 0 and rows > n_fft // 2:
            weight[n_fft // 2] = 1.0
        t = np.arange(n_fft, dtype="float64")[None, :]
        k = np.arange(rows, dtype="float64")[:, None]
        angle = 2 * np.pi * ((t * k) % n_fft) / n_fft
        cos = const((np.cos(angle) * weight[:, None] / n_fft).astype(dtype))
        out = node.emit(R.matmul(re, cos))
        if im is not None:
            im, _ = _last(node, im, bins)
            sin = const((np.sin(angle) * weight[:, None] / n_fft).astype(dtype))
            out = node.emit(R.subtract(out, R.matmul(im, sin)))
        return out, None
    bins = n_fft // 2 + 1 if onesided else n_fft
    re, rows = _last(node, re, n_fft)
    cos, sin = _matrices(rows, n_fft, bins, dtype, 1.0 / n_fft if inverse else 1.0)
    sign = 1.0 if inverse else -1.0  # e^(sign i 2 pi t k / n)
    out_re = node.emit(R.matmul(re, cos))
    out_im = node.emit(R.matmul(re, sin))
    if sign < 0:
        out_im = node.emit(R.negative(out_im))
    if im is not None:
        im, _ = _last(node, im, n_fft)
        # (a + ib)(cos + i sign sin) = a cos - sign b sin + i (sign a sin + b cos)
        im_sin = node.emit(R.matmul(im, sin))
        im_cos = node.emit(R.matmul(im, cos))
        if sign < 0:
            out_re = node.emit(R.add(out_re, im_sin))
        else:
            out_re = node.emit(R.subtract(out_re, im_sin))
        out_im = node.emit(R.add(out_im, im_cos))
    return out_re, out_im


def _parts(node: Node, x):
    """x [..., 1] or [..., 2] as its real part and imaginary part (None for a real x)."""
    shape = node.shape(x)
    ndim = len(shape)
    if shape[-1] == 1:
        return node.emit(R.squeeze(x, [ndim - 1])), None
    if shape[-1] != 2:
        raise ValueError(
            f"from_onnx: {node.where()}: the last axis must be 1 (real) or 2 (complex), got {shape}"
        )
    halves = node.emit(R.split(x, 2, axis=ndim - 1))
    re = node.emit(R.squeeze(relax.TupleGetItem(halves, 0), [ndim - 1]))
    im = node.emit(R.squeeze(relax.TupleGetItem(halves, 1), [ndim - 1]))
    return re, im


def _join(node: Node, re, im):
    parts = [node.emit(R.expand_dims(re, [-1]))]
    if im is not None:
        parts.append(node.emit(R.expand_dims(im, [-1])))
    return parts[0] if len(parts) == 1 else node.emit(R.concat(parts, axis=-1))


def _move(node: Node, x, src: int, dst: int):
    if src == dst:
        return x
    order = list(range(len(node.shape(x))))
    order.insert(dst, order.pop(src))
    return node.emit(R.permute_dims(x, order))


def _dft(node: Node, axis: int):
    x = node.input(0)
    length = node.const_input(1, "dft_length", optional=True)
    inverse = bool(node.attr("inverse", 0))
    onesided = bool(node.attr("onesided", 0))
    shape = node.static_shape(x)
    axis = normalize_axis(node, axis, len(shape))
    if axis == len(shape) - 1:
        raise ValueError(f"from_onnx: {node.where()}: axis {axis} is the real/imaginary axis")
    if length is not None:
        n_fft = int(np.asarray(length).reshape(-1)[0])
    elif inverse and onesided:
        n_fft = 2 * (shape[axis] - 1)
    else:
        n_fft = shape[axis]
    if n_fft < 1:
        raise ValueError(f"from_onnx: {node.where()}: dft_length must be positive, got {n_fft}")
    re, im = _parts(node, x)
    last = len(shape) - 2  # the signal axes' last, once the complex axis is gone
    re, im = _move(node, re, axis, last), (None if im is None else _move(node, im, axis, last))
    out_re, out_im = dft_last_axis(node, re, im, n_fft, inverse, onesided)
    out_re = _move(node, out_re, last, axis)
    out_im = None if out_im is None else _move(node, out_im, last, axis)
    return _join(node, out_re, out_im)


@converter("DFT", since=17)
def _dft17(node: Node):
    return _dft(node, node.attr("axis", 1))


@converter("DFT", since=20)
def _dft20(node: Node):
    axis = node.const_input(2, "axis", optional=True)
    return _dft(node, -2 if axis is None else int(np.asarray(axis).reshape(-1)[0]))


@converter("STFT", since=17)
def _stft(node: Node):
    """[batch, frames, bins, 2]: the DFT of each frame (frame_step apart) times the window."""
    x = node.input(0)
    step = int(np.asarray(node.const_input(1, "frame_step")).reshape(-1)[0])
    window = node.input(2, optional=True)
    frame_length = node.const_input(3, "frame_length", optional=True)
    onesided = bool(node.attr("onesided", 1))
    batch, signal_length, _ = node.static_shape(x)
    if frame_length is not None:
        frame = int(np.asarray(frame_length).reshape(-1)[0])
    elif window is not None:
        frame = node.static_shape(window, "window")[0]
    else:
        frame = signal_length
    if step < 1 or frame < 1 or frame > signal_length:
        raise ValueError(
            f"from_onnx: {node.where()}: frame_step {step} and frame length {frame} do not fit "
            f"a signal of length {signal_length}"
        )
    frames = 1 + (signal_length - frame) // step
    starts = np.arange(frames, dtype="int64")[:, None] * step
    index = const(starts + np.arange(frame, dtype="int64")[None, :])  # [frames, frame]
    re, im = _parts(node, x)  # [batch, signal_length]
    re = node.emit(R.take(re, index, axis=1))  # [batch, frames, frame]
    im = None if im is None else node.emit(R.take(im, index, axis=1))
    if window is not None:
        re = node.emit(R.multiply(re, window))
        im = None if im is None else node.emit(R.multiply(im, window))
    out_re, out_im = dft_last_axis(node, re, im, frame, False, onesided)
    return _join(node, out_re, out_im)
