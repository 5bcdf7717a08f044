"""Shape manipulation: reshape (-1 and symbolic dims), permute_dims, expand_dims, squeeze,
flatten, concat, split, broadcast_to."""

from __future__ import annotations

from tvm.ir.expr import RelaxExpr
from tvm.tir import expr as E

from ..expr import ShapeExpr, Tuple
from ..struct_info import TensorStructInfo, TupleStructInfo
from ._utils import (
    arg_sinfo,
    dims_of,
    fmt_shape,
    int64,
    literal_dims,
    normalize_axes,
    normalize_axis,
    product,
    provably_unequal,
    shape_arg_values,
    simplify,
    static,
    tensor_arg,
    tensor_sinfo,
)
from .base import call_op, register
from .op_attrs import (
    ConcatAttrs,
    ExpandDimsAttrs,
    PermuteDimsAttrs,
    SplitAttrs,
    SqueezeAttrs,
    TileAttrs,
)


def _resolve_minus_one(who, data_dims, new_dims, data_sinfo):
    """new_dims with its one -1 replaced by what makes the element counts agree."""
    holes = [i for i, d in enumerate(new_dims) if static(d) == -1]
    if len(holes) > 1:
        raise ValueError(f"{who}: the new shape may contain -1 only once, got {new_dims}")
    if not holes:
        return new_dims
    if data_dims is None:
        return None
    known = product([d for i, d in enumerate(new_dims) if i != holes[0]])
    total = product(data_dims)
    if static(known) == 0:
        raise ValueError(f"{who}: cannot infer -1 in a shape with a zero extent")
    if static(known) is not None and static(total) is not None and static(total) % static(known):
        raise ValueError(
            f"{who}: cannot reshape x of shape {fmt_shape(data_sinfo)} ({static(total)} elements) "
            f"into {fmt_shape(new_dims)}"
        )
    out = list(new_dims)
    out[holes[0]] = simplify(E.FloorDiv(total, known))
    return out


def _infer_reshape(call, ctx):
    data = tensor_arg(call, 0, "x")
    new_dims, ndim = shape_arg_values(call, 1, "shape")
    if new_dims is None:  # a shape variable of unknown values stays the result's shape
        return TensorStructInfo(call.args[1], data.dtype, data.vdevice)
    data_dims = dims_of(data)
    resolved = _resolve_minus_one("reshape", data_dims, new_dims, data)
    if resolved is None:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=len(new_dims))
    if data_dims is not None:
        before, after = product(data_dims), product(resolved)
        diff = simplify(before - after)
        if static(diff) is not None and static(diff) != 0:
            raise ValueError(
                f"reshape: cannot reshape x of shape {fmt_shape(data)} ({before} elements) into "
                f"{fmt_shape(resolved)} ({after} elements)"
            )
    if resolved is not new_dims or not isinstance(call.args[1], ShapeExpr):
        # a shape variable whose values are known gives those values, as upstream
        return tensor_sinfo(resolved, data.dtype, data.vdevice)
    shape = call.args[1] if resolved is new_dims else ShapeExpr(resolved)
    return TensorStructInfo(shape, data.dtype, data.vdevice)


register("reshape", _infer_reshape)


def _shape_arg(who, shape):
    if isinstance(shape, RelaxExpr):
        return shape
    # As upstream's Variant<Expr, Array<PrimExpr>> signature: a bare int or PrimExpr is not a
    # shape (reshape(x, 120) is a TypeError, not (120,)).
    if not isinstance(shape, (list, tuple)):
        raise TypeError(
            f"{who}: shape must be a tuple/list of dims or a shape Expr, got "
            f"{type(shape).__name__} {shape!r}"
        )
    for dim in shape:
        # int() read a str dim as a number, or said only "invalid literal for int()"
        if (
            isinstance(dim, (bool, str))
            or not isinstance(dim, E.PrimExpr)
            and not hasattr(dim, "__index__")
        ):
            raise TypeError(
                f"{who}: shape entries must be ints or PrimExprs, got {dim!r} in {shape!r}"
            )
    return ShapeExpr([int64(d) for d in shape])


