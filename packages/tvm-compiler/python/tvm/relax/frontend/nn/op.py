"""nn.op: the operators an nn.Module's forward calls; each emits a Relax op (tvm.relax.op) into
the function being exported and returns an nn.Tensor (or a tuple of them)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from tvm import tir

from ... import expr as rx
from ... import op as _op
from ...block_builder import BlockBuilder
from ...struct_info import ObjectStructInfo
from .core import Tensor, get_default_dtype, wrap_nested

IntExpr = int | tir.PrimExpr


def _x(value, who: str, arg: str):
    """The relax expression of an nn.Tensor argument, or a TypeError naming who and arg."""
    if not isinstance(value, Tensor):
        raise TypeError(
            f"nn.op.{who}: argument {arg!r} must be an nn.Tensor, got {type(value).__name__}"
        )
    return value._expr


def _dims(shape):
    """A list of a shape's extents; anything but a sequence (None, a str, an int) is left for
    the relax op to refuse with its TypeError naming the op."""
    if isinstance(shape, (list, tuple)) or (
        hasattr(shape, "__len__") and hasattr(shape, "__getitem__") and not isinstance(shape, str)
    ):
        return list(shape)
    return shape


def _binary(relax_op, who):
    def apply(a: Tensor, b: Tensor, name: str) -> Tensor:
        return wrap_nested(relax_op(_x(a, who, "a"), _x(b, who, "b")), name)

    return apply


# -- elementwise binary --------------------------------------------------------------------------
def add(a: Tensor, b: Tensor, name: str = "add") -> Tensor:
    """a + b, broadcasting."""
    return _binary(_op.add, "add")(a, b, name)


def subtract(a: Tensor, b: Tensor, name: str = "subtract") -> Tensor:
    """a - b, broadcasting."""
    return _binary(_op.subtract, "subtract")(a, b, name)


def multiply(a: Tensor, b: Tensor, name: str = "mul") -> Tensor:
    """a * b, broadcasting."""
    return _binary(_op.multiply, "multiply")(a, b, name)


def divide(a: Tensor, b: Tensor, name: str = "divide") -> Tensor:
    """a / b, broadcasting."""
    return _binary(_op.divide, "divide")(a, b, name)


def maximum(x1: Tensor, x2: Tensor, name: str = "maximum") -> Tensor:
    """Elementwise maximum, broadcasting."""
    return wrap_nested(_op.maximum(_x(x1, "maximum", "x1"), _x(x2, "maximum", "x2")), name)


def minimum(x1: Tensor, x2: Tensor, name: str = "minimum") -> Tensor:
    """Elementwise minimum, broadcasting."""
    return wrap_nested(_op.minimum(_x(x1, "minimum", "x1"), _x(x2, "minimum", "x2")), name)


def equal(a: Tensor, b: Tensor, name: str = "equal") -> Tensor:
    """a == b elementwise (bool)."""
    return _binary(_op.equal, "equal")(a, b, name)


def not_equal(a: Tensor, b: Tensor, name: str = "not_equal") -> Tensor:
    """a != b elementwise (bool)."""
    return _binary(_op.not_equal, "not_equal")(a, b, name)


def less(a: Tensor, b: Tensor, name: str = "less") -> Tensor:
    """a < b elementwise (bool)."""
    return _binary(_op.less, "less")(a, b, name)


def less_equal(a: Tensor, b: Tensor, name: str = "less_equal") -> Tensor:
    """a <= b elementwise (bool)."""
    return _binary(_op.less_equal, "less_equal")(a, b, name)


def greater(a: Tensor, b: Tensor, name: str = "greater") -> Tensor:
    """a > b elementwise (bool)."""
    return _binary(_op.greater, "greater")(a, b, name)


def greater_equal(a: Tensor, b: Tensor, name: str = "greater_equal") -> Tensor:
    """a >= b elementwise (bool)."""
    return _binary(_op.greater_equal, "greater_equal")(a, b, name)


def matmul(a: Tensor, b: Tensor, out_dtype: str | None = None, name: str = "matmul") -> Tensor:
    """Matrix product with NumPy's broadcasting of leading dims."""
    return wrap_nested(_op.matmul(_x(a, "matmul", "a"), _x(b, "matmul", "b"), out_dtype), name)


