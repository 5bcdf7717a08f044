"""ConvertLayout's per-op layout rules (upstream's FRelaxInferLayout): given the layouts a
call's tensor arguments are in, the layouts it wants them in, the layout of its result and its
new attributes. A layout is a string of axis letters: a tensor of rank n starts as the first n
capitals ("ABCD"), and "ACDB" holds the same tensor with its axes in that order (NCHW read as
NHWC); None is a tensor of unknown rank, a list a tuple's fields."""

from __future__ import annotations

import re

from ..struct_info import TensorStructInfo, TupleStructInfo

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def initial(sinfo):
    """The layout a value of sinfo starts in."""
    if isinstance(sinfo, TensorStructInfo):
        return None if sinfo.ndim < 0 else LETTERS[: sinfo.ndim]
    if isinstance(sinfo, TupleStructInfo):
        return [initial(f) for f in sinfo.fields]
    return None


def parse_layout(text, who: str, arg: str) -> str:
    """The primal axes of a layout string (upper case letters, each once; a split as NCHW4c
    adds its factor and lower-case letter), or ValueError naming who and arg."""
    if not isinstance(text, str) or not re.fullmatch(r"([A-Z]|[0-9]+[a-z])+", text):
        raise ValueError(
            f"{who}: {arg} must be a layout string such as 'NHWC' or 'NCHW4c' (upper-case "
            f"axes, each split as a factor and the lower-case axis), got {text!r}"
        )
    primal = "".join(c for c in text if c.isupper())
    subs = re.findall(r"[0-9]+([a-z])", text)
    if len(set(primal)) != len(primal) or len(set(subs)) != len(subs):
        raise ValueError(f"{who}: {arg} {text!r} names an axis twice")
    for s in subs:
        if s.upper() not in primal:
            raise ValueError(f"{who}: {arg} {text!r} splits {s!r} but has no axis {s.upper()!r}")
    return primal


def split_factors(text: str) -> dict:
    """{axis letter: factor} of a layout's splits ("NCHW4c" -> {"C": 4})."""
    return {c.upper(): int(n) for n, c in re.findall(r"([0-9]+)([a-z])", text)}


def relayout(attr_layout: str, layout: str) -> str:
    """attr_layout (the names of the initial axes, "NCHW") read in layout's order."""
    return "".join(attr_layout[LETTERS.index(c)] for c in layout)


def decision(attr_layout: str, desired: str) -> str:
    """The layout (over the initial axes) that holds a tensor named attr_layout as desired."""
    return "".join(LETTERS[attr_layout.index(c)] for c in desired)


def _renamed(remaining: str) -> str:
    """The layout of what is left of a tensor once some axes are gone: its kept axes renamed to
    the letters the smaller tensor starts with."""
    order = sorted(remaining)
    return "".join(LETTERS[order.index(c)] for c in remaining)


def _attrs(attrs, **changes):
    values = dict(attrs.items())
    values.update(changes)
    return type(attrs)(**values)


def _axis(layout: str, axis: int) -> int:
    return layout.index(LETTERS[axis % len(layout)])


# Each rule: (call, desired_layouts, arg_layouts) -> (arg layouts wanted, result layout,
# attrs) or None (the call keeps its initial layouts).


def unary(call, desired, ins):
    wanted = [ins[0], *[None] * (len(ins) - 1)]
    return wanted, ins[0], call.attrs


def _follow(layout: str, ndim: int) -> str:
    """layout broadcast to rank ndim: the new leading axes stay in place (upstream's
    FollowDecision)."""
    extra = ndim - len(layout)
    return LETTERS[:extra] + "".join(LETTERS[LETTERS.index(c) + extra] for c in layout)


def binary(call, desired, ins):
    # as upstream: the lower-rank (or, at equal rank, the first) operand's layout decides,
    # broadcast to the other's rank; a scalar follows the other operand
    a, b = ins[0], ins[1]
    if not isinstance(a, str) or not isinstance(b, str):
        return None
    if len(a) <= len(b):
        if len(a) == 0:
            return [None, b], b, call.attrs
        out = _follow(a, len(b))
        return [a, out], out, call.attrs
    if len(b) == 0:
        return [a, None], a, call.attrs
    out = _follow(b, len(a))
    return [out, b], out, call.attrs


def reduce(call, desired, ins):
    layout, attrs = ins[0], call.attrs
    if attrs.axis is None:
        return [layout], layout if attrs.keepdims else "", attrs
    axes = [int(a) % len(layout) for a in attrs.axis]
    new_axes = [_axis(layout, a) for a in axes]
    if attrs.keepdims:
        out = layout
    else:
        out = _renamed("".join(c for c in layout if LETTERS.index(c) not in axes))
    return [layout], out, _attrs(attrs, axis=tuple(new_axes))


