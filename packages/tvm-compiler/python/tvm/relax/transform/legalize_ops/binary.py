"""Legalisation of the elementwise binary ops through topi's broadcasting operators."""

from __future__ import annotations

from tvm import topi
from tvm.topi.broadcast import BINARY_ELEMENT_FUNCTIONS

from .common import register_legalize


def _legalize(name):
    te_func = getattr(topi, name)

    def legalize(bb, call):
        return bb.call_te(te_func, call.args[0], call.args[1], primfunc_name_hint=name)

    return legalize


for _name in BINARY_ELEMENT_FUNCTIONS:
    register_legalize(f"relax.{_name}", _legalize(_name))
