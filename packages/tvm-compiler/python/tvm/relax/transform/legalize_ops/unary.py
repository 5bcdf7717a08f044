"""Legalisation of the elementwise unary ops and clip."""

from __future__ import annotations

from tvm import te
from tvm.tir import expr as E
from tvm.tir import op as T

from .common import register_legalize, scalar


def _sign(x):
    zero, one = scalar(0, x.dtype), scalar(1, x.dtype)
    return E.Select(x > zero, one, E.Select(x < zero, scalar(-1, x.dtype), zero))


_UNARY = {
    "abs": T.abs,
    "ceil": T.ceil,
    "cos": T.cos,
    "erf": T.erf,
    "exp": T.exp,
    "floor": T.floor,
    "log": T.log,
    "logical_not": T.logical_not,
    "negative": lambda x: scalar(0, x.dtype) - x,
    "round": T.round,
    "rsqrt": lambda x: scalar(1, x.dtype) / T.sqrt(x),
    "sigmoid": T.sigmoid,
    "sign": _sign,
    "sin": T.sin,
    "sqrt": T.sqrt,
    "square": lambda x: x * x,
    "tan": T.tan,
    "tanh": T.tanh,
}


def unary_te(name, fop):
    def compute(x):
        return te.compute(x.shape, lambda *i: fop(x[i]), name=f"T_{name}")

    compute.__name__ = name
    return compute


def unary_legalize(name, fop):
    te_func = unary_te(name, fop)

    def legalize(bb, call):
        return bb.call_te(te_func, call.args[0], primfunc_name_hint=name)

    return legalize


for _name, _fop in _UNARY.items():
    register_legalize(f"relax.{_name}", unary_legalize(_name, _fop))


@register_legalize("relax.clip")
def _clip(bb, call):
    lo, hi = call.args[1].value, call.args[2].value

    def clip(x):
        a, b = scalar(float(lo.value), x.dtype), scalar(float(hi.value), x.dtype)
        return te.compute(x.shape, lambda *i: T.max(T.min(x[i], b), a), name="T_clip")

    return bb.call_te(clip, call.args[0], primfunc_name_hint="clip")