def _new_shape(x, shape):
    """Upstream's ConvertNewShapeToExpr: a literal new shape's 0s copy x's dims at the same
    position and its one -1 is inferred from x's element count; both need x's dims. Malformed
    shapes are InternalErrors, as upstream's checks make them."""
    from tvm.error import InternalError

    if isinstance(shape, RelaxExpr) and not isinstance(shape, ShapeExpr):
        return shape
    if isinstance(shape, ShapeExpr):
        raw = list(shape.values)
    elif isinstance(shape, (list, tuple)):
        raw = list(shape)
    else:
        _shape_arg("reshape", shape)  # TypeError for a bare int / PrimExpr
    for d in raw:
        if isinstance(d, RelaxExpr):
            raise TypeError(
                f"reshape: the new shape must hold ints or PrimExprs, got the Relax "
                f"expression {d!r}; pass a shape Expr instead"
            )
        if isinstance(d, str) or not isinstance(d, (int, float, E.PrimExpr)):
            raise TypeError(f"reshape: shape entries must be ints or PrimExprs, got {d!r} in {raw}")
        dtype = str(d.dtype) if isinstance(d, E.PrimExpr) else None
        if isinstance(d, bool) or not (isinstance(d, int) or (dtype or "").startswith("int")):
            raise InternalError(f"reshape: the new shape must hold integers, got {raw}")
    dims = [int64(d) for d in raw]
    zeros = [i for i, d in enumerate(dims) if static(d) == 0]
    holes = [i for i, d in enumerate(dims) if static(d) == -1]
    if len(holes) > 1:
        raise InternalError(f"reshape: the new shape may contain -1 only once, got {raw}")
    bad = [d for d in dims if static(d) is not None and static(d) < -1]
    if bad:
        raise InternalError(
            f"reshape: new shape values must be positive (or one -1, or 0 to copy), got {raw}"
        )
    if not holes and not zeros:
        return ShapeExpr(dims)
    sinfo = x.__dict__.get("struct_info_")
    if sinfo is None:  # x not normalised yet: its inference resolves the -1 (0s stay literal)
        return ShapeExpr(dims)
    old = dims_of(sinfo) if isinstance(sinfo, TensorStructInfo) else None
    if old is None:
        raise InternalError(
            f"reshape: x must have a known shape to infer the -1 or 0 dims of {raw}"
        )
    for i in zeros:
        dims[i] = old[i]
    if holes:
        known = product([d for i, d in enumerate(dims) if i != holes[0]])
        dims[holes[0]] = simplify(E.FloorDiv(product(old), known))
    return ShapeExpr(dims)


def reshape(x, shape):
    """x with a new shape of the same element count; one dim may be -1 (inferred) and a 0
    copies x's dim at that position."""
    return call_op("reshape", [x, _new_shape(x, shape)])


def _infer_permute_dims(call, ctx):
    from tvm.error import InternalError

    data = tensor_arg(call, 0, "x")
    axes = call.attrs.axes
    if axes is None:
        if data.ndim == -1:
            return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice)
        axes = list(range(data.ndim))[::-1]
    elif data.ndim == -1:
        raise InternalError(
            f"permute_dims: x of unknown rank cannot be permuted by the explicit axes {list(axes)}"
        )
    elif len(axes) != data.ndim:
        raise ValueError(
            f"permute_dims: axes {list(axes)} must name each of the {data.ndim} dimensions of x"
        )
    axes = normalize_axes("permute_dims", axes, len(axes), "axes")
    if axes == sorted(axes):  # the identity keeps x's struct info (a shape variable too)
        return data
    dims = literal_dims(data)  # as upstream: a shape variable's values are not looked into
    if dims is None:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=len(axes))
    return tensor_sinfo([dims[a] for a in axes], data.dtype, data.vdevice)


register("permute_dims", _infer_permute_dims)


def permute_dims(x, axes=None):
    """x with its axes permuted (reversed when axes is None)."""
    return call_op(
        "permute_dims", [x], PermuteDimsAttrs(axes=None if axes is None else tuple(axes))
    )


def _infer_expand_dims(call, ctx):
    data = tensor_arg(call, 0, "x")
    if not call.attrs.axis:  # no new axes: x's struct info as it is
        return data
    if data.ndim == -1:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice)
    out_ndim = data.ndim + len(call.attrs.axis)
    axes = normalize_axes("expand_dims", call.attrs.axis, out_ndim)
    dims = literal_dims(data)  # as upstream: a shape variable's values are not looked into
    if dims is None:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=out_ndim)
    it = iter(dims)
    out = [E.const(1, "int64") if k in axes else next(it) for k in range(out_ndim)]
    return tensor_sinfo(out, data.dtype, data.vdevice)


