"""Legalisation of shape_to_tensor (a te computation of the shape's values, matched to
symbolic dims first when only its rank is known) and tensor_to_shape (the VM builtin
vm.builtin.tensor_to_shape, as upstream)."""

from __future__ import annotations

from tvm import te, tir

from ...struct_info import ShapeStructInfo
from .common import register_legalize


def shape_to_tensor_te(values):
    def at(i):
        out = tir.const(0, "int64")
        for k in reversed(range(len(values))):
            value = values[k] if str(values[k].dtype) == "int64" else values[k].astype("int64")
            out = tir.Select(i == k, value, out)
        return out

    return te.compute((len(values),), at, name="shape_to_tensor")


@register_legalize("relax.shape_to_tensor")
def _shape_to_tensor(bb, call):
    arg = call.args[0]
    sinfo = arg.struct_info
    values = None if sinfo.values is None else list(sinfo.values)
    if values is None:
        if sinfo.ndim == -1:
            raise NotImplementedError(
                "shape_to_tensor: legalisation needs the rank of argument 'expr'"
            )
        values = [tir.Var(f"s{k}", "int64") for k in range(sinfo.ndim)]
        arg = bb.match_cast(arg, ShapeStructInfo(values))
    from ...expr import PrimValue

    # PrimValues: the symbolic values become the PrimFunc's scalar arguments
    values = [PrimValue(v) for v in values]
    return bb.call_te(shape_to_tensor_te, values, primfunc_name_hint="shape_to_tensor")


@register_legalize("relax.tensor_to_shape")
def _tensor_to_shape(bb, call):
    from ...expr import ExternFunc
    from ...op import call_pure_packed

    return call_pure_packed(
        ExternFunc("vm.builtin.tensor_to_shape"), call.args[0], sinfo_args=[call.struct_info]
    )