def where(condition: Tensor, x1: Tensor, x2: Tensor, name: str = "where") -> Tensor:
    """x1 where condition holds, else x2."""
    c = _x(condition, "where", "condition")
    return wrap_nested(_op.where(c, _x(x1, "where", "x1"), _x(x2, "where", "x2")), name)


# -- elementwise unary ---------------------------------------------------------------------------
def _unary(relax_op, who: str, x: Tensor, name: str) -> Tensor:
    return wrap_nested(relax_op(_x(x, who, "x")), name)


def relu(x: Tensor, name: str = "relu") -> Tensor:
    """max(x, 0)."""
    return _unary(_op.nn.relu, "relu", x, name)


def relu6(x: Tensor, name: str = "relu6") -> Tensor:
    """min(max(x, 0), 6)."""
    return _unary(_op.nn.relu6, "relu6", x, name)


def silu(x: Tensor, name: str = "silu") -> Tensor:
    """x * sigmoid(x)."""
    return _unary(_op.nn.silu, "silu", x, name)


def gelu(x: Tensor, approximate: str | None = None, name: str = "gelu") -> Tensor:
    """GELU; approximate="tanh" uses the tanh approximation."""
    if approximate not in (None, "none", "tanh"):
        raise ValueError(f'nn.op.gelu: approximate must be None or "tanh", got {approximate!r}')
    relax_op = _op.nn.gelu_tanh if approximate == "tanh" else _op.nn.gelu
    return _unary(relax_op, "gelu", x, name)


def sigmoid(x: Tensor, name: str = "sigmoid") -> Tensor:
    """1 / (1 + exp(-x))."""
    return _unary(_op.sigmoid, "sigmoid", x, name)


def tanh(x: Tensor, name: str = "tanh") -> Tensor:
    """Hyperbolic tangent."""
    return _unary(_op.tanh, "tanh", x, name)


def exp(x: Tensor, name: str = "exp") -> Tensor:
    """e ** x."""
    return _unary(_op.exp, "exp", x, name)


def log(x: Tensor, name: str = "log") -> Tensor:
    """Natural logarithm."""
    return _unary(_op.log, "log", x, name)


def floor(x: Tensor, name: str = "floor") -> Tensor:
    """Round down."""
    return _unary(_op.floor, "floor", x, name)


def sqrt(x: Tensor, name: str = "sqrt") -> Tensor:
    """Square root."""
    return _unary(_op.sqrt, "sqrt", x, name)


def square(x: Tensor, name: str = "square") -> Tensor:
    """x * x."""
    return _unary(_op.square, "square", x, name)


def negative(x: Tensor, name: str = "neg") -> Tensor:
    """-x."""
    return _unary(_op.negative, "negative", x, name)


def softmax(x: Tensor, axis: int = -1, name: str = "softmax") -> Tensor:
    """exp(x) / sum(exp(x)) along axis."""
    return wrap_nested(_op.nn.softmax(_x(x, "softmax", "x"), axis), name)


def softplus(x: Tensor, beta: float = 1.0, threshold: float = 20.0, name: str = "softplus"):
    """log(1 + exp(beta * x)) / beta (x itself past threshold)."""
    return wrap_nested(_op.nn.softplus(_x(x, "softplus", "x"), beta, threshold), name)


def prelu(x: Tensor, alpha: Tensor, name: str = "prelu"):
    """x where x >= 0, else alpha * x (alpha per channel, axis 1)."""
    return wrap_nested(_op.nn.prelu(_x(x, "prelu", "x"), _x(alpha, "prelu", "alpha")), name)