register("expand_dims", _infer_expand_dims)


def expand_dims(x, axis):
    """x with extent-1 axes inserted at axis (an int or a list, positions in the result)."""
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return call_op("expand_dims", [x], ExpandDimsAttrs(axis=axes))


def _infer_squeeze(call, ctx):
    """As upstream: no axes keeps x; a given axis whose extent is a constant other than 1 is
    left in place (a no-op), a symbolic one is assumed to be 1; without axes every constant 1
    goes (and any symbolic extent makes the rank unknown). A shape variable's values decide
    which axes go, but only a literal shape gives the result's dims."""
    data = tensor_arg(call, 0, "x")
    axis = call.attrs.axis
    if axis is not None and len(axis) == 0:
        return data
    if data.ndim == -1:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice)
    dims = dims_of(data)
    if axis is not None:
        axes = normalize_axes("squeeze", axis, data.ndim)
        drop = {a for a in axes if dims is None or static(dims[a]) in (None, 1)}
    else:
        if dims is None or any(static(d) is None for d in dims):
            return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice)
        drop = {k for k, d in enumerate(dims) if static(d) == 1}
    if not drop:
        return data
    literal = literal_dims(data)
    if literal is None:  # upstream keeps the rank only when the axes were named
        ndim = data.ndim - len(drop) if axis is not None else -1
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=ndim)
    return tensor_sinfo(
        [d for k, d in enumerate(literal) if k not in drop], data.dtype, data.vdevice
    )


register("squeeze", _infer_squeeze)


def squeeze(x, axis=None):
    """x without the extent-1 axes in axis (all of them when None)."""
    axes = None if axis is None else ((axis,) if isinstance(axis, int) else tuple(axis))
    return call_op("squeeze", [x], SqueezeAttrs(axis=axes))


def _infer_flatten(call, ctx):
    """As upstream: a 0-d x flattens to (1,), a 1-D x is itself, else the product of a
    literal shape (1-D of unknown extent otherwise)."""
    data = tensor_arg(call, 0, "x")
    if data.ndim == 0:
        return tensor_sinfo([1], data.dtype, data.vdevice)
    if data.ndim == 1:
        return data
    dims = literal_dims(data) if data.ndim != -1 else None
    if dims is None:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=1)
    return tensor_sinfo([product(dims)], data.dtype, data.vdevice)


register("flatten", _infer_flatten)


def flatten(x):
    """x as a 1-D tensor."""
    return call_op("flatten", [x])


def _tensor_fields(who, sinfo):
    if not isinstance(sinfo, TupleStructInfo):
        raise TypeError(f"{who}: argument 'tensors' must be a tuple of tensors, got {sinfo}")
    for i, f in enumerate(sinfo.fields):
        if not isinstance(f, TensorStructInfo):
            raise TypeError(f"{who}: tensor {i} of 'tensors' is not a tensor: {f}")
    if not sinfo.fields:
        raise ValueError(f"{who}: argument 'tensors' must hold at least one tensor")
    return sinfo.fields


