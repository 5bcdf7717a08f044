"""The converter of ONNX Resize (opsets 11+, and Upsample before it): relax.op.image.resize2d
on the two spatial axes of an NCHW tensor."""

from __future__ import annotations

import numpy as np

from .common import Node, normalize_axis, relax_op
from .ops_resize_antialias import resize_antialias
from .registry import converter

_METHODS = {"nearest": "nearest_neighbor", "linear": "linear", "cubic": "cubic"}


def _spatial(node: Node, values, axes, what: str):
    """The (H, W) entries of a per-axis operand given for axes (all four when None)."""
    values = [float(v) for v in values.reshape(-1)]
    if axes is None:
        if len(values) != 4:
            raise node.unsupported(f"{what} for a {len(values)}-D tensor")
        lead, hw = values[:2], values[2:]
        return lead, hw
    by_axis = dict(zip(axes, values))
    return [by_axis.get(0), by_axis.get(1)], [by_axis.get(2), by_axis.get(3)]


def _output_size(node: Node, shape, scales, sizes, axes):
    """(out_h, out_w) and the (h, w) scales the coordinate modes divide by."""
    in_hw = shape[2:]
    if sizes is not None and sizes.size:
        lead, hw = _spatial(node, sizes, axes, "sizes")
        if any(v is not None and v != d for v, d in zip(lead, shape[:2])):
            raise node.unsupported("Resize of the batch or channel axis")
        hw = [int(v) if v is not None else d for v, d in zip(hw, in_hw)]
        policy = node.attr("keep_aspect_ratio_policy", "stretch") if node.opset >= 18 else ""
        if policy in ("not_larger", "not_smaller"):
            given = [h / d for h, d in zip(hw, in_hw)]
            scale = min(given) if policy == "not_larger" else max(given)
            hw = [int(np.floor(d * scale + 0.5)) for d in in_hw]
            return hw, (scale, scale)
        if policy not in ("", "stretch"):
            raise node.unsupported(f"keep_aspect_ratio_policy={policy!r}")
        return hw, tuple(h / d for h, d in zip(hw, in_hw))
    if scales is not None and scales.size:
        lead, hw = _spatial(node, scales, axes, "scales")
        if any(v is not None and v != 1 for v in lead):
            raise node.unsupported("Resize of the batch or channel axis")
        sc = [1.0 if v is None else v for v in hw]
        return [int(np.floor(d * s)) for d, s in zip(in_hw, sc)], tuple(sc)
    raise ValueError(f"from_onnx: {node.where()} needs scales or sizes")


@converter("Resize", since=11)
def _resize(node: Node):
    from tvm.relax.transform.legalize_ops.image import resize2d_te

    x = node.input(0)
    shape = node.static_shape(x)
    if len(shape) != 4:
        raise node.unsupported(f"Resize of a {len(shape)}-D tensor")
    roi = node.const_input(1, "roi", optional=True)
    scales = node.const_input(2, "scales", optional=True)
    sizes = node.const_input(3, "sizes", optional=True)
    axes = node.attr("axes", None) if node.opset >= 18 else None
    if axes is not None:
        axes = [normalize_axis(node, a, 4) for a in axes]
    antialias = node.attr("antialias", 0) if node.opset >= 18 else 0
    out_hw, scale_hw = _output_size(node, shape, scales, sizes, axes)
    mode = node.attr("mode", "nearest")
    method = _METHODS.get(mode)
    if method is None:
        raise node.unsupported(f"mode={mode!r}")
    coord = node.attr("coordinate_transformation_mode", "half_pixel")
    rounding = node.attr("nearest_mode", "round_prefer_floor") if mode == "nearest" else ""
    roi_hw = (0.0, 0.0, 1.0, 1.0)
    if coord == "tf_crop_and_resize":
        r = [float(v) for v in roi.reshape(-1)]
        half = len(r) // 2
        starts, ends = dict(zip(axes or range(4), r[:half])), dict(zip(axes or range(4), r[half:]))
        roi_hw = (starts.get(2, 0.0), starts.get(3, 0.0), ends.get(2, 1.0), ends.get(3, 1.0))
    args = dict(
        roi=roi_hw,
        layout="NCHW",
        method=method,
        coordinate_transformation_mode=coord,
        rounding_method=rounding,
        cubic_alpha=node.attr("cubic_coeff_a", -0.75),
        cubic_exclude=node.attr("exclude_outside", 0),
        extrapolation_value=node.attr("extrapolation_value", 0.0),
    )
    if antialias and mode != "nearest":  # (nearest has no filter to widen)
        return resize_antialias(node, x, out_hw, scale_hw, mode, coord)
    if all(o == d * s for o, d, s in zip(out_hw, shape[2:], scale_hw)):
        return node.emit(relax_op(node, "image.resize2d")(x, out_hw, **args))
    # ONNX divides by the given scales, not by out/in: the te computation takes them
    return node.emit_te(resize2d_te, x, out_hw, *args.values(), None, scales=scale_hw)


@converter("Upsample", since=7)
def _upsample(node: Node):
    """Upsample (deprecated since opset 10): Resize with asymmetric coordinates, nearest
    rounding down."""
    from tvm.relax.transform.legalize_ops.image import resize2d_te

    x = node.input(0)
    shape = node.static_shape(x)
    if node.opset >= 9:
        scales = node.const_input(1, "scales").reshape(-1)
    else:
        scales = np.array(node.attr("scales"), "float32")
    if len(shape) != 4 or len(scales) != 4 or scales[0] != 1 or scales[1] != 1:
        raise node.unsupported("Upsample other than of the two spatial axes of a 4-D tensor")
    method = _METHODS.get(node.attr("mode", "nearest"))
    if method is None:
        raise node.unsupported(f"mode={node.attr('mode')!r}")
    sc = (float(scales[2]), float(scales[3]))
    out_hw = [int(np.floor(d * s)) for d, s in zip(shape[2:], sc)]
    args = ((0.0, 0.0, 1.0, 1.0), "NCHW", method, "asymmetric", "floor", -0.75, 0, 0.0, None)
    return node.emit_te(resize2d_te, x, out_hw, *args, scales=sc)