def axis_attr(call, desired, ins):
    layout = ins[0]
    new = _attrs(call.attrs, axis=_axis(layout, int(call.attrs.axis)))
    return [layout, *[None] * (len(ins) - 1)], layout, new


def permute_dims(call, desired, ins):
    layout = ins[0]
    axes = call.attrs.axes
    axes = list(range(len(layout)))[::-1] if axes is None else [int(a) for a in axes]
    new_axes = tuple(_axis(layout, a) for a in axes)
    return [layout], LETTERS[: len(layout)], _attrs(call.attrs, axes=new_axes)


def expand_dims(call, desired, ins):
    layout = ins[0]
    out_ndim = len(layout) + len(call.attrs.axis)
    new_pos = {int(a) % out_ndim for a in call.attrs.axis}
    kept = [p for p in range(out_ndim) if p not in new_pos]  # where input axis k lands
    it = iter(layout)
    out = "".join(
        LETTERS[p] if p in new_pos else LETTERS[kept[LETTERS.index(next(it))]]
        for p in range(out_ndim)
    )
    return [layout], out, call.attrs


def squeeze(call, desired, ins):
    layout = ins[0]
    if call.attrs.axis is None:
        return None
    axes = [int(a) % len(layout) for a in call.attrs.axis]
    out = _renamed("".join(c for c in layout if LETTERS.index(c) not in axes))
    return [layout], out, _attrs(call.attrs, axis=tuple(_axis(layout, a) for a in axes))


def strided_slice(call, desired, ins):
    layout = ins[0]
    axes = tuple(_axis(layout, int(a)) for a in call.attrs.axes)
    return [layout, *[None] * (len(ins) - 1)], layout, _attrs(call.attrs, axes=axes)


def concat(call, desired, ins):
    fields = ins[0]
    if not isinstance(fields, list) or not fields or not all(isinstance(f, str) for f in fields):
        return None
    layout = fields[0]
    if any(len(f) != len(layout) for f in fields):
        return None
    new = _attrs(call.attrs, axis=_axis(layout, int(call.attrs.axis)))
    return [[layout] * len(fields)], layout, new


def split(call, desired, ins):
    layout = ins[0]
    sinfo = call.struct_info
    n = len(sinfo.fields) if isinstance(sinfo, TupleStructInfo) else 1
    new = _attrs(call.attrs, axis=_axis(layout, int(call.attrs.axis)))
    return [layout], [layout] * n, new


def softmax(call, desired, ins):
    return axis_attr(call, desired, ins)


def batch_norm(call, desired, ins):
    layout = ins[0]
    new = _attrs(call.attrs, axis=_axis(layout, int(call.attrs.axis)))
    stats = [LETTERS[: len(s)] if isinstance(s, str) else s for s in ins[1:]]
    return [layout, *stats], [layout, stats[2], stats[3]], new


def layer_norm(call, desired, ins):
    layout = ins[0]
    axes = [_axis(layout, int(a)) for a in call.attrs.axes]
    if axes != sorted(axes):
        return None  # gamma and beta would have to be permuted too
    return [layout, ins[1], ins[2]], layout, _attrs(call.attrs, axes=tuple(axes))


_SUPPORTED_4D = ("NCHW", "NHWC")


def image_layout(key: str, out_key: str | None):
    """A rule for an op with its layout in attribute key (and out_key): the desired layout of
    the op when given, else its input's."""

    def rule(call, desired, ins):
        attrs = call.attrs
        name = call.op.name
        base = getattr(attrs, key)
        if out_key is not None and getattr(attrs, out_key) != base:
            return None
        wanted = desired.get(name)
        if wanted:
            text = wanted[0]
            primal = parse_layout(text, "ConvertLayout", f"desired_layouts[{name!r}][0]")
            if sorted(primal) != sorted(base) or split_factors(text):
                return None
            layout = decision(base, text)
        else:
            layout = ins[0]
        new_text = relayout(base, layout)
        if new_text not in _SUPPORTED_4D:
            return None
        changes = {key: new_text}
        if out_key is not None:
            changes[out_key] = new_text
        return [layout, *[None] * (len(ins) - 1)], layout, _attrs(attrs, **changes)

    return rule


