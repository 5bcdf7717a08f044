"""Legalisation of the shape manipulation ops (reshape, permute_dims, expand_dims, squeeze,
flatten, concat, split, broadcast_to, collapse_sum_like/to)."""

from __future__ import annotations

from tvm import te, topi
from tvm.arith import Analyzer
from tvm.tir import expr as E
from tvm.tir import op as T

from ...op._utils import dims_of, static
from .common import assert_dims_agree, assert_in_kernel, fmt_dims, register_legalize


def _out_dims(call):
    return dims_of(call.struct_info)


@register_legalize("relax.reshape")
def _reshape(bb, call):
    out_dims = _out_dims(call)
    lowered = bb.call_te(topi.reshape, call.args[0], out_dims, primfunc_name_hint="reshape")
    in_dims = dims_of(call.args[0].struct_info)
    if in_dims is not None and out_dims is not None:
        before, after = _product(in_dims), _product(out_dims)
        if not Analyzer().can_prove(E.EQ(before, after)):
            # symbolic dims that disagree at run time: topi's index arithmetic would wrap
            # around x (a (2, 4) x viewed as (3, 4) repeated its first row)
            message = (
                f"reshape: cannot reshape x of shape {fmt_dims(in_dims)} into "
                f"{fmt_dims(out_dims)}: the element counts differ at run time"
            )
            assert_in_kernel(bb, lowered, E.EQ(before, after), message)
    return lowered


def _product(dims):
    """The product of dims as an int64 PrimExpr, with no cast or factor of 1 that printing and
    parsing the kernel would fold away (the round trip must give the same text)."""
    total = None
    for d in dims:
        if isinstance(d, int):
            d = E.const(d, "int64")
        elif str(d.dtype) != "int64":
            d = E.Cast("int64", d)
        total = d if total is None else total * d
    return E.const(1, "int64") if total is None else total


@register_legalize("relax.flatten")
def _flatten(bb, call):
    return bb.call_te(topi.reshape, call.args[0], _out_dims(call), primfunc_name_hint="reshape")


@register_legalize("relax.permute_dims")
def _permute_dims(bb, call):
    axes = call.attrs.axes
    return bb.call_te(
        topi.transpose,
        call.args[0],
        None if axes is None else list(axes),
        primfunc_name_hint="transpose",
    )


def _expand_dims_te(x, axes, out_ndim):
    axes = sorted(a % out_ndim for a in axes)
    kept = [k for k in range(out_ndim) if k not in axes]
    shape, it = [], iter(x.shape)
    for k in range(out_ndim):
        shape.append(1 if k in axes else next(it))
    return te.compute(shape, lambda *i: x[tuple(i[k] for k in kept)], name="expand_dims")


@register_legalize("relax.expand_dims")
def _expand_dims(bb, call):
    out_ndim = call.struct_info.ndim
    return bb.call_te(
        _expand_dims_te,
        call.args[0],
        list(call.attrs.axis),
        out_ndim,
        primfunc_name_hint="expand_dims",
    )


@register_legalize("relax.squeeze")
def _squeeze(bb, call):
    axis = call.attrs.axis
    if axis is not None:
        # Named axes of a constant extent other than 1 stay (a no-op, as the op's struct info
        # has it); a symbolic extent is squeezed (assumed 1).
        dims = dims_of(call.args[0].struct_info)
        ndim = call.args[0].struct_info.ndim
        axis = [a for a in axis if dims is None or static(dims[a % ndim]) in (None, 1)]
        if not axis:
            return call.args[0]
    return bb.call_te(
        topi.squeeze,
        call.args[0],
        None if axis is None else list(axis),
        primfunc_name_hint="squeeze",
    )


@register_legalize("relax.concat")
def _concat(bb, call):
    axis = 0 if call.attrs.axis is None else call.attrs.axis  # None: 1-D tensors end to end
    lowered = bb.call_te(topi.concatenate, call.args[0], axis, primfunc_name_hint="concatenate")
    fields = call.args[0].struct_info.fields
    dims = [dims_of(f) for f in fields]
    if dims and all(d is not None for d in dims):
        axis = axis % len(dims[0])
        agree = [E.EQ(d[i], dims[0][i]) for d in dims[1:] for i in range(len(d)) if i != axis]
        message = (
            f"concat: the tensors of shapes {', '.join(fmt_dims(d) for d in dims)} disagree at "
            f"run time on an axis other than {axis}"
        )
        assert_dims_agree(bb, lowered, agree, message)
    return lowered


def _split_te(x, bounds, axis):
    outs = []
    for lo, hi in zip(bounds, bounds[1:]):
        shape = list(x.shape)
        shape[axis] = T.max(hi - lo, 0)

        def body(*i, lo=lo):
            idx = list(i)
            idx[axis] = idx[axis] + lo
            return x[tuple(idx)]

        outs.append(te.compute(shape, body, name="split"))
    return outs


@register_legalize("relax.split")
def _split(bb, call):
    sinfo = call.args[0].struct_info
    axis = call.attrs.axis % sinfo.ndim
    extent = dims_of(sinfo)[axis]
    spec = call.attrs.indices_or_sections
    if isinstance(spec, int):
        part = dims_of(call.struct_info.fields[0])[axis]
        bounds = [part * k for k in range(spec)] + [extent]
    else:
        # As the op's struct info: each index clamped to [0, extent].
        n = static(extent)
        clamped = [
            min(max(int(i), 0), n) if n is not None else T.min(T.max(int(i), 0), extent)
            for i in spec
        ]
        bounds = [0, *clamped, extent]
    from tvm.tir.expr import convert

    bounds = [convert(b) for b in bounds]
    bounds = [b if str(b.dtype) == "int64" else b.astype("int64") for b in bounds]
    return bb.call_te(_split_te, call.args[0], bounds, axis, primfunc_name_hint="split")


@register_legalize("relax.broadcast_to")
def _broadcast_to(bb, call):
    out_dims = _out_dims(call)
    lowered = bb.call_te(
        topi.broadcast_to, call.args[0], out_dims, primfunc_name_hint="broadcast_to"
    )
    in_dims = dims_of(call.args[0].struct_info)
    if in_dims is not None and out_dims is not None:
        # topi broadcasts a constant 1; a symbolic dim must equal its target
        agree = [
            E.EQ(d, o)
            for d, o in zip(reversed(in_dims), reversed(out_dims))
            if not (isinstance(d, E.IntImm) and d.value == 1)
        ]
        message = (
            f"broadcast_to: x of shape {fmt_dims(in_dims)} cannot be broadcast to "
            f"{fmt_dims(out_dims)} at run time (a symbolic dim must equal its target)"
        )
        assert_dims_agree(bb, lowered, agree, message)
    return lowered


def _collapse_sum(bb, call):
    """Both forms sum data down to the result's (static or symbolic) shape."""
    target = dims_of(call.struct_info)
    if target is None:
        return call  # a target of unknown shape: nothing to sum down to at compile time
    return bb.call_te(
        topi.collapse_sum, call.args[0], list(target), primfunc_name_hint="collapse_sum"
    )


register_legalize("relax.collapse_sum_like", _collapse_sum)
register_legalize("relax.collapse_sum_to", _collapse_sum)
