"""Legalisation of unique: a PrimFunc marks each element's (or, with axis, each slice's) first
occurrence and counts them, vm.builtin.tensor_to_shape makes the count a symbolic length, then
te computes the values (ranked by value or by first appearance), the first indices, the inverse
map and the counts. The comparisons are all pairs: O(n^2) in the number of elements (slices)."""

from __future__ import annotations

from tvm import te, tir

from .common import register_legalize, shape_from_tensor

_I64 = "int64"


def _flat(x):
    n = tir.const(1, _I64)
    for d in x.shape:
        n = n * (d if str(d.dtype) == _I64 else d.astype(_I64))
    strides = []
    for k in range(len(x.shape)):
        inner = tir.const(1, _I64)
        for d in x.shape[k + 1 :]:
            inner = inner * d.astype(_I64)
        strides.append(inner)

    def at(i):
        idx = tuple(
            tir.floormod(tir.floordiv(i, s), d.astype(_I64)) for s, d in zip(strides, x.shape)
        )
        return x[idx] if idx else x[()]

    return n, at


def _nonempty_axis(extent, name):
    """A reduction axis over max(extent, 1) and the condition that its value is < extent: a
    reduction over an empty range would never run its init, leaving its output unset."""
    axis = te.reduce_axis((0, tir.Max(extent, 1)), name=name)
    return axis, axis < extent


def _one_if(cond):
    return tir.Select(cond, tir.const(1, _I64), tir.const(0, _I64))


# NaN compares unequal to everything, so the plain comparisons gave NaN elements no consistent
# rank (values, indices and counts came out garbled). As numpy does, NaN sorts after every
# number; the flat form counts all NaNs as one value (numpy's equal_nan=True), the axis form
# keeps each slice holding a NaN apart (as numpy.unique(axis=...) does).
def _is_nan(a):
    return a != a if "float" in str(a.dtype) else tir.const(False, "bool")


def _less(a, b):
    if "float" not in str(a.dtype):
        return a < b
    return tir.any(a < b, tir.all(_is_nan(b), tir.Not(_is_nan(a))))


def _equal_nan(a, b):
    if "float" not in str(a.dtype):
        return a == b
    return tir.any(a == b, tir.all(_is_nan(a), _is_nan(b)))


def _firsts(x):
    n, at = _flat(x)
    j = te.reduce_axis((0, n), name="j")
    repeated = te.compute(
        (n,),
        lambda i: te.sum(_one_if(tir.all(j < i, _equal_nan(at(j), at(i)))), axis=j),
        name="repeats",
    )
    first = te.compute((n,), lambda i: _one_if(repeated[i] == 0), name="first")
    return n, at, first


def unique_count_te(x):
    n, _, first = _firsts(x)
    k, valid = _nonempty_axis(n, "k")
    return te.compute(
        (1,), lambda _: te.sum(_one_if(tir.all(valid, first[k] == 1)), axis=k), name="unique_count"
    )


def unique_te(x, shape, is_sorted, return_index, return_inverse, return_counts):
    (m,) = shape
    n, at, first = _firsts(x)
    j = te.reduce_axis((0, n), name="j")

    def rank(i):  # among first occurrences: smaller values, or earlier ones
        before = _less(at(j), at(i)) if is_sorted else j < i
        return te.sum(_one_if(tir.all(first[j] == 1, before)), axis=j)

    ranks = te.compute((n,), rank, name="rank")

    def values(where):
        return te.compute((m,), lambda k: at(where[k]), name="unique")

    def same(p, q):
        return _equal_nan(at(p), at(q))

    return _outputs(n, m, first, ranks, same, values, return_index, return_inverse, return_counts)


def _outputs(n, m, first, ranks, same, values, return_index, return_inverse, return_counts):
    """What both forms share once each of the n items (elements or slices) has its rank among
    the m first occurrences: the first indices, values(first indices), and as asked for the
    index, the inverse map and the counts; same(p, q) says items p and q are equal."""
    src = te.reduce_axis((0, n), name="src")
    where = te.compute(
        (m,),
        lambda k: te.sum(
            tir.Select(tir.all(first[src] == 1, ranks[src] == k), src.var, tir.const(0, _I64)),
            axis=src,
        ),
        name="first_index",
    )
    outs = [values(where)]
    if return_index:
        outs.append(where)
    if return_inverse:
        r = te.reduce_axis((0, m), name="r")
        outs.append(
            te.compute(
                (n,),
                lambda i: te.sum(
                    tir.Select(same(where[r], i), r.var.astype(_I64), tir.const(0, _I64)),
                    axis=r,
                ),
                name="inverse",
            )
        )
    if return_counts:
        c = te.reduce_axis((0, n), name="c")
        outs.append(
            te.compute((m,), lambda k: te.sum(_one_if(same(c, where[k])), axis=c), name="counts")
        )
    return outs if len(outs) > 1 else outs[0]


