"""searchsorted over te tensors: where each value would go in a sorted sequence."""

from __future__ import annotations

from tvm import te, tir


def searchsorted(sorted_sequence, values, right=False, out_dtype="int64"):
    """For each of values, the count of sorted_sequence's elements (along its last axis) below
    it (at or below it when right): NumPy's searchsorted side "left"/"right". A 1-D sequence
    serves every value; otherwise its leading axes match values' leading axes."""
    for name, value in (("sorted_sequence", sorted_sequence), ("values", values)):
        if not isinstance(value, te.Tensor):
            raise TypeError(
                f"topi.searchsorted: argument {name!r} must be a te.Tensor, got "
                f"{type(value).__name__}"
            )
    seq_ndim = sorted_sequence.ndim
    if seq_ndim != 1 and seq_ndim != values.ndim:
        raise ValueError(
            f"topi.searchsorted: a {seq_ndim}-D sorted_sequence needs values of the same rank "
            f"(or a 1-D sequence), got {values.ndim}-D values"
        )
    j = te.reduce_axis((0, sorted_sequence.shape[-1]), name="j")

    def body(*i):
        lead = () if seq_ndim == 1 else tuple(i[:-1])
        element, value = sorted_sequence[lead + (j,)], values[i]
        before = element <= value if right else element < value
        one, zero = tir.const(1, out_dtype), tir.const(0, out_dtype)
        return te.sum(tir.Select(before, one, zero), axis=j)

    return te.compute(values.shape, body, name="searchsorted")
