"""te computations for the ops the frontend needs where relax.op does not have them (yet):
each converter asks `op_or_te`, which prefers the Relax op and else emits one of these."""

from __future__ import annotations

from tvm import te

from ._relax_api import tir
from .common import Node


def op_or_te(node: Node, name: str, te_fn, *args, **attrs):
    """relax.op.<name>(*args, **attrs) where Relax has it, else bb.emit_te(te_fn, ...)."""
    from tvm.relax import op as R

    fn = R
    for part in name.split("."):
        fn = getattr(fn, part, None) if fn is not None else None
    if fn is not None:
        return node.emit(fn(*args, **attrs))
    return node.emit_te(te_fn, *args, **attrs)


def _shape(t):
    return list(t.shape)


def flip(x, axis):
    n = x.shape[axis]
    return te.compute(
        _shape(x),
        lambda *i: x[i[:axis] + (n - 1 - i[axis],) + i[axis + 1 :]],
        name="flip",
    )


def repeat(x, repeats, axis):
    shape = _shape(x)
    shape[axis] = shape[axis] * repeats
    return te.compute(
        shape,
        lambda *i: x[i[:axis] + (tir.floordiv(i[axis], repeats),) + i[axis + 1 :]],
        name="repeat",
    )


def tile(x, repeats):
    repeats = list(repeats)
    rank = max(len(repeats), len(x.shape))
    reps = [1] * (rank - len(repeats)) + repeats
    lead = rank - len(x.shape)
    shape = [1] * lead + _shape(x)
    out = [d * r for d, r in zip(shape, reps)]
    return te.compute(
        out,
        lambda *i: x[
            tuple(tir.floormod(i[lead + k], shape[lead + k]) for k in range(len(x.shape)))
        ],
        name="tile",
    )


def gather_elements(data, indices, axis=0):
    return te.compute(
        _shape(indices),
        lambda *i: data[i[:axis] + (indices[i],) + i[axis + 1 :]],
        name="gather_elements",
    )


def gather_nd(data, indices, batch_dims=0):
    m = int(indices.shape[-1])
    out = _shape(indices)[:-1] + _shape(data)[batch_dims + m :]
    lead = len(indices.shape) - 1

    def at(*i):
        picks = tuple(indices[i[:lead] + (k,)] for k in range(m))
        return data[i[:batch_dims] + picks + i[lead:]]

    return te.compute(out, at, name="gather_nd")


def _cumulative(x, axis, exclusive, reducer, identity, name):
    n = x.shape[axis]
    k = te.reduce_axis((0, n), name="k")

    def at(*i):
        keep = k < i[axis] if exclusive else k <= i[axis]
        value = x[i[:axis] + (k,) + i[axis + 1 :]]
        return reducer(tir.if_then_else(keep, value, tir.const(identity, x.dtype)), axis=k)

    return te.compute(_shape(x), at, name=name)


def cumsum(x, axis, exclusive=False):
    return _cumulative(x, axis, exclusive, te.sum, 0, "cumsum")


_prod = te.comm_reducer(lambda a, b: a * b, lambda dtype: tir.const(1, dtype), name="prod")


def cumprod(x, axis, exclusive=False):
    return _cumulative(x, axis, exclusive, _prod, 1, "cumprod")


def pad(x, pad_width, pad_mode="constant", pad_value=0.0):
    before, after = pad_width[0::2], pad_width[1::2]
    out = [d + b + a for d, b, a in zip(_shape(x), before, after)]

    def at(*i):
        inside = [
            tir.all(i[d] >= before[d], i[d] < before[d] + x.shape[d]) for d in range(len(out))
        ]
        src = tuple(i[d] - before[d] for d in range(len(out)))
        return tir.if_then_else(tir.all(*inside), x[src], tir.const(pad_value, x.dtype))

    return te.compute(out, at, name="pad")


