"""Python's slice rules on one axis where begin, end, stride or the extent may be symbolic
(int64 PrimExprs): where the slice starts and how many elements it takes."""

from __future__ import annotations

from tvm.tir import expr as E


def _i64(value):
    return E.const(value, "int64") if isinstance(value, int) else value.astype("int64")


def _select(cond, a, b):
    """cond ? a : b, folded when cond is a Python bool (a static stride's sign)."""
    if isinstance(cond, bool):
        return a if cond else b
    return E.Select(cond, a, b)


def _negative(stride):
    return stride < 0 if isinstance(stride, int) else E.LT(stride, E.const(0, "int64"))


def canonical_index(index, extent, stride):
    """index resolved against extent as Python's slice does: a negative one counts from the
    end; then clamped to [0, extent] (or [-1, extent - 1] for a negative stride)."""
    index, extent = _i64(index), _i64(extent)
    zero, one = E.const(0, "int64"), E.const(1, "int64")
    neg = _negative(stride)
    low = _select(neg, E.const(-1, "int64"), zero)
    high = _select(neg, extent - one, extent)
    resolved = E.Select(E.LT(index, zero), index + extent, index)
    return E.Min(E.Max(resolved, low), high)


def slice_length(begin, end, stride, extent):
    """The number of elements begin:end:stride takes from an axis of extent (symbolic)."""
    b, e = canonical_index(begin, extent, stride), canonical_index(end, extent, stride)
    zero = E.const(0, "int64")
    if isinstance(stride, int):
        span, step = (e - b, stride) if stride > 0 else (b - e, -stride)
        return E.FloorDiv(E.Max(span, zero) + (step - 1), E.const(step, "int64"))
    s = _i64(stride)
    step = E.Select(E.LT(s, zero), zero - s, s)
    span = E.Select(E.LT(s, zero), b - e, e - b)
    return E.FloorDiv(E.Max(span, zero) + step - E.const(1, "int64"), step)
