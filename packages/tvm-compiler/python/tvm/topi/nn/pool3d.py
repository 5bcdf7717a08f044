"""pool3d and adaptive_pool3d over NCDHW data (max or avg), as pool2d does in 2-D."""

from __future__ import annotations

from tvm import te
from tvm.arith import Analyzer
from tvm.tir import expr as E
from tvm.tir import op as T
from tvm.tir.op import min_value

from .pad import pad


def _check(who, data, layout, pool_type):
    if not isinstance(data, te.Tensor) or data.ndim != 5:
        raise ValueError(f"topi.nn.{who}: argument 'data' must be a 5-D te.Tensor")
    if layout != "NCDHW":
        raise ValueError(f"topi.nn.{who}: argument 'layout' must be 'NCDHW', got {layout!r}")
    if pool_type not in ("max", "avg"):
        raise ValueError(
            f"topi.nn.{who}: argument 'pool_type' must be 'max' or 'avg', got {pool_type!r}"
        )


def pool3d(
    data,
    kernel,
    stride,
    dilation,
    padding,
    pool_type,
    ceil_mode=False,
    layout="NCDHW",
    count_include_pad=True,
):
    """Max or average over 3-D windows; padding is (front, top, left, back, bottom, right).
    An average divides by the taps inside data (and its declared padding when
    count_include_pad); ceil_mode rounds the output up."""
    _check("pool3d", data, layout, pool_type)
    k, s, d = (list(v) for v in (kernel, stride, dilation))
    begin, end = list(padding[:3]), list(padding[3:])
    extra = [st - 1 if ceil_mode else 0 for st in s]
    spatial = list(data.shape[2:])
    value = min_value(data.dtype).value if pool_type == "max" else 0.0
    padded = pad(
        data,
        [0, 0, *begin],
        [0, 0, *(e + x for e, x in zip(end, extra))],
        value,
        name="pad_temp",
    )
    out = [
        Analyzer().simplify(E.FloorDiv(n + b + e + x - (kk - 1) * dd - 1, st) + 1)
        for n, b, e, x, kk, dd, st in zip(spatial, begin, end, extra, k, d, s)
    ]
    r = [te.reduce_axis((0, kk), name=f"r{a}") for a, kk in zip("dhw", k)]

    def window(b, c, *o):
        return padded[(b, c, *(oo * st + rr * dd for oo, st, rr, dd in zip(o, s, r, d)))]

    shape = (data.shape[0], data.shape[1], *out)
    if pool_type == "max":
        return te.compute(shape, lambda *i: te.max(window(*i), axis=r), name="pool_max")
    total = te.compute(shape, lambda *i: te.sum(window(*i), axis=r), name="pool_sum")

    def taps(o, n, kk, st, dd, b, e):
        first = o * st - b
        last = first + (kk - 1) * dd
        if count_include_pad:
            lo, hi = -b, n + e - 1
        else:
            lo, hi = 0, n - 1
        # The taps first + j * dd inside [lo, hi].
        start = T.max(first, lo)
        j0 = E.FloorDiv(start - first + dd - 1, dd)
        j1 = E.FloorDiv(T.min(last, hi) - first, dd)
        return T.max(j1 - j0 + 1, 1)

    def avg(bb, c, *o):
        count = 1
        for oo, n, kk, st, dd, b, e in zip(o, spatial, k, s, d, begin, end):
            count = count * taps(oo, n, kk, st, dd, b, e)
        return total[(bb, c, *o)] / count.astype(data.dtype)

    return te.compute(shape, avg, name="pool_avg")


def adaptive_pool3d(data, output_size, pool_type, layout="NCDHW"):
    """Max or average of NCDHW data over output_size windows (floor to ceil of i * n / o)."""
    _check("adaptive_pool3d", data, layout, pool_type)
    sizes = [output_size] * 3 if isinstance(output_size, int) else list(output_size)
    spatial = list(data.shape[2:])
    sizes = [n if o is None else o for n, o in zip(spatial, sizes)]
    for n in spatial:
        if not isinstance(n, E.IntImm):
            raise ValueError("topi.nn.adaptive_pool3d: the spatial extents must be static")
    widest = [
        max(-(-(j + 1) * n.value // o) - (j * n.value // o) for j in range(o))
        for n, o in zip(spatial, sizes)
    ]
    r = [te.reduce_axis((0, w), name=f"r{a}") for a, w in zip("dhw", widest)]

    def bounds(i, n, o):
        i = i.astype(str(n.dtype)) if str(i.dtype) != str(n.dtype) else i
        start = E.FloorDiv(i * n, o)
        return start, E.FloorDiv((i + 1) * n + o - 1, o) - start

    def window(b, c, *o):
        starts, lens = zip(*(bounds(oo, n, size) for oo, n, size in zip(o, spatial, sizes)))
        inside = T.all(*(rr < ln for rr, ln in zip(r, lens)))
        at = tuple(T.if_then_else(inside, st + rr, st) for st, rr in zip(starts, r))
        return inside, data[(b, c, *at)], lens

    shape = (data.shape[0], data.shape[1], *sizes)
    if pool_type == "max":
        low = T.min_value(data.dtype)
        return te.compute(
            shape,
            lambda *i: te.max(T.if_then_else(window(*i)[0], window(*i)[1], low), axis=r),
            name="adaptive_pool_max",
        )
    zero = E.const(0.0, data.dtype)
    total = te.compute(
        shape,
        lambda *i: te.sum(T.if_then_else(window(*i)[0], window(*i)[1], zero), axis=r),
        name="adaptive_pool_sum",
    )

    def avg(b, c, *o):
        lens = window(b, c, *o)[2]
        return total[(b, c, *o)] / (lens[0] * lens[1] * lens[2]).astype(data.dtype)

    return te.compute(shape, avg, name="adaptive_pool_avg")
