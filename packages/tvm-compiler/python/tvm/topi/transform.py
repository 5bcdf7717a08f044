"""Shape transforms of te tensors: reshape, transpose, expand_dims, squeeze, concatenate,
slicing and taking (the rest of upstream's topi.transform lives in _arrange, _dot, _gather
and _select)."""

from __future__ import annotations

from tvm import te
from tvm.arith import Analyzer
from tvm.tir import expr as E
from tvm.tir.op import all as tir_all
from tvm.tir.op import floordiv as tir_floordiv
from tvm.tir.op import floormod as tir_floormod
from tvm.tir.op import if_then_else

# Upstream's topi.transform holds these too; they live in smaller files here.
from ._arrange import (  # noqa: F401
    arange,
    flip,
    meshgrid,
    repeat,
    sliding_window,
    stack,
    tile,
)
from ._dot import matmul, tensordot  # noqa: F401
from ._gather import gather, reverse_sequence, unravel_index  # noqa: F401
from ._select import matrix_set_diag, one_hot, sequence_mask, trilu, where  # noqa: F401


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
    """a's elements in row-major order under newshape (one entry may be -1 when a's size is
    static; the extents may be symbolic)."""
    _check("topi.reshape", a)
    newshape = list(newshape)
    total = _static_size(a.shape)
    holes = [k for k, s in enumerate(newshape) if isinstance(s, int) and s == -1]
    if len(holes) > 1:
        raise ValueError("topi.reshape: newshape may hold at most one -1")
    if holes:
        rest = [E.convert(s) for k, s in enumerate(newshape) if k != holes[0]]
        known = _static_size(rest)
        if total is None or known is None or known == 0 or total % known:
            raise ValueError(f"topi.reshape: cannot infer -1 in {newshape} for {a.shape}")
        newshape[holes[0]] = total // known
    size = _static_size([E.convert(s) for s in newshape])
    if total is not None and size is not None and size != total:
        raise ValueError(
            f"topi.reshape: newshape {newshape} does not hold the {total} elements of a"
        )

    def body(*i):
        flat = None
        for idx, extent in zip(i, newshape):
            flat = idx if flat is None else flat * extent + idx
        if flat is None:
            flat = 0
        index = []
        for extent in reversed(a.shape):
            index.append(tir_floormod(flat, extent))
            flat = tir_floordiv(flat, extent)
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
        # An axis named explicitly is checked only where its extent is a constant (once
        # simplified: `m - m + 1` is 1), as upstream; a symbolic extent is taken to be 1.
        extent = Analyzer().simplify(a.shape[k])
        if isinstance(extent, E.IntImm) and extent.value != 1:
            raise ValueError(f"topi.squeeze: axis {k} has extent {a.shape[k]}, not 1")
    kept = [k for k in range(a.ndim) if k not in drop]

    def body(*i):
        pos = dict(zip(kept, i))
        return a[tuple(pos.get(k, 0) for k in range(a.ndim))]

    return te.compute([a.shape[k] for k in kept], body, name="T_squeeze")


def concatenate(a_tuple, axis=0):
    """The tensors of a_tuple joined along axis (their other extents agree)."""
    tensors = list(a_tuple)
    if not tensors or not all(isinstance(t, te.Tensor) for t in tensors):
        raise TypeError("topi.concatenate: argument 'a_tuple' must be a non-empty list of tensors")
    ndim = tensors[0].ndim
    axis %= ndim
    offsets, total = [], 0
    for t in tensors:
        offsets.append(total)
        total = total + t.shape[axis]
    shape = list(tensors[0].shape)
    shape[axis] = total

    def body(*i):
        value = None
        for t, off in zip(tensors, offsets):
            index = list(i)
            index[axis] = i[axis] - off
            load = t[tuple(index)]
            # if_then_else, not Select: only the chosen tensor is read (no out-of-bounds load).
            value = load if value is None else if_then_else(i[axis] >= off, load, value)
        return value

    return te.compute(shape, body, name="T_concat")


