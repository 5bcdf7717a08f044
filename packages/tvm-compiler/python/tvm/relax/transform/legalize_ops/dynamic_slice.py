"""Legalisation of dynamic_strided_slice: a PrimFunc computes the result's shape from the
run-time begin/end/strides, vm.builtin.tensor_to_shape turns it into a Shape matched to fresh
symbolic dims, then a second PrimFunc copies the strided elements."""

from __future__ import annotations

from tvm import te, tir

from .common import register_legalize, shape_from_tensor


def _bounds(extent, begin, end, stride):
    """Python's slice start and length on one axis (int64 PrimExprs)."""
    zero, one = tir.const(0, "int64"), tir.const(1, "int64")
    extent = extent.astype("int64") if str(extent.dtype) != "int64" else extent

    def clamp(v):
        v = tir.Select(v < 0, v + extent, v)
        lo = tir.Select(stride > 0, zero, -one)
        hi = tir.Select(stride > 0, extent, extent - one)
        return tir.max(tir.min(v, hi), lo)

    start, stop = clamp(begin.astype("int64")), clamp(end.astype("int64"))
    forward = tir.floordiv(stop - start + stride - one, stride)
    backward = tir.floordiv(start - stop - stride - one, -stride)
    return start, tir.max(tir.Select(stride > 0, forward, backward), zero)


def slice_shape_te(x, begin, end, strides):
    ndim = len(x.shape)

    def at(i):
        out = tir.const(0, "int64")
        for d in reversed(range(ndim)):
            _, length = _bounds(x.shape[d], begin[d], end[d], strides[d].astype("int64"))
            out = tir.Select(i == d, length, out)
        return out

    return te.compute((ndim,), at, name="slice_shape")


def dynamic_slice_te(x, begin, end, strides, out_shape):
    def at(*i):
        src = []
        for d, v in enumerate(i):
            stride = strides[d].astype("int64")
            start, _ = _bounds(x.shape[d], begin[d], end[d], stride)
            src.append(start + v.astype("int64") * stride)
        return x[tuple(src)]

    return te.compute(out_shape, at, name="dynamic_strided_slice")


@register_legalize("relax.dynamic_strided_slice")
def _dynamic_strided_slice(bb, call):
    ndim = call.args[0].struct_info.ndim
    if ndim == -1:
        raise NotImplementedError("dynamic_strided_slice: legalisation needs the rank of x")
    shape_tensor = bb.emit_te(slice_shape_te, *call.args, primfunc_name_hint="slice_shape")
    shape = shape_from_tensor(bb, shape_tensor, [f"slice_d{k}" for k in range(ndim)])
    return bb.call_te(
        dynamic_slice_te, *call.args, shape, primfunc_name_hint="dynamic_strided_slice"
    )