def astype(x: Tensor, dtype: str, name: str = "astype") -> Tensor:
    """Cast to dtype; x itself when it already has dtype."""
    expr = _x(x, "astype", "x")
    if x.dtype == dtype:
        return x
    return wrap_nested(_op.astype(expr, dtype), name)


# -- shape manipulation --------------------------------------------------------------------------
def reshape(x: Tensor, shape: Sequence[IntExpr], name: str = "reshape") -> Tensor:
    """Reshape to shape (one extent may be -1)."""
    return wrap_nested(_op.reshape(_x(x, "reshape", "x"), _dims(shape)), name)


def permute_dims(x: Tensor, axes: list[int] | None = None, name: str | None = None) -> Tensor:
    """Permute the axes (reverse them when axes is None)."""
    if name is None:
        name = "permute_dims"
    axes = list(axes) if axes is not None else None
    return wrap_nested(_op.permute_dims(_x(x, "permute_dims", "x"), axes), name)


def permute(x: Tensor, axes: list[int] | None, name: str = "permute") -> Tensor:
    """permute_dims under PyTorch's name."""
    return permute_dims(x, axes, name)


def concat(x: list[Tensor], dim: int, name: str = "concat") -> Tensor:
    """Join tensors along dim."""
    if not isinstance(x, (list, tuple)) or not x:
        raise TypeError(f"nn.op.concat: x must be a non-empty list of nn.Tensor, got {x!r}")
    return wrap_nested(
        _op.concat([_x(t, "concat", f"x[{i}]") for i, t in enumerate(x)], axis=dim), name
    )


def split(
    ary: Tensor, indices_or_sections: int | Sequence[int], axis: int = 0, name: str = "split"
) -> tuple[Tensor, ...]:
    """Split into equal sections, or at the given indices, along axis."""
    if not isinstance(indices_or_sections, int):
        indices_or_sections = list(indices_or_sections)
    return wrap_nested(_op.split(_x(ary, "split", "ary"), indices_or_sections, axis), name)


def chunk(x: Tensor, chunks: int, dim: int = 0, name: str = "chunk") -> tuple[Tensor, ...]:
    """Split into chunks equal parts along dim."""
    return split(x, chunks, dim, name)


def squeeze(x: Tensor, axis: int = -1, name: str = "squeeze") -> Tensor:
    """Drop the unit axis."""
    axis = [axis] if isinstance(axis, int) else axis
    return wrap_nested(_op.squeeze(_x(x, "squeeze", "x"), axis), name)


def unsqueeze(x: Tensor, dim: int, name: str = "unsqueeze") -> Tensor:
    """Insert a unit axis at dim."""
    return wrap_nested(_op.expand_dims(_x(x, "unsqueeze", "x"), dim), name)


def repeat(x: Tensor, repeats: int, axis: int | None = None, name: str = "repeat") -> Tensor:
    """Repeat each element repeats times along axis (of the flattened tensor when None)."""
    return wrap_nested(_op.repeat(_x(x, "repeat", "x"), repeats, axis), name)


def broadcast_to(x: Tensor, shape: Sequence[IntExpr], name: str = "broadcast_to") -> Tensor:
    """Broadcast to shape."""
    return wrap_nested(_op.broadcast_to(_x(x, "broadcast_to", "x"), _dims(shape)), name)


def take(x: Tensor, indices: Tensor, axis: int | None = None, name: str = "take") -> Tensor:
    """Gather x's slices at indices along axis."""
    return wrap_nested(_op.take(_x(x, "take", "x"), _x(indices, "take", "indices"), axis), name)


def triu(x: Tensor, diagonal: int = 0, name: str = "triu") -> Tensor:
    """Zero the elements below the diagonal."""
    return wrap_nested(_op.triu(_x(x, "triu", "x"), diagonal), name)


def cumsum(
    data: Tensor,
    axis: int | None = None,
    dtype: str | None = None,
    exclusive: bool | None = None,
    name: str = "cumsum",
) -> Tensor:
    """Cumulative sum along axis (of the flattened tensor when None)."""
    return wrap_nested(_op.cumsum(_x(data, "cumsum", "data"), axis, dtype, exclusive), name)