def _broadcast(a, b, fcombine, name):
    """fcombine(a, b) elementwise with NumPy broadcasting of static shapes."""
    rank = max(len(a.shape), len(b.shape))

    def dims(t):
        return [1] * (rank - len(t.shape)) + [int(d) for d in t.shape]

    da, db = dims(a), dims(b)
    out = [max(x, y) for x, y in zip(da, db)]

    def pick(t, d, i):
        lead = rank - len(t.shape)
        return t[tuple(0 if d[lead + k] == 1 else i[lead + k] for k in range(len(t.shape)))]

    return te.compute(out, lambda *i: fcombine(pick(a, da, i), pick(b, db, i)), name=name)


def _shift_out_of_range(x, y):
    bits = x.dtype.bits
    return tir.any(y < tir.const(0, y.dtype), y >= tir.const(bits, y.dtype)), bits


def left_shift(a, b):
    """a << b, 0 where the shift is negative or not below the width (as ONNX defines it)."""

    def shift(x, y):
        out_of_range, _ = _shift_out_of_range(x, y)
        return tir.if_then_else(out_of_range, tir.const(0, x.dtype), x << y)

    return _broadcast(a, b, shift, "left_shift")


def right_shift(a, b):
    """a >> b; a shift that is negative or not below the width leaves only the sign (0 for
    unsigned types, -1 or 0 for signed ones)."""

    def shift(x, y):
        out_of_range, bits = _shift_out_of_range(x, y)
        fill = x >> tir.const(bits - 1, x.dtype)
        if str(x.dtype).startswith("uint"):
            fill = tir.const(0, x.dtype)
        return tir.if_then_else(out_of_range, fill, x >> y)

    return _broadcast(a, b, shift, "right_shift")


def bitwise_not(x):
    return te.compute(_shape(x), lambda *i: ~x[i], name="bitwise_not")


def einsum(*operands, subscripts):
    """Explicit or implicit einsum without ellipsis: a sum over the letters the output drops."""
    lhs, arrow, rhs = subscripts.partition("->")
    terms = lhs.split(",")
    if "." in subscripts or len(terms) != len(operands):
        raise ValueError(f"einsum: unsupported equation {subscripts!r}")
    extent = {}
    for term, t in zip(terms, operands):
        if len(term) != len(t.shape):
            raise ValueError(
                f"einsum: term {term!r} of {subscripts!r} names {len(term)} dimensions, its "
                f"operand has {len(t.shape)}"
            )
        for letter, dim in zip(term, t.shape):
            seen = extent.setdefault(letter, dim)
            # A letter's extents must agree: the sum ran over the first operand's, reading
            # past the end of a shorter one.
            if isinstance(seen, tir.IntImm) and isinstance(dim, tir.IntImm):
                if seen.value != dim.value:
                    raise ValueError(
                        f"einsum: letter {letter!r} of {subscripts!r} has extents {seen.value} "
                        f"and {dim.value}"
                    )
    if not arrow:  # implicit output: the letters used once, in alphabetical order
        rhs = "".join(sorted(c for c in extent if lhs.count(c) == 1))
    unknown = [c for c in rhs if c not in extent]
    if unknown or len(set(rhs)) != len(rhs):
        raise ValueError(
            f"einsum: the output {rhs!r} of {subscripts!r} must name distinct letters of the "
            "operands"
        )
    reduced = [c for c in extent if c not in rhs]
    axes = {c: te.reduce_axis((0, extent[c]), name=f"r_{c}") for c in reduced}

    def at(*idx):
        where = dict(zip(rhs, idx))
        where.update(axes)
        prod = None
        for term, t in zip(terms, operands):
            value = t[tuple(where[c] for c in term)]
            prod = value if prod is None else prod * value
        return te.sum(prod, axis=list(axes.values())) if axes else prod

    return te.compute([extent[c] for c in rhs], at, name="einsum")


def atan(x):
    return te.compute(_shape(x), lambda *i: tir.atan(x[i]), name="atan")