def _infer_concat(call, ctx):
    """As upstream: an unknown dtype among the tensors makes the result's unknown; the first
    vdevice given is the result's; only literal shapes give dims; extents off the concatenated
    axis that are provably different are an error. axis None joins 1-D tensors."""
    fields = _tensor_fields("concat", arg_sinfo(call, 0, "tensors"))
    dtypes = {f.dtype for f in fields} - {"void"}
    if len(dtypes) > 1:
        raise TypeError(f"concat: the tensors have different dtypes {sorted(dtypes)}")
    dtype = "void" if any(f.dtype == "void" for f in fields) or not dtypes else dtypes.pop()
    vdevice = next((f.vdevice for f in fields if f.vdevice is not None), None)
    ndims = {f.ndim for f in fields} - {-1}
    if len(ndims) > 1:
        raise ValueError(f"concat: the tensors have different ndims {[f.ndim for f in fields]}")
    if call.attrs.axis is None and ndims - {1}:
        raise ValueError(
            f"concat: without an axis the tensors must be 1-D, got ndims {[f.ndim for f in fields]}"
        )
    if not ndims:
        return fields[0] if len(fields) == 1 else TensorStructInfo(dtype=dtype, vdevice=vdevice)
    ndim = ndims.pop()
    axis = 0 if call.attrs.axis is None else normalize_axis("concat", call.attrs.axis, ndim)
    if len(fields) == 1:  # one tensor joined with nothing: itself
        return fields[0]
    # Extents are checked wherever known (a shape variable's values too), but only literal
    # shapes give the result's dims, as upstream.
    all_dims = [dims_of(f) for f in fields]
    literal = all(literal_dims(f) is not None for f in fields)
    if any(d is None for d in all_dims):
        return TensorStructInfo(dtype=dtype, vdevice=vdevice, ndim=ndim)
    out = list(all_dims[0])
    for i, dims in enumerate(all_dims[1:], start=1):
        for k in range(ndim):
            if k == axis:
                continue
            if provably_unequal(out[k], dims[k]):
                raise ValueError(
                    f"concat: tensor {i} of shape {fmt_shape(fields[i])} does not match tensor 0 "
                    f"of shape {fmt_shape(fields[0])} on axis {k} (concatenating on axis {axis})"
                )
            # Unlike upstream (an unknown shape), extents that cannot be proven equal keep
            # tensor 0's: LegalizeOps then lowers the op and checks them at run time.
    if not literal:
        return TensorStructInfo(dtype=dtype, vdevice=vdevice, ndim=ndim)
    out[axis] = simplify(sum((d[axis] for d in all_dims[1:]), all_dims[0][axis]))
    return tensor_sinfo(out, dtype, vdevice)


register("concat", _infer_concat)


def _tuple_arg(tensors):
    return Tuple(list(tensors)) if isinstance(tensors, (list, tuple)) else tensors


def concat(tensors, axis: int | None = 0):
    """The tensors joined along axis (1-D tensors end to end when axis is None)."""
    return call_op("concat", [_tuple_arg(tensors)], ConcatAttrs(axis=axis))


def _infer_split(call, ctx):
    data = tensor_arg(call, 0, "x")
    spec = call.attrs.indices_or_sections
    if data.ndim == -1:
        count = spec if isinstance(spec, int) else len(spec) + 1
        return TupleStructInfo(
            [TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=-1)] * count
        )
    axis = normalize_axis("split", call.attrs.axis, data.ndim)
    if isinstance(spec, int):
        if spec <= 0:
            raise ValueError(f"split: indices_or_sections must be positive, got {spec}")
        literal = literal_dims(data)  # as upstream, a shape variable's values give no dims
        if literal is None:
            sinfo = TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=data.ndim)
            return TupleStructInfo([sinfo] * spec)
        # As upstream: sections of ceil(n / spec), the last one what remains (uneven splits
        # allowed); a symbolic n keeps the form (n + spec - 1) // spec.
        n = literal[axis]
        if static(n) is not None:
            part = -(-static(n) // spec)
            last = static(n) - part * (spec - 1)
            if last < 0:
                raise ValueError(
                    f"split: axis {axis} of x (shape {fmt_shape(data)}) is too short for {spec} "
                    f"sections of {part}"
                )
        else:
            part = E.FloorDiv(n + E.const(spec - 1, "int64"), E.const(spec, "int64"))
            last = n - part * E.const(spec - 1, "int64")
        parts = [part] * (spec - 1) + [last]
        return TupleStructInfo(
            [
                TensorStructInfo(
                    [int64(d) for d in literal[:axis] + [p] + literal[axis + 1 :]],
                    data.dtype,
                    data.vdevice,
                )
                for p in parts
            ]
        )
    literal = literal_dims(data)  # as upstream, a shape variable's values give no dims
    if literal is None:
        return TupleStructInfo(
            [TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=data.ndim)]
            * (len(spec) + 1)
        )
    parts = []
    for lo, hi in zip([0, *spec], [*spec, None]):
        extent = _split_extent(literal[axis], lo, hi)
        shape = literal[:axis] + [extent] + literal[axis + 1 :]
        parts.append(TensorStructInfo([int64(d) for d in shape], data.dtype, data.vdevice))
    return TupleStructInfo(parts)