# -- unique slices along an axis: slices compared element by element (C order over the other
# dims), so "sorted" is numpy's lexicographic order of the slices.


def _as_i64(d):
    return d if str(d.dtype) == _I64 else d.astype(_I64)


def _slices(x, axis):
    """(slice count, slice length, elem(s, e): element e of slice s)."""
    others = [_as_i64(d) for k, d in enumerate(x.shape) if k != axis]
    length = tir.const(1, _I64)
    for d in others:
        length = length * d
    strides = []
    for k in range(len(others)):
        inner = tir.const(1, _I64)
        for d in others[k + 1 :]:
            inner = inner * d
        strides.append(inner)

    def elem(s, e):
        # Max(d, 1): an empty slice is never read, but its index must not divide by zero.
        idx = [tir.floormod(tir.floordiv(e, st), tir.Max(d, 1)) for st, d in zip(strides, others)]
        return x[tuple(idx[:axis] + [s] + idx[axis:])]

    return _as_i64(x.shape[axis]), length, elem


def _slice_tables(x, axis):
    """(count, elem, diff, first): diff[i, j] the number of elements where slices i and j
    differ, first[i] 1 where slice i is the first of its kind."""
    count, length, elem = _slices(x, axis)
    e, valid = _nonempty_axis(length, "e")
    diff = te.compute(
        (count, count),
        lambda i, j: te.sum(_one_if(tir.all(valid, elem(i, e) != elem(j, e))), axis=e),
        name="diff",
    )
    j = te.reduce_axis((0, count), name="j")
    repeated = te.compute(
        (count,), lambda i: te.sum(_one_if(tir.all(j < i, diff[i, j] == 0)), axis=j), name="rep"
    )
    first = te.compute((count,), lambda i: _one_if(repeated[i] == 0), name="first")
    return count, length, elem, diff, first


def unique_axis_count_te(x, axis):
    count, _, _, _, first = _slice_tables(x, axis)
    k, valid = _nonempty_axis(count, "k")
    return te.compute(
        (1,), lambda _: te.sum(_one_if(tir.all(valid, first[k] == 1)), axis=k), name="unique_count"
    )


def unique_axis_te(x, shape, axis, is_sorted, return_index, return_inverse, return_counts):
    (m,) = shape
    count, length, elem, diff, first = _slice_tables(x, axis)
    e, valid = _nonempty_axis(length, "e")
    # first_diff[i, j]: the first element where slices i and j differ (length: none)
    first_diff = te.compute(
        (count, count),
        lambda i, j: te.min(
            tir.Select(tir.all(valid, elem(i, e) != elem(j, e)), e.var, length), axis=e
        ),
        name="first_diff",
    )
    j = te.reduce_axis((0, count), name="j")

    def rank(i):  # among first slices: lexicographically smaller ones, or earlier ones
        fd = first_diff[i, j]
        if is_sorted:
            # Slices differing only by NaNs are neither smaller: their order is by position.
            less = tir.Select(fd < length, _less(elem(j, fd), elem(i, fd)), j < i)
            greater = tir.Select(fd < length, _less(elem(i, fd), elem(j, fd)), j > i)
            before = tir.any(less, tir.all(tir.Not(greater), j < i))
        else:
            before = j < i
        return te.sum(_one_if(tir.all(first[j] == 1, before)), axis=j)

    ranks = te.compute((count,), rank, name="rank")
    out_shape = [m if k == axis else d for k, d in enumerate(x.shape)]

    def values(where):
        def take(*idx):
            return x[tuple(where[i] if k == axis else i for k, i in enumerate(idx))]

        return te.compute(out_shape, take, name="unique")

    def same(p, q):  # a slice holding a NaN differs even from itself
        return tir.any(p == q, diff[p, q] == 0)

    flags = (return_index, return_inverse, return_counts)
    return _outputs(count, m, first, ranks, same, values, *flags)


@register_legalize("relax.unique")
def _unique(bb, call):
    a = call.attrs
    x = call.args[0]
    flags = (a.sorted, a.return_index, a.return_inverse, a.return_counts)
    if a.axis is None:
        count = bb.emit_te(unique_count_te, x, primfunc_name_hint="unique_count")
        shape = shape_from_tensor(bb, count, ["unique_n"])
        return bb.call_te(unique_te, x, shape, *flags, primfunc_name_hint="unique")
    axis = int(a.axis) % x.struct_info.ndim
    count = bb.emit_te(unique_axis_count_te, x, axis, primfunc_name_hint="unique_count")
    shape = shape_from_tensor(bb, count, ["unique_n"])
    return bb.call_te(unique_axis_te, x, shape, axis, *flags, primfunc_name_hint="unique")