def strided_slice(a, begin, end, strides=None, axes=None, slice_mode="end", assume_inbound=True):
    """a[begin:end:strides] on the given axes (all leading ones when axes is None; the others
    are taken whole), with constant bounds clamped into a as Python's slices are.
    slice_mode "size" reads end as the slice's length (-1: to the end, stride 1)."""
    _check("topi.strided_slice", a)
    if slice_mode not in ("end", "size"):
        raise ValueError(
            f"topi.strided_slice: argument 'slice_mode' must be 'end' or 'size', got {slice_mode!r}"
        )
    begin, end = list(begin), list(end)
    strides = list(strides) if strides else [1] * len(begin)
    axes = list(range(len(begin))) if axes is None else [x % a.ndim for x in axes]
    if not len(begin) == len(end) == len(axes) or len(strides) not in (1, len(axes)):
        raise ValueError(
            "topi.strided_slice: arguments 'begin', 'end', 'strides' and 'axes' must have one "
            "entry per sliced axis"
        )
    strides = strides * len(axes) if len(strides) == 1 else strides
    spec = {}
    for k, b, e, st in zip(axes, begin, end, strides):
        b, e, st = (int(v.value) if isinstance(v, E.IntImm) else int(v) for v in (b, e, st))
        if slice_mode == "size":
            st = 1
            e = None if e < 0 else b + e
        if st == 0:
            raise ValueError("topi.strided_slice: a stride must not be 0")
        spec[k] = (b, e, st)
    shape, starts, steps = [], [], []
    for k in range(a.ndim):
        extent = a.shape[k]
        if not isinstance(extent, E.IntImm):
            raise ValueError(f"topi.strided_slice: axis {k} of a must have a static extent")
        lo, hi, step = slice(*spec.get(k, (0, extent.value, 1))).indices(extent.value)
        shape.append(len(range(lo, hi, step)))
        starts.append(lo)
        steps.append(step)
    return te.compute(
        shape,
        lambda *i: a[tuple(s + x * st for x, s, st in zip(i, starts, steps))],
        name="T_strided_slice",
    )


def split(ary, indices_or_sections, axis=0):
    """ary cut along axis into equal sections (an int) or at the given indices."""
    _check("topi.split", ary)
    axis %= ary.ndim
    extent = ary.shape[axis].value
    if isinstance(indices_or_sections, int):
        if extent % indices_or_sections:
            raise ValueError(
                f"topi.split: {indices_or_sections} sections do not divide extent {extent}"
            )
        step = extent // indices_or_sections
        cuts = list(range(step, extent, step))
    else:
        cuts = list(indices_or_sections)
    bounds = [0, *cuts, extent]
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        begin = [0] * ary.ndim
        end = [s.value for s in ary.shape]
        begin[axis], end[axis] = lo, hi
        out.append(strided_slice(ary, begin, end))
    return out


def wrapped_index(index, extent):
    """index counted from the end when negative (as NumPy and ONNX do), then clamped into
    [0, extent): an index out of range reads the nearest element instead of memory outside
    the tensor."""
    if str(index.dtype) != str(extent.dtype):
        index = index.astype(extent.dtype)
    index = if_then_else(index < 0, index + extent, index)
    return E.Max(E.Min(index, extent - 1), E.const(0, extent.dtype))


def read_if_nonempty(extents, read):
    """read() where every extent in extents is positive, else 0: an axis of extent 0 has no
    element for a clamped index to land on, so the read would be outside the tensor."""
    dynamic = [e for e in extents if not isinstance(e, E.IntImm)]
    value = read()
    if any(isinstance(e, E.IntImm) and e.value <= 0 for e in extents):
        return E.const(0, value.dtype)
    if not dynamic:
        return value
    nonempty = dynamic[0] > 0
    for e in dynamic[1:]:
        nonempty = E.And(nonempty, e > 0)
    # if_then_else, not Select: the load is not evaluated when the axis is empty.
    return if_then_else(nonempty, value, E.const(0, value.dtype))


