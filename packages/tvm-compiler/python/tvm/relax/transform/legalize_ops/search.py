"""Legalisation of where, argmax and argmin."""

from __future__ import annotations

from tvm import te, tir, topi

from .common import register_legalize

register_legalize(
    "relax.where", lambda bb, call: bb.call_te(topi.where, *call.args, primfunc_name_hint="where")
)


def _arg_reducer(pick_first):
    def combine(x, y):
        keep = pick_first(x[1], y[1])
        return tir.Select(keep, x[0], y[0]), tir.Select(keep, x[1], y[1])

    return combine


_argmax = te.comm_reducer(
    _arg_reducer(lambda a, b: a >= b),
    lambda t0, t1: (tir.const(-1, t0), te.min_value(t1)),
    name="argmax",
)
_argmin = te.comm_reducer(
    _arg_reducer(lambda a, b: a <= b),
    lambda t0, t1: (tir.const(-1, t0), te.max_value(t1)),
    name="argmin",
)


def _arg_te(reducer, name):
    def compute(x, axis, keepdims):
        ndim = len(x.shape)
        axes = list(range(ndim)) if axis is None else [axis % ndim]
        kept = [k for k in range(ndim) if k not in axes]
        shape = (
            [1 if k in axes else x.shape[k] for k in range(ndim)]
            if keepdims
            else [x.shape[k] for k in kept]
        )
        raxes = [te.reduce_axis((0, x.shape[k]), name=f"k{k}") for k in axes]

        def body(*i):
            pos = dict(zip(kept, (i[k] for k in kept) if keepdims else i))
            pos.update({k: r.var for k, r in zip(axes, raxes)})
            flat = None
            for k, r in zip(axes, raxes):
                v = r.var if str(r.var.dtype) == "int64" else r.var.astype("int64")
                flat = v if flat is None else flat * x.shape[k] + v
            value = x[tuple(pos[k] for k in range(ndim))]
            return reducer((flat, value), axis=raxes)

        return te.compute(shape, body, name=name)[0]

    compute.__name__ = name
    return compute


def _arg_legalize(reducer, name):
    te_func = _arg_te(reducer, name)

    def legalize(bb, call):
        return bb.call_te(
            te_func, call.args[0], call.attrs.axis, call.attrs.keepdims, primfunc_name_hint=name
        )

    return legalize


register_legalize("relax.argmax", _arg_legalize(_argmax, "argmax"))
register_legalize("relax.argmin", _arg_legalize(_argmin, "argmin"))