def lrn_square_sum(x, size):
    """sum of x^2 over the channel window [c - (size-1)//2, c + ceil((size-1)/2)] (ONNX LRN)."""
    channels = x.shape[1]
    lo = (size - 1) // 2
    k = te.reduce_axis((0, size), name="k")

    def at(*i):
        c = i[1] - lo + k
        inside = tir.all(c >= 0, c < channels)
        value = x[(i[0], tir.if_then_else(inside, c, 0)) + i[2:]]
        return te.sum(tir.if_then_else(inside, value * value, tir.const(0, x.dtype)), axis=k)

    return te.compute(_shape(x), at, name="lrn_square_sum")


def max_pool_indices(x, out_spatial, kernel, strides, dilations, pads, storage_order):
    """MaxPool's Indices: the flat index into x ([N, C, *spatial]) of each window's first
    maximum, the spatial part row-major (storage_order 0) or column-major (1)."""
    from tvm.topi.reduction import _argmax

    nsp = len(kernel)
    spatial = [int(d) for d in x.shape[2:]]
    window = [te.reduce_axis((0, k), name=f"w{i}") for i, k in enumerate(kernel)]

    def compute(n, c, *o):
        pos = [o[i] * strides[i] - pads[i] + window[i].var * dilations[i] for i in range(nsp)]
        inside = tir.all(*[tir.all(p >= 0, p < spatial[i]) for i, p in enumerate(pos)])
        at = [tir.max(tir.min(p, spatial[i] - 1), 0) for i, p in enumerate(pos)]
        value = tir.Select(inside, x[(n, c, *at)], te.min_value(x.dtype))
        order = range(nsp) if storage_order == 0 else reversed(range(nsp))
        flat = tir.const(0, "int64")
        for i in order:
            flat = flat * spatial[i] + at[i].astype("int64")
        plane = 1
        for d in spatial:
            plane *= d
        flat = (n.astype("int64") * x.shape[1] + c.astype("int64")) * plane + flat
        return _argmax((flat, value), axis=window)

    shape = [x.shape[0], x.shape[1], *out_spatial]
    return te.compute(shape, compute, name="max_pool_indices")[0]


def conv_transpose_nd(x, w, strides, pads, output_padding, dilations, groups):
    """A transposed convolution of any spatial rank (Relax has the 1-D and 2-D ones): each
    output position sums the inputs whose strided, dilated kernel taps land on it.
    x [N, C_in, *in], w [C_in, C_out / groups, *kernel]."""
    nsp = len(x.shape) - 2
    in_sp = [int(d) for d in x.shape[2:]]
    kernel = [int(d) for d in w.shape[2:]]
    c_in, out_per_group = int(x.shape[1]), int(w.shape[1])
    in_per_group = c_in // groups
    out_sp = [
        strides[i] * (in_sp[i] - 1)
        + output_padding[i]
        + (kernel[i] - 1) * dilations[i]
        + 1
        - pads[i]
        - pads[i + nsp]
        for i in range(nsp)
    ]
    rc = te.reduce_axis((0, in_per_group), name="rc")
    rk = [te.reduce_axis((0, k), name=f"rk{i}") for i, k in enumerate(kernel)]

    def compute(n, oc, *o):
        g = oc // out_per_group
        ic = g * in_per_group + rc.var
        ok, at = [], []
        for i in range(nsp):
            pos = o[i] + pads[i] - rk[i].var * dilations[i]  # = input index * stride
            src = tir.floordiv(pos, strides[i])
            ok += [pos >= 0, tir.floormod(pos, strides[i]) == 0, src < in_sp[i]]
            at.append(tir.max(tir.min(src, in_sp[i] - 1), 0))
        value = x[(n, ic, *at)] * w[(ic, oc % out_per_group, *(r.var for r in rk))]
        return te.sum(tir.Select(tir.all(*ok), value, tir.const(0, x.dtype)), axis=[rc, *rk])

    shape = [x.shape[0], out_per_group * groups, *out_sp]
    return te.compute(shape, compute, name="conv_transpose")
