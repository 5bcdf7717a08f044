"""Selections of te tensors' elements by a condition, a mask or a diagonal: where, one_hot,
trilu, sequence_mask, matrix_set_diag."""

from __future__ import annotations

from tvm import te, tir
from tvm.tir import expr as E

from .broadcast import _index, broadcast_shape


def _tensor(who, name, value):
    if not isinstance(value, te.Tensor):
        raise TypeError(
            f"topi.{who}: argument {name!r} must be a te.Tensor, got {type(value).__name__}"
        )


def where(condition, x, y):
    """x where condition holds, else y, the three broadcast together (NumPy's rules)."""
    for name, value in (("condition", condition), ("x", x), ("y", y)):
        _tensor("where", name, value)
    if str(x.dtype) != str(y.dtype):
        raise ValueError(f"topi.where: x ({x.dtype}) and y ({y.dtype}) must share a dtype")
    shape = broadcast_shape(
        "topi.where", condition.shape, broadcast_shape("topi.where", x.shape, y.shape)
    )

    def body(*i):
        cond = _index(condition, i)
        if str(cond.dtype) != "bool":
            cond = cond != tir.const(0, cond.dtype)
        return tir.Select(cond, _index(x, i), _index(y, i))

    return te.compute(shape, body, name="T_where")


def _scalar(value, dtype):
    """value (a number or a PrimExpr) as an expression of dtype."""
    if isinstance(value, E.PrimExpr):
        return value if str(value.dtype) == str(dtype) else value.astype(dtype)
    dtype = str(dtype)
    if dtype == "bool":
        return tir.const(bool(value), "bool")
    if dtype.startswith(("float", "bfloat")):
        return tir.const(float(value), dtype)
    return tir.const(int(value), dtype)


def one_hot(indices, on_value, off_value, depth, axis, dtype):
    """on_value where the new axis (of extent depth, at axis; -1 is last) equals indices,
    off_value elsewhere."""
    _tensor("one_hot", "indices", indices)
    if not isinstance(depth, int) or depth < 1:
        raise ValueError(f"topi.one_hot: argument 'depth' must be an int >= 1, got {depth!r}")
    ndim = indices.ndim + 1
    if not isinstance(axis, int) or not -ndim <= axis < ndim:
        raise ValueError(
            f"topi.one_hot: argument 'axis' = {axis!r} is out of range for {ndim} dimensions"
        )
    ax = axis % ndim
    on, off = _scalar(on_value, dtype), _scalar(off_value, dtype)
    like = str(indices.shape[0].dtype) if indices.ndim else "int32"
    shape = list(indices.shape[:ax]) + [tir.const(depth, like)] + list(indices.shape[ax:])

    def body(*i):
        idx = indices[i[:ax] + i[ax + 1 :]]
        pos = i[ax] if str(i[ax].dtype) == str(idx.dtype) else i[ax].astype(idx.dtype)
        return tir.if_then_else(idx == pos, on, off)

    return te.compute(shape, body, name="T_one_hot")


def trilu(data, k, upper):
    """data with the elements off its upper (upper) or lower triangle set to 0; the triangle
    starts k diagonals above the main one (the last two axes are the matrix)."""
    _tensor("trilu", "data", data)
    if data.ndim < 2:
        raise ValueError(f"topi.trilu: argument 'data' must have at least 2 axes, got {data.ndim}")
    if not isinstance(k, (int, E.PrimExpr)) or isinstance(k, bool):
        raise TypeError(f"topi.trilu: argument 'k' must be an int or a PrimExpr, got {k!r}")
    zero = _scalar(0, data.dtype)

    def body(*i):
        row, col = i[-2], i[-1]
        diff = col - row
        kk = k if isinstance(k, int) or str(k.dtype) == str(diff.dtype) else k.astype(diff.dtype)
        keep = diff >= kk if upper else diff <= kk
        return tir.if_then_else(keep, data[i], zero)

    return te.compute(data.shape, body, name="T_trilu")


def sequence_mask(data, valid_length, mask_value=0, axis=0):
    """data with the steps at or past valid_length[b] set to mask_value; data is
    (length, batch, ...) for axis 0, (batch, length, ...) for axis 1."""
    _tensor("sequence_mask", "data", data)
    _tensor("sequence_mask", "valid_length", valid_length)
    if axis not in (0, 1):
        raise ValueError(f"topi.sequence_mask: argument 'axis' must be 0 or 1, got {axis!r}")
    if valid_length.ndim != 1:
        raise ValueError(
            f"topi.sequence_mask: argument 'valid_length' must be 1-D, got {valid_length.ndim}-D"
        )
    masked = _scalar(mask_value, data.dtype)

    def body(*i):
        step, batch = (i[0], i[1]) if axis == 0 else (i[1], i[0])
        limit = valid_length[batch]
        step = step if str(step.dtype) == str(limit.dtype) else step.astype(limit.dtype)
        return tir.if_then_else(step >= limit, masked, data[i])

    return te.compute(data.shape, body, name="T_sequence_mask")


_ALIGNS = ("LEFT_RIGHT", "LEFT_LEFT", "RIGHT_LEFT", "RIGHT_RIGHT")


def matrix_set_diag(data, diagonal, k=0, align="RIGHT_LEFT"):
    """data with diagonal k (or the band k = (low, high)) of its last two axes replaced by
    diagonal, as TensorFlow's matrix_set_diag: a band's diagonal holds one row per
    diagonal, highest first, each padded on the side align names (super-, sub-diagonals)."""
    _tensor("matrix_set_diag", "data", data)
    _tensor("matrix_set_diag", "diagonal", diagonal)
    if align not in _ALIGNS:
        raise ValueError(
            f"topi.matrix_set_diag: argument 'align' must be one of {_ALIGNS}, got {align!r}"
        )
    low, high = (k, k) if isinstance(k, int) else tuple(k)
    if low > high:
        raise ValueError(f"topi.matrix_set_diag: argument 'k' {k!r} has low > high")
    rows, cols = data.shape[-2], data.shape[-1]
    super_right, sub_right = align.startswith("RIGHT"), align.endswith("RIGHT")

    def diag_len(d):
        return tir.min(rows + tir.min(d, 0), cols - tir.max(d, 0))

    max_len = diagonal.shape[-1]

    def body(*i):
        r, c = i[-2], i[-1]
        d = c - r
        pos = tir.min(r, c)
        if low == high:
            value = diagonal[i[:-2] + (pos,)]
        else:
            right = tir.Select(d >= 0, tir.const(super_right), tir.const(sub_right))
            pad = tir.Select(right, max_len - diag_len(d), tir.const(0, str(d.dtype)))
            value = diagonal[i[:-2] + (high - d, pos + pad)]
        inside = tir.And(d >= low, d <= high)
        return tir.if_then_else(inside, value, data[i])

    return te.compute(data.shape, body, name="T_matrix_set_diag")
