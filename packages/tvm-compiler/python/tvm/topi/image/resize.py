"""image.resize2d over te tensors: each output pixel maps back to a source coordinate per axis
(ONNX Resize's coordinate transformation modes), then reads 1, 2 or 4 taps per axis (nearest,
linear, cubic) with edge clamping. Coordinates are computed in float64 so that rounding
matches ONNX's reference."""

from __future__ import annotations

from tvm import te, tir
from tvm.tir import expr as E

_F = "float64"
_LAYOUTS = {"NCHW": (2, 3), "NHWC": (1, 2)}


def _f(value):
    if isinstance(value, E.PrimExpr):
        return value if str(value.dtype) == _F else value.astype(_F)
    return tir.const(float(value), _F)


def source_coordinate(x, in_size, out_size, scale, mode, roi_start=0.0, roi_end=1.0):
    """Where output position x samples the input axis (a float64 PrimExpr); scale is the
    output/input ratio of the axis."""
    x, n_in, n_out, scale = _f(x), _f(in_size), _f(out_size), _f(scale)
    half = tir.const(0.5, _F)
    span = tir.max(scale * n_in - 1, tir.const(1.0, _F))  # ONNX: the unrounded output extent
    if mode == "half_pixel":
        return (x + half) / scale - half
    if mode == "half_pixel_symmetric":
        adjust = n_out / (scale * n_in)
        offset = n_in / 2 * (1 - adjust)
        return offset + (x + half) / scale - half
    if mode == "pytorch_half_pixel":
        return tir.Select(n_out > 1, (x + half) / scale - half, tir.const(0.0, _F))
    if mode == "align_corners":
        return tir.Select(n_out > 1, x * (n_in - 1) / span, tir.const(0.0, _F))
    if mode == "asymmetric":
        return x / scale
    if mode == "tf_half_pixel_for_nn":
        return (x + half) / scale
    if mode == "tf_crop_and_resize":
        start, end = _f(roi_start), _f(roi_end)
        inside = start * (n_in - 1) + x * (end - start) * (n_in - 1) / span
        return tir.Select(n_out > 1, inside, half * (start + end) * (n_in - 1))
    raise ValueError(
        f"topi.image.resize2d: argument 'coordinate_transformation_mode' {mode!r} is unknown"
    )


def _round(v, method):
    half = tir.const(0.5, _F)
    if method == "floor":
        return tir.floor(v)
    if method == "ceil":
        return tir.ceil(v)
    if method == "round_prefer_floor":
        return tir.ceil(v - half)
    if method == "round_prefer_ceil":
        return tir.floor(v + half)
    # "round" (and ""): tir.round, halves to even, as upstream's te.round (nearbyint): a 2x
    # nearest upsample reads 0, 0, 1, 2, 2, 2, 3, 3
    return tir.round(v)


def _clamp(index, in_size):
    itype = str(in_size.dtype) if isinstance(in_size, E.PrimExpr) else "int64"
    index = index.astype(itype)
    return tir.max(tir.min(index, in_size - 1), tir.const(0, itype))


def _cubic_weights(r, alpha):
    a = tir.const(alpha, _F)

    def far(d):  # 1 < d < 2
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a

    def near(d):  # d <= 1
        return ((a + 2) * d - (a + 3)) * d * d + 1

    one = tir.const(1.0, _F)
    return [far(r + one), near(r), near(one - r), far(2 * one - r)]


def _taps(coord, in_size, method, rounding, alpha, exclude):
    """[(index, weight)] read along one axis for source coordinate coord."""
    if method == "nearest_neighbor":
        return [(_clamp(_round(coord, rounding or "round"), in_size), None)]
    base = tir.floor(coord)
    r = coord - base
    if method == "linear":
        return [(_clamp(base, in_size), 1 - r), (_clamp(base + 1, in_size), r)]
    weights = _cubic_weights(r, alpha)
    offsets = [base + k for k in (-1, 0, 1, 2)]
    if exclude:
        n_in = _f(in_size)
        weights = [
            tir.Select(tir.all(o >= 0, o <= n_in - 1), w, tir.const(0.0, _F))
            for o, w in zip(offsets, weights)
        ]
        total = weights[0] + weights[1] + weights[2] + weights[3]
        weights = [w / total for w in weights]
    return [(_clamp(o, in_size), w) for o, w in zip(offsets, weights)]


