"""Products of te tensors over shared axes: matmul (2-D, optionally transposed), tensordot."""

from __future__ import annotations

from tvm import te
from tvm.tir import expr as E

from ._select import _tensor


def matmul(a, b, transp_a=False, transp_b=False):
    """The 2-D product op(a) @ op(b), op transposing where transp_a / transp_b say."""
    for name, t in (("a", a), ("b", b)):
        _tensor("matmul", name, t)
        if t.ndim != 2:
            raise ValueError(f"topi.matmul: argument {name!r} must be 2-D, got {t.ndim}-D")
    rows, inner = (a.shape[1], a.shape[0]) if transp_a else (a.shape[0], a.shape[1])
    other, cols = (b.shape[1], b.shape[0]) if transp_b else (b.shape[0], b.shape[1])
    if isinstance(inner, E.IntImm) and isinstance(other, E.IntImm) and inner.value != other.value:
        raise ValueError(
            f"topi.matmul: the reduced extents differ: {inner.value} (a) and {other.value} (b)"
        )
    k = te.reduce_axis((0, inner), name="k")

    def body(i, j):
        lhs = a[k, i] if transp_a else a[i, k]
        rhs = b[j, k] if transp_b else b[k, j]
        return te.sum(lhs * rhs, axis=k)

    return te.compute((rows, cols), body, name="T_matmul")


def tensordot(a, b, axes):
    """The sum over the paired axes of a and b of their products (NumPy's tensordot: axes an
    int, the last axes of a with the first of b, or two lists of axes)."""
    _tensor("tensordot", "a", a)
    _tensor("tensordot", "b", b)
    if isinstance(axes, int):
        if not 0 <= axes <= min(a.ndim, b.ndim):
            raise ValueError(f"topi.tensordot: argument 'axes' = {axes} exceeds the operands' rank")
        a_axes, b_axes = list(range(a.ndim - axes, a.ndim)), list(range(axes))
    else:
        a_axes, b_axes = ([x] if isinstance(x, int) else list(x) for x in axes)
        if len(a_axes) != len(b_axes):
            raise ValueError(
                f"topi.tensordot: argument 'axes' pairs {len(a_axes)} axes of a with "
                f"{len(b_axes)} of b"
            )
        for name, t, group in (("a", a, a_axes), ("b", b, b_axes)):
            if not all(isinstance(x, int) and -t.ndim <= x < t.ndim for x in group):
                raise ValueError(f"topi.tensordot: axes {group} are out of range for {name}")
        a_axes, b_axes = [x % a.ndim for x in a_axes], [x % b.ndim for x in b_axes]
    for x, y in zip(a_axes, b_axes):
        ea, eb = a.shape[x], b.shape[y]
        if isinstance(ea, E.IntImm) and isinstance(eb, E.IntImm) and ea.value != eb.value:
            raise ValueError(
                f"topi.tensordot: axis {x} of a ({ea.value}) and axis {y} of b ({eb.value}) differ"
            )
    a_free = [x for x in range(a.ndim) if x not in a_axes]
    b_free = [y for y in range(b.ndim) if y not in b_axes]
    raxes = [te.reduce_axis((0, a.shape[x]), name=f"k{n}") for n, x in enumerate(a_axes)]
    shape = [a.shape[x] for x in a_free] + [b.shape[y] for y in b_free]

    def body(*i):
        a_pos = dict(zip(a_free, i[: len(a_free)]))
        b_pos = dict(zip(b_free, i[len(a_free) :]))
        for r, x, y in zip(raxes, a_axes, b_axes):
            a_pos[x], b_pos[y] = r.var, r.var
        lhs = a[tuple(a_pos[x] for x in range(a.ndim))]
        rhs = b[tuple(b_pos[y] for y in range(b.ndim))]
        return te.sum(lhs * rhs, axis=raxes) if raxes else lhs * rhs

    return te.compute(shape, body, name="T_tensordot")