def pad(
    x: Tensor, pad: list[int], mode: str = "constant", value: float = 0.0, name: str = "pad"
) -> Tensor:
    """Pad; pad holds (before, after) for every axis, 2 * ndim ints."""
    expr = _x(x, "pad", "x")
    if len(pad) != 2 * x.ndim:
        raise ValueError(
            f"nn.op.pad: argument 'pad' must hold 2 * ndim = {2 * x.ndim} ints (before, after "
            f"per axis) for a {x.ndim}-d tensor, got {len(pad)}: {list(pad)}"
        )
    return wrap_nested(_op.nn.pad(expr, pad_width=list(pad), pad_value=value, pad_mode=mode), name)


# -- reductions ----------------------------------------------------------------------------------
def _axes(axis):
    return [axis] if isinstance(axis, int) else axis


def sum(  # noqa: A001
    x: Tensor, axis: int | list[int] | None = None, keepdims: bool = False, name: str = "sum"
) -> Tensor:
    """Sum over axis (all axes when None)."""
    return wrap_nested(_op.sum(_x(x, "sum", "x"), _axes(axis), keepdims), name)


def mean(
    x: Tensor, axis: int | list[int] | None = None, keepdims: bool = False, name: str = "mean"
) -> Tensor:
    """Mean over axis (all axes when None)."""
    return wrap_nested(_op.mean(_x(x, "mean", "x"), _axes(axis), keepdims), name)


def max(  # noqa: A001
    x: Tensor, axis: int | list[int] | None = None, keepdims: bool = False, name: str = "max"
) -> Tensor:
    """Maximum over axis (all axes when None)."""
    return wrap_nested(_op.max(_x(x, "max", "x"), _axes(axis), keepdims), name)


def min(  # noqa: A001
    x: Tensor, axis: int | list[int] | None = None, keepdims: bool = False, name: str = "min"
) -> Tensor:
    """Minimum over axis (all axes when None)."""
    return wrap_nested(_op.min(_x(x, "min", "x"), _axes(axis), keepdims), name)


def argmax(
    x: Tensor, axis: int | None = None, keepdims: bool = False, name: str = "argmax"
) -> Tensor:
    """Index of the maximum along axis (of the flattened tensor when None)."""
    return wrap_nested(_op.argmax(_x(x, "argmax", "x"), axis, keepdims), name)


def sort(x: Tensor, axis: int = -1, descending: bool = False, name: str = "sort"):
    """Sorted values along axis."""
    return wrap_nested(_op.sort(_x(x, "sort", "x"), axis, descending), name)


def argsort(
    data: Tensor, axis: int = -1, descending: bool = False, dtype: str = "int32", name="argsort"
):
    """Indices that sort data along axis."""
    return wrap_nested(_op.argsort(_x(data, "argsort", "data"), axis, descending, dtype), name)


# -- creation ------------------------------------------------------------------------------------
def zeros(shape: Sequence[IntExpr], dtype: str = "float32", name: str = "zeros") -> Tensor:
    """A tensor of zeros."""
    return wrap_nested(_op.zeros(_dims(shape), dtype), name)


def ones(shape: Sequence[IntExpr], dtype: str = "float32", name: str = "ones") -> Tensor:
    """A tensor of ones."""
    return wrap_nested(_op.ones(_dims(shape), dtype), name)


def full(
    shape: Sequence[IntExpr],
    fill_value: Tensor | int | float,
    dtype: str = "float32",
    name: str = "full",
) -> Tensor:
    """A tensor of fill_value (a 0-d nn.Tensor or a Python/TIR scalar)."""
    if isinstance(fill_value, (tir.IntImm, tir.FloatImm)):
        fill_value = fill_value.value
    if isinstance(fill_value, (int, float)) and not isinstance(fill_value, bool):
        fill = rx.const(fill_value, dtype)
    else:
        fill = _x(fill_value, "full", "fill_value")
    return wrap_nested(_op.full(_dims(shape), fill, dtype), name)


