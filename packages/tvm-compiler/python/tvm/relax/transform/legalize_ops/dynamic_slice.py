"""Legalisation of dynamic_strided_slice: a PrimFunc computes the result's shape from the
run-time begin/end/strides, vm.builtin.tensor_to_shape turns it into a Shape matched to fresh
symbolic dims, then a second PrimFunc copies the strided elements."""

from __future__ import annotations

from tvm import te, tir, topi
from tvm.topi._dynamic import slice_bounds

from .common import register_legalize, shape_from_tensor


def slice_shape_te(x, begin, end, strides):
    ndim = len(x.shape)

    def at(i):
        out = tir.const(0, "int64")
        for d in reversed(range(ndim)):
            _, length = slice_bounds(x.shape[d], begin[d], end[d], strides[d].astype("int64"))
            out = tir.Select(i == d, length, out)
        return out

    return te.compute((ndim,), at, name="slice_shape")


@register_legalize("relax.dynamic_strided_slice")
def _dynamic_strided_slice(bb, call):
    ndim = call.args[0].struct_info.ndim
    if ndim == -1:
        raise NotImplementedError("dynamic_strided_slice: legalisation needs the rank of x")
    shape_tensor = bb.emit_te(slice_shape_te, *call.args, primfunc_name_hint="slice_shape")
    shape = shape_from_tensor(bb, shape_tensor, [f"slice_d{k}" for k in range(ndim)])
    return bb.call_te(
        topi.dynamic_strided_slice, *call.args, shape, primfunc_name_hint="dynamic_strided_slice"
    )
