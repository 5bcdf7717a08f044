"""te tensors read at computed positions: gather, reverse_sequence, unravel_index."""

from __future__ import annotations

from tvm import te, tir

from ._select import _tensor


def _axis(who, axis, ndim, name="axis"):
    if not isinstance(axis, int) or not -ndim <= axis < ndim:
        raise ValueError(
            f"topi.{who}: argument {name!r} = {axis!r} is out of range for {ndim} dimensions"
        )
    return axis % ndim


def _as(value, dtype):
    return value if str(value.dtype) == str(dtype) else value.astype(dtype)


def gather(data, axis, indices):
    """out[i] = data[i with its axis entry replaced by indices[i]] (indices has data's rank;
    a negative index counts from the end, one out of range is clamped into the axis)."""
    from .transform import read_if_nonempty, wrapped_index

    _tensor("gather", "data", data)
    _tensor("gather", "indices", indices)
    if indices.ndim != data.ndim:
        raise ValueError(
            f"topi.gather: argument 'indices' must have data's {data.ndim} axes, got {indices.ndim}"
        )
    ax = _axis("gather", axis, data.ndim)
    extent = data.shape[ax]

    def body(*i):
        at = i[:ax] + (wrapped_index(indices[i], extent),) + i[ax + 1 :]
        return read_if_nonempty([extent], lambda: data[at])

    return te.compute(indices.shape, body, name="T_gather")


def reverse_sequence(a, seq_lengths, seq_axis=1, batch_axis=0):
    """a with the first seq_lengths[b] steps along seq_axis reversed in batch b (lengths
    beyond the axis reverse it all; the steps past the length stay)."""
    _tensor("reverse_sequence", "a", a)
    _tensor("reverse_sequence", "seq_lengths", seq_lengths)
    seq = _axis("reverse_sequence", seq_axis, a.ndim, "seq_axis")
    batch = _axis("reverse_sequence", batch_axis, a.ndim, "batch_axis")
    if seq == batch:
        raise ValueError("topi.reverse_sequence: seq_axis and batch_axis must differ")
    if seq_lengths.ndim != 1:
        raise ValueError(
            f"topi.reverse_sequence: argument 'seq_lengths' must be 1-D, got {seq_lengths.ndim}-D"
        )
    extent = a.shape[seq]

    def body(*i):
        step = i[seq]
        length = _as(seq_lengths[i[batch]], step.dtype)
        length = tir.max(tir.min(length, _as(extent, step.dtype)), tir.const(0, str(step.dtype)))
        source = tir.Select(step < length, length - 1 - step, step)
        return a[i[:seq] + (source,) + i[seq + 1 :]]

    return te.compute(a.shape, body, name="T_reverse_sequence")


def unravel_index(indices, shape):
    """The coordinates of the flat indices in an array of shape (a 1-D tensor): one row
    per axis, as NumPy's unravel_index stacked."""
    _tensor("unravel_index", "indices", indices)
    _tensor("unravel_index", "shape", shape)
    if shape.ndim != 1 or not isinstance(shape.shape[0], tir.IntImm):
        raise ValueError("topi.unravel_index: argument 'shape' must be a 1-D tensor of static size")
    if indices.ndim > 1:
        raise ValueError(
            f"topi.unravel_index: argument 'indices' must be 0-D or 1-D, got {indices.ndim}-D"
        )
    rank = shape.shape[0].value
    dtype = indices.dtype

    def body(axis, *i):
        flat = indices[i] if i else indices[()]
        stride = tir.const(1, dtype)
        for k in range(rank - 1, 0, -1):
            stride = tir.Select(axis < k, stride * _as(shape[k], dtype), stride)
        return tir.floormod(tir.floordiv(flat, stride), _as(shape[axis], dtype))

    return te.compute([shape.shape[0], *indices.shape], body, name="T_unravel")