def resize2d_te(
    data,
    size,
    roi,
    layout,
    method,
    coord_mode,
    rounding,
    alpha,
    exclude,
    extrapolation,
    out_dtype,
    scales=None,
):
    """The resized image; scales (h, w) overrides the output/input ratio the coordinate modes
    divide by (ONNX Resize given scales whose product is not a whole size)."""
    hpos, wpos = _LAYOUTS[layout]
    in_h, in_w = data.shape[hpos], data.shape[wpos]
    out_h, out_w = size
    out_dtype = data.dtype if out_dtype in (None, "void") else out_dtype
    if scales is None:
        scales = (_f(out_h) / _f(in_h), _f(out_w) / _f(in_w))
    shape = list(data.shape)
    shape[hpos], shape[wpos] = out_h, out_w

    def body(*i):
        ch = source_coordinate(i[hpos], in_h, out_h, scales[0], coord_mode, roi[0], roi[2])
        cw = source_coordinate(i[wpos], in_w, out_w, scales[1], coord_mode, roi[1], roi[3])
        rows = _taps(ch, in_h, method, rounding, alpha, exclude)
        cols = _taps(cw, in_w, method, rounding, alpha, exclude)

        def at(row, col):
            idx = list(i)
            idx[hpos], idx[wpos] = row, col
            return data[tuple(idx)]

        if method == "nearest_neighbor":
            value = at(rows[0][0], cols[0][0])
            value = value if str(value.dtype) == out_dtype else value.astype(out_dtype)
        else:
            acc = None
            for row, wr in rows:
                for col, wc in cols:
                    term = at(row, col).astype(_F) * wr * wc
                    acc = term if acc is None else acc + term
            value = acc.astype(out_dtype)
        if coord_mode == "tf_crop_and_resize":
            inside = tir.all(ch >= 0, ch <= _f(in_h) - 1, cw >= 0, cw <= _f(in_w) - 1)
            value = tir.Select(inside, value, tir.const(extrapolation, out_dtype))
        return value

    return te.compute(shape, body, name="resize2d")


_METHODS = ("nearest_neighbor", "linear", "cubic")


def resize2d(
    data,
    roi,
    size,
    layout="NCHW",
    method="linear",
    coordinate_transformation_mode="half_pixel",
    rounding_method="",
    bicubic_alpha=-0.75,
    bicubic_exclude=0,
    extrapolation_value=0.0,
    out_dtype=None,
    output_shape=None,
):
    """data (NCHW or NHWC) resized to size (out_h, out_w): roi (start_h, start_w, end_h,
    end_w) serves tf_crop_and_resize; nearest_neighbor rounds as rounding_method says ("":
    "round" with align_corners, else "floor", as upstream)."""
    if not isinstance(data, te.Tensor) or data.ndim != 4:
        raise ValueError(
            f"topi.image.resize2d: argument 'data' must be a 4-D te.Tensor, got {data!r}"
        )
    if layout not in _LAYOUTS:
        raise ValueError(
            f"topi.image.resize2d: argument 'layout' must be NCHW or NHWC, got {layout!r}"
        )
    if method not in _METHODS:
        raise ValueError(
            f"topi.image.resize2d: argument 'method' must be one of {_METHODS}, got {method!r}"
        )
    size = list(size)
    if len(size) != 2:
        raise ValueError(
            f"topi.image.resize2d: argument 'size' must be (height, width), got {size}"
        )
    roi = [0.0] * 4 if roi is None else list(roi)
    if method == "nearest_neighbor" and rounding_method == "":
        align = coordinate_transformation_mode == "align_corners"
        rounding_method = "round" if align else "floor"
    return resize2d_te(
        data,
        size,
        roi,
        layout,
        method,
        coordinate_transformation_mode,
        rounding_method,
        bicubic_alpha,
        bicubic_exclude,
        extrapolation_value,
        out_dtype,
    )
