"""Legalisation of astype, wrap_param and the creation ops (zeros, ones, full, *_like, arange)."""

from __future__ import annotations

from tvm import te
from tvm.tir import expr as E

from ...op._utils import dims_of
from .common import register_legalize, scalar


@register_legalize("relax.astype")
def _astype(bb, call):
    dtype = call.attrs.dtype

    def astype(x):
        return te.compute(x.shape, lambda *i: x[i].astype(dtype), name="astype")

    return bb.call_te(astype, call.args[0], primfunc_name_hint="astype")


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
    sinfo = call.struct_info

    def fill(*fill_tensor):
        def body(*i):
            if fill_tensor:
                v = fill_tensor[0][()]
                return v if str(v.dtype) == sinfo.dtype else v.astype(sinfo.dtype)
            return scalar(value, sinfo.dtype)

        return te.compute(dims_of(sinfo), body, name=name)

    args = [call.args[1]] if value is None else []
    return bb.call_te(fill, *args, primfunc_name_hint=name)


for _name, _value in (("zeros", 0), ("ones", 1), ("zeros_like", 0), ("ones_like", 1)):
    register_legalize(
        f"relax.{_name}", lambda bb, call, v=_value, n=_name: _filled(bb, call, v, n.split("_")[0])
    )
register_legalize("relax.full", lambda bb, call: _filled(bb, call, None, "full"))
register_legalize("relax.full_like", lambda bb, call: _filled(bb, call, None, "full"))


@register_legalize("relax.arange")
def _arange(bb, call):
    start, _, step = (a.value for a in call.args)
    sinfo = call.struct_info

    def arange():
        def body(i):
            value = (
                start + E.Cast(str(start.dtype), i) * step
                if str(i.dtype) != str(start.dtype)
                else start + i * step
            )
            return value if str(value.dtype) == sinfo.dtype else value.astype(sinfo.dtype)

        return te.compute(dims_of(sinfo), body, name="arange")

    return bb.call_te(arange, primfunc_name_hint="arange")
