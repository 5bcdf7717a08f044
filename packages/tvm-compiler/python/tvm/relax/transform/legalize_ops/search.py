"""Legalisation of where, argmax and argmin through topi."""

from __future__ import annotations

from tvm import topi

from .common import register_legalize

register_legalize(
    "relax.where", lambda bb, call: bb.call_te(topi.where, *call.args, primfunc_name_hint="where")
)


def _arg_legalize(name):
    def legalize(bb, call):
        axis = call.attrs.axis
        return bb.call_te(
            lambda x: topi.reduction.arg_reduce(
                name, x, axis, call.attrs.keepdims, index_dtype="int64"
            ),
            call.args[0],
            primfunc_name_hint=name,
        )

    return legalize


register_legalize("relax.argmax", _arg_legalize("argmax"))
register_legalize("relax.argmin", _arg_legalize("argmin"))