def conv2d(call, desired, ins):
    attrs = call.attrs
    who = "ConvertLayout"
    wanted = desired.get("relax.nn.conv2d")
    if wanted:
        if not isinstance(wanted, (list, tuple)) or len(wanted) not in (2, 3):
            raise ValueError(
                f"{who}: desired_layouts['relax.nn.conv2d'] must list the data and kernel "
                f"layouts (and optionally the output's), got {wanted!r}"
            )
        texts = list(wanted) + ([wanted[0]] if len(wanted) == 2 else [])
        names = ("data", "kernel", "output")
        bases = (attrs.data_layout, attrs.kernel_layout, attrs.out_layout)
        for k, (text, base) in enumerate(zip(texts, bases)):
            primal = parse_layout(text, who, f"desired_layouts['relax.nn.conv2d'][{k}]")
            if sorted(primal) != sorted(base):
                raise ValueError(
                    f"{who}: desired_layouts['relax.nn.conv2d'][{k}] ({names[k]} layout) "
                    f"{text!r} must hold the axes {', '.join(base)} of relax.nn.conv2d's "
                    f"{names[k]}"
                )
        splits = [split_factors(t) for t in texts]
        if any(splits):
            if not _divides(call, attrs, splits):
                return _propagate(call, ins)  # a split that does not divide: left as it is
            raise ValueError(
                f"{who}: relax.nn.conv2d here computes NCHW/NHWC data only; the split layouts "
                f"{texts[0]!r}/{texts[1]!r} in desired_layouts are not supported"
            )
        data_l, kernel_l, out_l = (decision(b, t) for b, t in zip(bases, texts))
        if texts[0] not in _SUPPORTED_4D or texts[2] not in _SUPPORTED_4D:
            raise ValueError(
                f"{who}: relax.nn.conv2d here computes NCHW/NHWC data only; desired data "
                f"layout {texts[0]!r} is not supported"
            )
        new = _attrs(attrs, data_layout=texts[0], kernel_layout=texts[1], out_layout=texts[2])
        return [data_l, kernel_l], out_l, new
    return _propagate(call, ins)


def _propagate(call, ins):
    """conv2d with no desired layout: it follows its data's layout, when it can."""
    attrs = call.attrs
    data_l, kernel_l = ins[0], ins[1]
    new_data = relayout(attrs.data_layout, data_l)
    if new_data not in _SUPPORTED_4D or attrs.out_layout != attrs.data_layout:
        return None
    new = _attrs(
        attrs,
        data_layout=new_data,
        kernel_layout=relayout(attrs.kernel_layout, kernel_l),
        out_layout=new_data,
    )
    return [data_l, kernel_l], data_l, new


def _divides(call, attrs, splits) -> bool:
    """Whether each split of the desired layouts divides the extent it splits."""
    from ..op._utils import dims_of, static

    shapes = [dims_of(call.args[0].struct_info), dims_of(call.args[1].struct_info)]
    shapes.append(dims_of(call.struct_info))
    bases = (attrs.data_layout, attrs.kernel_layout, attrs.out_layout)
    for dims, base, split in zip(shapes, bases, splits):
        for axis, factor in split.items():
            extent = None if dims is None else static(dims[base.index(axis)])
            if extent is None or extent % factor:
                return False
    return True


_UNARY = (
    "abs acos acosh asin asinh atan atanh bitwise_not ceil clip cos cosh erf exp floor "
    "isfinite isinf isnan log logical_not negative round rsqrt sigmoid sign sin sinh sqrt "
    "square tan tanh trunc astype nn.relu nn.gelu nn.gelu_tanh nn.silu nn.selu nn.leakyrelu "
    "nn.softplus nn.dropout"
).split()
_BINARY = (
    "add subtract multiply divide floor_divide floor_mod mod power maximum minimum equal "
    "not_equal greater greater_equal less less_equal logical_and logical_or logical_xor "
    "bitwise_and bitwise_or bitwise_xor atan2 log_add_exp left_shift right_shift"
).split()
_REDUCE = "sum mean max min prod std variance".split()

RULES = {f"relax.{n}": unary for n in _UNARY}
RULES.update({f"relax.{n}": binary for n in _BINARY})
RULES.update({f"relax.{n}": reduce for n in _REDUCE})
RULES.update(
    {
        "relax.nn.conv2d": conv2d,
        "relax.nn.max_pool2d": image_layout("layout", "out_layout"),
        "relax.nn.avg_pool2d": image_layout("layout", "out_layout"),
        "relax.nn.adaptive_avg_pool2d": image_layout("layout", "out_layout"),
        "relax.image.resize2d": image_layout("layout", None),
        "relax.permute_dims": permute_dims,
        "relax.expand_dims": expand_dims,
        "relax.squeeze": squeeze,
        "relax.strided_slice": strided_slice,
        "relax.concat": concat,
        "relax.split": split,
        "relax.nn.softmax": softmax,
        "relax.nn.log_softmax": softmax,
        "relax.nn.batch_norm": batch_norm,
        "relax.nn.layer_norm": layer_norm,
    }
)