def _split_extent(n, lo, hi):
    """The extent of x[lo:hi] on an axis of extent n, as upstream: both bounds clamped to
    [0, n], at least 0 (hi None: the axis' end). A symbolic n keeps upstream's simplified form:
    max(min(hi, n) - min(lo, n), 0), or max(n - lo, 0) for the last part."""
    lo, hi = max(int(lo), 0), (None if hi is None else max(int(hi), 0))
    size = static(n)
    if size is not None:
        stop = size if hi is None else min(hi, size)
        return max(stop - min(lo, size), 0)
    zero = E.const(0, "int64")
    if hi is None:
        return E.Max(n - E.const(lo, "int64"), zero) if lo else n
    start = E.Min(E.const(lo, "int64"), n)
    return E.Max(E.Min(E.const(hi, "int64"), n) - start, zero)


register("split", _infer_split)


def split(x, indices_or_sections, axis: int = 0):
    """x cut along axis into sections of ceil(n / sections) (the last one shorter when uneven)
    or at the given indices (a list)."""
    spec = indices_or_sections
    spec = spec if isinstance(spec, int) else tuple(int(i) for i in spec)
    return call_op("split", [x], SplitAttrs(indices_or_sections=spec, axis=axis))


def _infer_broadcast_to(call, ctx):
    data = tensor_arg(call, 0, "x")
    target, ndim = shape_arg_values(call, 1, "shape")
    if target is None:
        return TensorStructInfo(dtype=data.dtype, vdevice=data.vdevice, ndim=ndim)
    dims = dims_of(data)
    if dims is not None:
        if len(dims) > len(target):
            raise ValueError(
                f"broadcast_to: x of shape {fmt_shape(data)} has more dimensions than the target "
                f"shape {fmt_shape(target)}"
            )
        for k, d in enumerate(dims):
            t = target[len(target) - len(dims) + k]
            if static(d) not in (None, 1) and static(t) is not None and static(d) != static(t):
                raise ValueError(
                    f"broadcast_to: x of shape {fmt_shape(data)} cannot broadcast to "
                    f"{fmt_shape(target)}"
                )
    return TensorStructInfo(call.args[1], data.dtype, data.vdevice)


register("broadcast_to", _infer_broadcast_to)


def broadcast_to(x, shape):
    """x broadcast (NumPy's rules) to shape."""
    return call_op("broadcast_to", [x, _shape_arg("broadcast_to", shape)])


def _infer_stack(call, ctx):
    fields = _tensor_fields("stack", arg_sinfo(call, 0, "tensors"))
    first = fields[0]
    if first.ndim == -1:
        return TensorStructInfo(dtype=first.dtype, ndim=-1)
    axis = normalize_axis("stack", call.attrs.axis, first.ndim + 1)
    all_dims = [dims_of(f) for f in fields]
    for i, (f, d) in enumerate(zip(fields, all_dims)):
        if f.ndim != first.ndim or (
            d is not None
            and all_dims[0] is not None
            and any(
                static(a) is not None and static(b) is not None and static(a) != static(b)
                for a, b in zip(d, all_dims[0])
            )
        ):
            raise ValueError(
                f"stack: tensor {i} of shape {fmt_shape(f)} differs from tensor 0 of shape "
                f"{fmt_shape(first)}"
            )
    if all_dims[0] is None:
        return TensorStructInfo(dtype=first.dtype, ndim=first.ndim + 1)
    out = list(all_dims[0])
    out.insert(axis, E.const(len(fields), "int64"))
    return tensor_sinfo(out, first.dtype, first.vdevice)


register("stack", _infer_stack)


def stack(tensors, axis: int = 0):
    """The tensors (of one shape) joined along a new axis."""
    return call_op("stack", [_tuple_arg(tensors)], ConcatAttrs(axis=axis))


def _infer_tile(call, ctx):
    data = tensor_arg(call, 0, "x")
    reps = list(call.attrs.repeats)
    dims = dims_of(data)
    if dims is None:
        return TensorStructInfo(
            dtype=data.dtype, ndim=-1 if data.ndim == -1 else max(data.ndim, len(reps))
        )
    ndim = max(len(dims), len(reps))
    dims = [E.const(1, "int64")] * (ndim - len(dims)) + dims
    reps = [1] * (ndim - len(reps)) + reps
    return tensor_sinfo([d * r for d, r in zip(dims, reps)], data.dtype, data.vdevice)