def arange(
    start: int,
    end: int | None = None,
    step: int = 1,
    dtype: str | None = "float32",
    name: str = "arange",
) -> Tensor:
    """start, start + step, ... below end (0 ... start when end is None)."""
    if end is None:
        start, end = 0, start
    return wrap_nested(_op.arange(start, end, step, dtype), name)


# -- normalisation -------------------------------------------------------------------------------
def layer_norm(
    x: Tensor,
    normalized_shape: int | list[int],
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
    name: str = "layer_norm",
) -> Tensor:
    """Layer normalisation over the last len(normalized_shape) axes; weight/bias default to
    ones/zeros."""
    expr = _x(x, "layer_norm", "x")
    if isinstance(normalized_shape, int):
        normalized_shape = [normalized_shape]
    axes = list(range(-len(normalized_shape), 0))
    gamma = _x(weight, "layer_norm", "weight") if weight is not None else None
    beta = _x(bias, "layer_norm", "bias") if bias is not None else None
    if gamma is None:
        gamma = _op.ones(list(normalized_shape), x.dtype)
    if beta is None:
        beta = _op.zeros(list(normalized_shape), x.dtype)
    return wrap_nested(_op.nn.layer_norm(expr, gamma, beta, axes=axes, epsilon=eps), name)


def rms_norm(
    x: Tensor,
    weight: Tensor,
    axes: int | list[int],
    epsilon: float = 1e-5,
    name: str = "rms_norm",
) -> Tensor:
    """x / sqrt(mean(x ** 2 over axes) + epsilon) * weight."""
    expr = _x(x, "rms_norm", "x")
    axes = _axes(axes)
    return wrap_nested(_op.nn.rms_norm(expr, _x(weight, "rms_norm", "weight"), axes, epsilon), name)


def group_norm(
    x: Tensor,
    num_groups: int,
    weight: Tensor | None,
    bias: Tensor | None,
    eps: float = 1e-5,
    channel_axis: int = 1,
    axes: list[int] | None = None,
    name: str = "group_norm",
) -> Tensor:
    """Group normalisation: channels split into num_groups, normalised over axes (every axis
    after the channel axis when None)."""
    expr = _x(x, "group_norm", "x")
    channels = x.shape[channel_axis]
    gamma = (
        _x(weight, "group_norm", "weight") if weight is not None else _op.ones([channels], x.dtype)
    )
    beta = _x(bias, "group_norm", "bias") if bias is not None else _op.zeros([channels], x.dtype)
    if axes is None:
        axes = list(range(2, x.ndim))
    return wrap_nested(
        _op.nn.group_norm(
            expr, gamma, beta, num_groups, channel_axis=channel_axis, axes=axes, epsilon=eps
        ),
        name,
    )


# -- convolution and resizing --------------------------------------------------------------------
def _add_bias(out, bias: Tensor | None, ndim: int, who: str, channel_axis: int = 1):
    if bias is None:
        return out
    b = _x(bias, who, "bias")
    shape = [1] * ndim
    shape[channel_axis] = bias.shape[0]
    return _op.add(out, _op.reshape(b, shape))


def conv1d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: int | tuple | None = 1,
    padding: int | tuple | str | None = 0,
    dilation: int | tuple | None = 1,
    groups: int | None = 1,
    name: str = "conv1d",
) -> Tensor:
    """1-D convolution, NCW data and OIW weight, plus bias per output channel."""
    out = _op.nn.conv1d(
        _x(x, "conv1d", "x"),
        _x(weight, "conv1d", "weight"),
        strides=stride,
        padding=padding,
        dilation=dilation,
        groups=groups,
        data_layout="NCW",
        kernel_layout="OIW",
        out_layout="NCW",
    )
    return wrap_nested(_add_bias(out, bias, 3, "conv1d"), name)