def take(a, indices, axis=None, batch_dims=0, mode="fast"):
    """a's elements (flattened when axis is None) at the int tensor indices; the first
    batch_dims axes of indices pair with a's. An index out of range is clamped ("fast" and
    "clip"; "fast" promises none is, the clamp keeps a broken promise from reading outside
    a), wrapped ("wrap"), or reads NaN ("nan", float a)."""
    _check("topi.take", a)
    if not isinstance(indices, te.Tensor):
        raise TypeError("topi.take: argument 'indices' must be a te.Tensor")
    if mode not in ("fast", "clip", "wrap", "nan"):
        raise ValueError(
            f"topi.take: argument 'mode' must be 'fast', 'clip', 'wrap' or 'nan', got {mode!r}"
        )
    if axis is None:
        flat = reshape(a, [_static_size(a.shape)])
        return take(flat, indices, 0, 0, mode)
    axis %= a.ndim
    if batch_dims < 0:
        batch_dims += indices.ndim
    if not 0 <= batch_dims <= indices.ndim:
        raise ValueError(
            f"topi.take: argument 'batch_dims' is out of range for {indices.ndim}-D indices"
        )
    if batch_dims > axis:
        raise ValueError(
            f"topi.take: argument 'batch_dims' ({batch_dims}) must not exceed axis ({axis})"
        )
    extent = a.shape[axis]
    lead = indices.ndim - batch_dims

    def body(*i):
        batch = tuple(i[:batch_dims])
        pos = indices[batch + tuple(i[axis : axis + lead])]
        if str(pos.dtype) != str(extent.dtype):  # index arithmetic in the extent's type
            pos = pos.astype(extent.dtype)
        if mode == "wrap":
            index = tir_floormod(pos, extent)
        else:
            index = E.Max(E.Min(pos, extent - 1), E.const(0, str(extent.dtype)))
        at = tuple(i[:axis]) + (index,) + tuple(i[axis + lead :])
        value = read_if_nonempty([extent], lambda: a[at])
        if mode == "nan":
            inside = tir_all(pos >= 0, pos < extent)
            return if_then_else(inside, value, E.const(float("nan"), a.dtype))
        return value

    shape = list(a.shape[:axis]) + list(indices.shape[batch_dims:]) + list(a.shape[axis + 1 :])
    return te.compute(shape, body, name="T_take")


def gather_nd(a, indices, batch_dims=0):
    """a's slices picked by the last axis of indices (its first batch_dims axes shared with a),
    as ONNX GatherND and NumPy advanced indexing define them."""
    _check("topi.gather_nd", a)
    if not isinstance(indices, te.Tensor):
        raise TypeError(
            f"topi.gather_nd: argument 'indices' must be a te.Tensor, got {type(indices).__name__}"
        )
    depth = indices.shape[-1]
    if not isinstance(depth, E.IntImm):
        raise ValueError("topi.gather_nd: the last extent of indices must be static")
    depth = depth.value
    if batch_dims + depth > len(a.shape):
        raise ValueError(
            f"topi.gather_nd: batch_dims {batch_dims} + index depth {depth} exceed the "
            f"{len(a.shape)} dimensions of a"
        )
    lead = len(indices.shape) - 1
    out = list(indices.shape[:-1]) + list(a.shape[batch_dims + depth :])

    def element(*i):
        picks = []
        for k in range(depth):
            picks.append(wrapped_index(indices[i[:lead] + (k,)], a.shape[batch_dims + k]))
        at = tuple(i[:batch_dims]) + tuple(picks) + tuple(i[lead:])
        return read_if_nonempty(a.shape[batch_dims : batch_dims + depth], lambda: a[at])

    return te.compute(out, element, name="gather_nd")
