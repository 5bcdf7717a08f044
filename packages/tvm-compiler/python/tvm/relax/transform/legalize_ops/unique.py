"""Legalisation of unique: a PrimFunc marks each element's first occurrence and counts them,
vm.builtin.tensor_to_shape makes the count a symbolic length, then te computes the values
(ranked by value or by first appearance), the first indices, the inverse map and the counts.
The comparisons are all pairs: O(n^2) in the number of elements."""

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


def _one_if(cond):
    return tir.Select(cond, tir.const(1, _I64), tir.const(0, _I64))


def _firsts(x):
    n, at = _flat(x)
    j = te.reduce_axis((0, n), name="j")
    repeated = te.compute(
        (n,), lambda i: te.sum(_one_if(tir.all(j < i, at(j) == at(i))), axis=j), name="repeats"
    )
    first = te.compute((n,), lambda i: _one_if(repeated[i] == 0), name="first")
    return n, at, first


def unique_count_te(x):
    n, _, first = _firsts(x)
    k = te.reduce_axis((0, n), name="k")
    return te.compute((1,), lambda _: te.sum(first[k], axis=k), name="unique_count")


def unique_te(x, shape, is_sorted, return_index, return_inverse, return_counts):
    (m,) = shape
    n, at, first = _firsts(x)
    j = te.reduce_axis((0, n), name="j")

    def rank(i):  # among first occurrences: smaller values, or earlier ones
        before = at(j) < at(i) if is_sorted else j < i
        return te.sum(_one_if(tir.all(first[j] == 1, before)), axis=j)

    ranks = te.compute((n,), rank, name="rank")
    src = te.reduce_axis((0, n), name="src")
    where = te.compute(
        (m,),
        lambda k: te.sum(
            tir.Select(tir.all(first[src] == 1, ranks[src] == k), src, tir.const(0, _I64)),
            axis=src,
        ),
        name="first_index",
    )
    values = te.compute((m,), lambda k: at(where[k]), name="unique")
    outs = [values]
    if return_index:
        outs.append(where)
    if return_inverse:
        r = te.reduce_axis((0, m), name="r")
        outs.append(
            te.compute(
                (n,),
                lambda i: te.sum(
                    tir.Select(values[r] == at(i), r.var.astype(_I64), tir.const(0, _I64)),
                    axis=r,
                ),
                name="inverse",
            )
        )
    if return_counts:
        c = te.reduce_axis((0, n), name="c")
        outs.append(
            te.compute((m,), lambda k: te.sum(_one_if(at(c) == values[k]), axis=c), name="counts")
        )
    return outs if len(outs) > 1 else outs[0]


@register_legalize("relax.unique")
def _unique(bb, call):
    a = call.attrs
    count = bb.emit_te(unique_count_te, call.args[0], primfunc_name_hint="unique_count")
    shape = shape_from_tensor(bb, count, ["unique_n"])
    return bb.call_te(
        unique_te,
        call.args[0],
        shape,
        a.sorted,
        a.return_index,
        a.return_inverse,
        a.return_counts,
        primfunc_name_hint="unique",
    )