def conv2d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: int | tuple | None = 1,
    padding: int | tuple | str | None = 0,
    dilation: int | tuple | None = 1,
    groups: int | None = 1,
    data_layout: str | None = "NCHW",
    name: str = "conv2d",
) -> Tensor:
    """2-D convolution (NCHW data, OIHW weight; NHWC data takes HWIO weight), plus bias."""
    if data_layout not in ("NCHW", "NHWC"):
        raise ValueError(f'nn.op.conv2d: data_layout must be "NCHW" or "NHWC", got {data_layout!r}')
    kernel_layout = "OIHW" if data_layout == "NCHW" else "HWIO"
    out = _op.nn.conv2d(
        _x(x, "conv2d", "x"),
        _x(weight, "conv2d", "weight"),
        strides=stride,
        padding=padding,
        dilation=dilation,
        groups=groups,
        data_layout=data_layout,
        kernel_layout=kernel_layout,
        out_layout=data_layout,
    )
    return wrap_nested(
        _add_bias(out, bias, 4, "conv2d", channel_axis=1 if data_layout == "NCHW" else 3), name
    )


def _pair(value, n, who, arg):
    if isinstance(value, int):
        return [value] * n
    value = list(value)
    if len(value) != n:
        raise ValueError(f"nn.op.{who}: argument {arg!r} must be an int or {n} ints, got {value}")
    return value


def conv1d_transpose(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: int | tuple[int] | None = 1,
    padding: int | tuple[int, ...] | None = 0,
    output_padding: int | tuple[int] | None = 0,
    dilation: int | tuple | None = 1,
    groups: int | None = 1,
    name: str = "conv1d_transpose",
) -> Tensor:
    """1-D transposed convolution, NCW data and IOW weight, plus bias per output channel."""
    out = _op.nn.conv1d_transpose(
        _x(x, "conv1d_transpose", "x"),
        _x(weight, "conv1d_transpose", "weight"),
        strides=stride,
        padding=padding,
        output_padding=output_padding,
        dilation=dilation,
        groups=groups,
        data_layout="NCW",
        kernel_layout="IOW",
        out_layout="NCW",
    )
    return wrap_nested(_add_bias(out, bias, 3, "conv1d_transpose"), name)


def interpolate(
    x: Tensor,
    size: int | tuple[int] | None = None,
    scale_factor: float | tuple[float] | None = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool | None = None,
    data_layout: str | None = "NCHW",
    name: str = "interpolate",
):
    """Resize the spatial axes of a 4-d tensor to size, or by scale_factor (PyTorch's
    F.interpolate modes: nearest, bilinear/linear, bicubic/cubic)."""
    expr = _x(x, "interpolate", "x")
    if (size is None) == (scale_factor is None):
        raise ValueError("nn.op.interpolate: give exactly one of size and scale_factor")
    spatial = [i for i, c in enumerate(data_layout) if c not in "NC"]
    if size is None:
        scales = (
            _pair(scale_factor, len(spatial), "interpolate", "scale_factor")
            if not isinstance(scale_factor, (int, float))
            else [scale_factor] * len(spatial)
        )
        size = [int(x.shape[i] * f) for i, f in zip(spatial, scales)]
    elif isinstance(size, int):
        size = [size] * len(spatial)
    if mode.startswith("nearest"):
        method = "nearest_neighbor"
    elif mode in ("bilinear", "linear"):
        method = "linear"
    elif mode in ("bicubic", "cubic"):
        method = "cubic"
    else:
        raise ValueError(f"nn.op.interpolate: unsupported mode {mode!r}")
    if method == "nearest_neighbor":
        coord = "asymmetric"
    elif align_corners:
        coord = "align_corners"
    else:
        coord = "half_pixel"
    return wrap_nested(
        _op.image.resize2d(
            expr,
            list(size),
            layout=data_layout,
            method=method,
            coordinate_transformation_mode=coord,
        ),
        name,
    )