register("tile", _infer_tile)


def tile(x, repeats):
    """x repeated repeats[k] times along axis k (NumPy's tile)."""
    reps = (repeats,) if isinstance(repeats, int) else tuple(int(r) for r in repeats)
    return call_op("tile", [x], TileAttrs(repeats=reps))


def _infer_repeat(call, ctx):
    data = tensor_arg(call, 0, "x")
    dims = dims_of(data)
    axis, n = call.attrs.axis, call.attrs.repeats
    if dims is None:
        return TensorStructInfo(dtype=data.dtype, ndim=1 if axis is None else data.ndim)
    if axis is None:
        return tensor_sinfo([product(dims) * n], data.dtype, data.vdevice)
    axis = normalize_axis("repeat", axis, data.ndim)
    dims[axis] = dims[axis] * n
    return tensor_sinfo(dims, data.dtype, data.vdevice)


register("repeat", _infer_repeat)


def repeat(data, repeats: int, axis=None):
    """Each element of data repeated repeats times along axis (flattened when None)."""
    if not isinstance(repeats, int) or repeats < 0:
        raise ValueError(f"repeat: repeats must be a non-negative int, got {repeats!r}")
    return call_op("repeat", [data], TileAttrs(repeats=repeats, axis=axis))


def _infer_flip(call, ctx):
    data = tensor_arg(call, 0, "data")
    if data.ndim != -1:
        normalize_axis("flip", call.attrs.axis, data.ndim)
    return data


register("flip", _infer_flip)


def flip(data, axis: int):
    """data reversed along axis."""
    return call_op("flip", [data], ConcatAttrs(axis=axis))


def _infer_gather_elements(call, ctx):
    data = tensor_arg(call, 0, "data")
    indices = tensor_arg(call, 1, "indices")
    if indices.dtype != "void" and not indices.dtype.startswith(("int", "uint")):
        raise TypeError(
            f"gather_elements: indices must be an integer tensor, got dtype {indices.dtype}"
        )
    if -1 not in (data.ndim, indices.ndim) and data.ndim != indices.ndim:
        raise ValueError(
            f"gather_elements: data of shape {fmt_shape(data)} and indices of shape "
            f"{fmt_shape(indices)} must have the same ndim"
        )
    if data.ndim != -1:
        normalize_axis("gather_elements", call.attrs.axis, data.ndim)
    return TensorStructInfo(indices.shape, data.dtype, data.vdevice, ndim=indices.ndim)


register("gather_elements", _infer_gather_elements)


def gather_elements(data, indices, axis: int = 0):
    """out[i][j] = data[indices[i][j]][j] for axis 0 (and so on): ONNX's GatherElements."""
    return call_op("gather_elements", [data, indices], ConcatAttrs(axis=axis))


def _infer_one_hot(call, ctx):
    indices = tensor_arg(call, 0, "indices")
    on = arg_sinfo(call, 1, "on_value")
    dims = dims_of(indices)
    depth, axis = call.attrs.depth, call.attrs.axis
    dtype = getattr(on, "dtype", "void")
    if dims is None:
        return TensorStructInfo(dtype=dtype, ndim=-1 if indices.ndim == -1 else indices.ndim + 1)
    axis = normalize_axis("one_hot", axis, len(dims) + 1)
    dims.insert(axis, E.const(depth, "int64"))
    return tensor_sinfo(dims, dtype, indices.vdevice)


register("one_hot", _infer_one_hot)


def one_hot(indices, on_value, off_value, depth: int, axis: int = -1):
    """A tensor with on_value where the index along a new axis equals indices, else
    off_value (PrimValues)."""
    from ..expr import PrimValue

    on = on_value if isinstance(on_value, PrimValue) else PrimValue(on_value)
    off = off_value if isinstance(off_value, PrimValue) else PrimValue(off_value)
    return call_op("one_hot", [indices, on, off], TileAttrs(depth=int(depth), axis=axis))


__all__ = [
    "broadcast_to",
    "concat",
    "expand_dims",
    "flatten",
    "flip",
    "gather_elements",
    "one_hot",
    "permute_dims",
    "repeat",
    "reshape",
    "split",
    "squeeze",
    "stack",
    "tile",
]
