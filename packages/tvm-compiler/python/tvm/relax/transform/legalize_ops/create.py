"""Legalisation of astype, wrap_param and the creation ops (zeros, ones, full, *_like, arange)."""

from __future__ import annotations

from tvm import te, topi

from ...op._utils import dims_of
from .common import register_legalize


@register_legalize("relax.astype")
def _astype(bb, call):
    return bb.call_te(topi.cast, call.args[0], call.attrs.dtype, primfunc_name_hint="astype")


@register_legalize("relax.wrap_param")
def _wrap_param(bb, call):
    from tvm.relax.expr import Constant, const

    data, dtype = call.args[0], call.attrs.dtype
    if data.struct_info.dtype == dtype:  # already of dtype: nothing to cast
        return data
    if isinstance(data, Constant):  # a weight: cast once, at compile time
        return const(data.data.numpy().astype(dtype), dtype)

    def wrap_param(x):
        return te.compute(x.shape, lambda *i: x[i].astype(dtype), name="wrap_param")

    return bb.call_te(wrap_param, data, primfunc_name_hint="wrap_param")


def _filled(bb, call, value, name):
    """topi.full of the call's shape and dtype: value, or the call's fill tensor when None."""
    sinfo = call.struct_info
    if value is None:
        return bb.call_te(
            lambda fill: topi.full(dims_of(sinfo), sinfo.dtype, fill),
            call.args[1],
            primfunc_name_hint=name,
        )
    return bb.call_te(topi.full, dims_of(sinfo), sinfo.dtype, value, primfunc_name_hint=name)


for _name, _value in (("zeros", 0), ("ones", 1), ("zeros_like", 0), ("ones_like", 1)):
    register_legalize(
        f"relax.{_name}", lambda bb, call, v=_value, n=_name: _filled(bb, call, v, n.split("_")[0])
    )
register_legalize("relax.full", lambda bb, call: _filled(bb, call, None, "full"))
register_legalize("relax.full_like", lambda bb, call: _filled(bb, call, None, "full"))


@register_legalize("relax.arange")
def _arange(bb, call):
    start, stop, step = (a.value for a in call.args)
    dtype = call.struct_info.dtype
    return bb.call_te(topi.arange, start, stop, step, dtype, primfunc_name_hint="arange")
