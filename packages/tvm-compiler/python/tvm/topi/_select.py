"""Selections of te tensors' elements by a condition or a mask: where (more follow)."""

from __future__ import annotations

from tvm import te, tir

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