# -- escape hatches ------------------------------------------------------------------------------
def tensor_expr_op(
    tensor_expr_func: Callable,
    name_hint: str,
    args: list[Tensor | tir.Var | int],
    *,
    attrs: dict[str, Any] | None = None,
):
    """Emit a TE compute: tensor_expr_func receives te tensors for the nn.Tensor args (others as
    given) and returns te tensors; it becomes a PrimFunc called through call_tir."""
    bb = BlockBuilder.current()
    if bb is None:
        raise RuntimeError("nn.op.tensor_expr_op: must be called while a module is being exported")
    converted = [a._expr if isinstance(a, Tensor) else a for a in args]
    kwargs = {"primfunc_name_hint": name_hint}
    if attrs is not None:
        kwargs["primfunc_attrs"] = attrs
    return wrap_nested(bb.emit_te(tensor_expr_func, *converted, **kwargs), name_hint)


def debug_func(name: str, *args, _line_info: str | None = None):
    """Call the global function name(line_info, *args) at run time; needs export_tvm(...,
    debug=True), whose IO effect orders the calls."""
    from .exporter import Exporter

    if not isinstance(name, str):  # StringImm's own error named neither debug_func nor 'name'
        raise TypeError(
            f"nn.op.debug_func: argument 'name' must be the str name of a global function, got "
            f"{type(name).__name__}"
        )
    exporter = Exporter.current()
    if exporter is None or exporter.io_effect is None:
        raise RuntimeError("Debugging is only supported when debug mode is on.")
    io = exporter.io_effect
    if _line_info is None:
        caller = inspect.getframeinfo(inspect.currentframe().f_back)
        _line_info = f"{caller.filename}:{caller.lineno}"
    converted = []
    for arg in args:
        if isinstance(arg, Tensor):
            converted.append(arg._expr)
        elif isinstance(arg, bool) or not isinstance(arg, (int, float, str, tir.PrimExpr)):
            raise TypeError(
                f"nn.op.debug_func: unsupported argument type {type(arg).__name__} (expected an "
                "nn.Tensor, int, float, str or PrimExpr)"
            )
        elif isinstance(arg, int):
            converted.append(rx.prim_value(tir.IntImm("int64", arg)))
        elif isinstance(arg, float):
            converted.append(rx.prim_value(tir.FloatImm("float32", arg)))
        elif isinstance(arg, str):
            converted.append(rx.StringImm(arg))
        else:
            converted.append(rx.prim_value(arg))
    io.effect = BlockBuilder.current().emit(
        _op.call_pure_packed(
            "vm.builtin.invoke_debug_func",
            io.effect,
            rx.StringImm(name),
            rx.StringImm(_line_info),
            *converted,
            sinfo_args=[ObjectStructInfo()],
        ),
        name_hint=io.effect.name_hint,
    )


def print_(tensor: Tensor):
    """Print tensor at run time (needs export_tvm(..., debug=True))."""
    caller = inspect.getframeinfo(inspect.currentframe().f_back)
    debug_func("vm.builtin.debug_print", tensor, _line_info=f"{caller.filename}:{caller.lineno}")


__all__ = [
    "add", "argmax", "argsort", "arange", "astype", "broadcast_to", "chunk", "concat", "conv1d",
    "conv1d_transpose", "conv2d", "cumsum", "debug_func", "divide", "equal", "exp", "floor",
    "full", "gelu", "get_default_dtype", "greater", "greater_equal", "group_norm",
    "interpolate", "layer_norm", "less", "less_equal", "log", "matmul", "max", "maximum", "mean",
    "min", "minimum", "multiply", "negative", "not_equal", "ones", "pad", "permute",
    "permute_dims", "prelu", "print_", "relu", "relu6", "repeat", "reshape", "rms_norm",
    "sigmoid", "silu", "softmax", "softplus", "sort", "split", "sqrt", "square", "squeeze",
    "subtract", "sum", "take", "tanh", "tensor_expr_op", "triu", "unsqueeze", "where",
    "wrap_nested", "zeros",
]  # fmt: skip
