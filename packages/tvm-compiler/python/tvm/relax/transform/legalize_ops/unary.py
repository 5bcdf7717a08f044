"""Legalisation of the elementwise unary ops and clip."""

from __future__ import annotations

from tvm import te, topi
from tvm.topi.math import UNARY_ELEMENT_FUNCTIONS

from ...op import unary as unary_ops
from .common import register_legalize


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


for _name in unary_ops.__all__:
    if _name in UNARY_ELEMENT_FUNCTIONS:
        register_legalize(f"relax.{_name}", unary_legalize(_name, UNARY_ELEMENT_FUNCTIONS[_name]))


@register_legalize("relax.clip")
def _clip(bb, call):
    lo, hi = call.args[1].value.value, call.args[2].value.value
    return bb.call_te(topi.clip, call.args[0], lo, hi, primfunc_name_hint="clip")
