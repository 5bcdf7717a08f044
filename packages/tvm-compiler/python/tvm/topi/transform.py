"""Shape transforms of te tensors: reshape, transpose, expand_dims, squeeze."""

from __future__ import annotations

from tvm import te
from tvm.tir import expr as E


def _check(who, data):
    if not isinstance(data, te.Tensor):
        raise TypeError(f"{who}: argument 'data' must be a te.Tensor, got {type(data).__name__}")


def _static_size(shape):
    size = 1
    for s in shape:
        if not isinstance(s, E.IntImm):
            return None
        size *= s.value
    return size


def reshape(a, newshape):
    """a's elements in row-major order under newshape (one entry may be -1)."""
    _check("topi.reshape", a)
    newshape = list(newshape)
    total = _static_size(a.shape)
    if newshape.count(-1) > 1:
        raise ValueError("topi.reshape: newshape may hold at most one -1")
    if -1 in newshape:
        known = _static_size([E.convert(s) for s in newshape if s != -1])
        if total is None or known is None or known == 0 or total % known:
            raise ValueError(f"topi.reshape: cannot infer -1 in {newshape} for {a.shape}")
        newshape[newshape.index(-1)] = total // known
    if total is not None and _static_size([E.convert(s) for s in newshape]) not in (None, total):
        raise ValueError(
            f"topi.reshape: newshape {newshape} does not hold the {total} elements of a"
        )

    def body(*i):
        flat = 0
        for idx, extent in zip(i, newshape):
            flat = flat * extent + idx
        index = []
        for extent in reversed(a.shape):
            index.append(E.FloorMod(flat, extent) if not isinstance(flat, int) else flat)
            flat = E.FloorDiv(flat, extent) if not isinstance(flat, int) else flat
        return a[tuple(reversed(index))]

    return te.compute(newshape, body, name="T_reshape")


def transpose(a, axes=None):
    """a with its axes permuted (reversed when axes is None)."""
    _check("topi.transpose", a)
    axes = list(range(a.ndim))[::-1] if axes is None else [x % a.ndim for x in axes]
    if sorted(axes) != list(range(a.ndim)):
        raise ValueError(f"topi.transpose: axes {axes} is not a permutation of {a.ndim} axes")
    inverse = [axes.index(k) for k in range(a.ndim)]
    return te.compute(
        [a.shape[k] for k in axes],
        lambda *i: a[tuple(i[inverse[k]] for k in range(a.ndim))],
        name="T_transpose",
    )


def expand_dims(a, axis, num_newaxis=1):
    """a with num_newaxis axes of extent 1 inserted at axis."""
    _check("topi.expand_dims", a)
    if not -a.ndim - 1 <= axis <= a.ndim:
        raise ValueError(f"topi.expand_dims: axis {axis} is out of range for {a.ndim} dimensions")
    axis = axis % (a.ndim + 1)
    shape = list(a.shape[:axis]) + [1] * num_newaxis + list(a.shape[axis:])
    return te.compute(
        shape,
        lambda *i: a[tuple(i[:axis]) + tuple(i[axis + num_newaxis :])],
        name="T_expand_dims",
    )


def squeeze(a, axis=None):
    """a without its axes of extent 1 (only those in axis, when given)."""
    _check("topi.squeeze", a)
    ones = [k for k, s in enumerate(a.shape) if isinstance(s, E.IntImm) and s.value == 1]
    drop = (
        ones if axis is None else [x % a.ndim for x in ([axis] if isinstance(axis, int) else axis)]
    )
    for k in drop:
        if k not in ones:
            raise ValueError(f"topi.squeeze: axis {k} has extent {a.shape[k]}, not 1")
    kept = [k for k in range(a.ndim) if k not in drop]

    def body(*i):
        pos = dict(zip(kept, i))
        return a[tuple(pos.get(k, 0) for k in range(a.ndim))]

    return te.compute([a.shape[k] for k in kept], body, name="T_squeeze")
