"""te tensors laid out from ranges and copies: arange, stack, tile, repeat, flip, meshgrid,
sliding_window."""

from __future__ import annotations

import math

from tvm import te
from tvm.arith import Analyzer
from tvm.tir import expr as E
from tvm.tir import op as tir_op


def _is_float_dtype(dtype) -> bool:
    return str(dtype).startswith(("float", "bfloat"))


def _number(value):
    """A Python number for value when it is a constant (int, float, IntImm, FloatImm)."""
    if isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, (E.IntImm, E.FloatImm)):
        return value.value
    return None


def arange(start, stop=None, step=1, dtype="float32"):
    """[start, stop) in steps of step as a 1-D tensor of dtype (NumPy's arange; one argument
    is the stop). A float bound with an integer dtype counts in float, then converts."""
    if stop is None:
        start, stop = 0, start
    for name, value in (("start", start), ("stop", stop), ("step", step)):
        if not isinstance(value, (bool, int, float, E.PrimExpr)):
            raise TypeError(
                f"topi.arange: argument {name!r} must be a number or a PrimExpr, got "
                f"{type(value).__name__}"
            )
    numbers = [_number(v) for v in (start, stop, step)]
    if numbers[2] == 0:
        raise ValueError("topi.arange: argument 'step' must not be zero")
    work = str(dtype)
    if not _is_float_dtype(work):
        floats = [
            ("float64" if isinstance(v, float) else str(v.dtype))
            for v in (start, stop, step)
            if isinstance(v, float) or (isinstance(v, E.PrimExpr) and _is_float_dtype(v.dtype))
        ]
        work = floats[0] if floats else work

    def as_work(value):
        if isinstance(value, (bool, int, float)):
            return E.const(float(value) if _is_float_dtype(work) else int(value), work)
        return value if str(value.dtype) == work else value.astype(work)

    if None not in numbers:
        # int64, as the Relax shapes this legalises (and upstream's float case) are.
        length = E.const(max(0, math.ceil((numbers[1] - numbers[0]) / numbers[2])), "int64")
    else:
        span = as_work(stop) - as_work(start)
        if _is_float_dtype(work):
            length = tir_op.ceil(span / as_work(step)).astype("int64")
        else:
            length = tir_op.ceildiv(span, as_work(step)).astype("int64")
    first, stride = as_work(start), as_work(step)

    def body(i):
        value = first + stride * (i if str(i.dtype) == work else i.astype(work))
        return value if work == str(dtype) else value.astype(dtype)

    return te.compute([length], body, name="T_arange")


def _tensor(who, name, value):
    if not isinstance(value, te.Tensor):
        raise TypeError(
            f"topi.{who}: argument {name!r} must be a te.Tensor, got {type(value).__name__}"
        )


def _tensor_list(who, name, values):
    values = list(values) if isinstance(values, (list, tuple)) else values
    if not isinstance(values, list) or not values:
        raise TypeError(f"topi.{who}: argument {name!r} must be a non-empty list of te.Tensor")
    for value in values:
        _tensor(who, name, value)
    return values


def _axis(who, axis, ndim, name="axis"):
    """axis in [-ndim, ndim) as a non-negative int."""
    if not isinstance(axis, int) or not -ndim <= axis < ndim:
        raise ValueError(
            f"topi.{who}: argument {name!r} = {axis!r} is out of range for {ndim} dimensions"
        )
    return axis % ndim


def _dim(value, like):
    """The int value as an extent of like's index dtype (int64 shapes stay int64)."""
    dtype = str(like[0].dtype) if len(like) else "int32"
    return E.const(value, dtype)


def stack(tensors, axis=0):
    """The tensors (of one shape) joined along a new axis."""
    tensors = _tensor_list("stack", "tensors", tensors)
    shape = tensors[0].shape
    for t in tensors[1:]:
        if len(t.shape) != len(shape):
            raise ValueError(
                f"topi.stack: the tensors must share a shape, got {[str(s) for s in shape]} and "
                f"{[str(s) for s in t.shape]}"
            )
    ax = _axis("stack", axis, len(shape) + 1)
    out = list(shape[:ax]) + [_dim(len(tensors), shape)] + list(shape[ax:])

    def body(*i):
        rest = i[:ax] + i[ax + 1 :]
        value = tensors[-1][rest]
        for k in range(len(tensors) - 2, -1, -1):
            value = tir_op.if_then_else(i[ax] == k, tensors[k][rest], value)
        return value

    return te.compute(out, body, name="T_stack")


def tile(a, reps):
    """a repeated reps[k] times along axis k (NumPy's tile: the shorter of a's shape and
    reps is padded with leading 1s)."""
    _tensor("tile", "a", a)
    reps = list(reps)
    if not all(isinstance(r, int) and r >= 1 for r in reps):
        raise ValueError(f"topi.tile: argument 'reps' must hold ints >= 1, got {reps}")
    ndim = max(len(reps), a.ndim)
    reps = [1] * (ndim - len(reps)) + reps
    in_shape = [_dim(1, a.shape)] * (ndim - a.ndim) + list(a.shape)
    out = [s * r if r != 1 else s for s, r in zip(in_shape, reps)]
    offset = ndim - a.ndim
    return te.compute(
        out,
        lambda *i: a[tuple(tir_op.floormod(i[offset + k], d) for k, d in enumerate(a.shape))],
        name="T_tile",
    )


def repeat(a, repeats, axis):
    """Each element of a repeated repeats times along axis (a flattened when axis is None)."""
    _tensor("repeat", "a", a)
    if not isinstance(repeats, int) or repeats < 1:
        raise ValueError(f"topi.repeat: argument 'repeats' must be an int >= 1, got {repeats!r}")
    if axis is None:  # a flattened (row-major), as NumPy's repeat without an axis
        count = 1
        for d in a.shape:
            count = count * d

        def flat(i):
            pos, index = tir_op.floordiv(i, repeats), []
            for extent in reversed(a.shape):
                index.append(tir_op.floormod(pos, extent))
                pos = tir_op.floordiv(pos, extent)
            return a[tuple(reversed(index))]

        return te.compute([count * repeats], flat, name="T_repeat")
    ax = _axis("repeat", axis, a.ndim)
    out = list(a.shape)
    out[ax] = out[ax] * repeats
    return te.compute(
        out,
        lambda *i: a[i[:ax] + (tir_op.floordiv(i[ax], repeats),) + i[ax + 1 :]],
        name="T_repeat",
    )


def flip(a, axis=0):
    """a with the order of its elements along axis reversed."""
    _tensor("flip", "a", a)
    ax = _axis("flip", axis, a.ndim)
    last = a.shape[ax] - 1
    return te.compute(
        a.shape, lambda *i: a[i[:ax] + (last - i[ax],) + i[ax + 1 :]], name="T_reverse_sequence"
    )


def meshgrid(a_tuple, indexing):
    """Coordinate grids of the 1-D tensors of a_tuple (indexing 'ij' matrix, 'xy' Cartesian:
    the first two axes swapped), as NumPy's meshgrid."""
    tensors = _tensor_list("meshgrid", "a_tuple", a_tuple)
    if indexing not in ("ij", "xy"):
        raise ValueError(
            f"topi.meshgrid: argument 'indexing' must be 'ij' or 'xy', got {indexing!r}"
        )
    for t in tensors:
        if t.ndim != 1:
            raise ValueError(f"topi.meshgrid: the tensors must be 1-D, got {t.ndim}-D")
    shape = [t.shape[0] for t in tensors]
    order = list(range(len(tensors)))
    if indexing == "xy" and len(tensors) >= 2:
        shape[0], shape[1] = shape[1], shape[0]
        order[0], order[1] = 1, 0
    # Output axis k of grid g reads tensor g along the axis that order puts it on.
    where = {g: order.index(g) for g in range(len(tensors))}
    return [
        te.compute(shape, lambda *i, g=g: tensors[g][i[where[g]]], name="T_meshgrid")
        for g in range(len(tensors))
    ]


def sliding_window(data, axis, window_shape, strides):
    """Every window of window_shape over data's axes from axis on (moved by strides): the
    result has data's leading axes, then the window counts, then window_shape."""
    _tensor("sliding_window", "data", data)
    ax = _axis("sliding_window", axis, data.ndim)
    window_shape, strides = list(window_shape), list(strides)
    span = data.ndim - ax
    if len(window_shape) != span or len(strides) != span:
        raise ValueError(
            f"topi.sliding_window: arguments 'window_shape' and 'strides' must have "
            f"{span} entries (data's axes from axis {ax} on), got {window_shape} and {strides}"
        )
    counts = [E.FloorDiv(data.shape[ax + k] - window_shape[k], strides[k]) + 1 for k in range(span)]
    counts = [Analyzer().simplify(c) for c in counts]
    for k, c in enumerate(counts):
        if isinstance(c, E.IntImm) and c.value < 1:
            raise ValueError(
                f"topi.sliding_window: window {window_shape[k]} is larger than data's axis "
                f"{ax + k} ({data.shape[ax + k]})"
            )
    out = list(data.shape[:ax]) + counts + window_shape

    def body(*i):
        lead, window, inner = i[:ax], i[ax : ax + span], i[ax + span :]
        return data[lead + tuple(w * st + x for w, st, x in zip(window, strides, inner))]

    return te.compute(out, body, name="T_sliding_window")
