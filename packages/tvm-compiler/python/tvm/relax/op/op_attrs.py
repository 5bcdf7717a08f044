"""Attributes of Relax op calls (tvm.relax.op.op_attrs): named values read as attributes."""

from __future__ import annotations

from tvm.ir.node import Node


class Attrs(Node):
    """Attribute values of one call, read as attributes (``call.attrs.axis``)."""

    _fields = ("_values",)
    _key_namespace = "relax.attrs"
    __hash__ = object.__hash__

    def __init__(self, **values):
        self._set(_values=dict(values))

    def __getattr__(self, name):
        values = self.__dict__.get("_values", {})
        if name in values:
            return values[name]
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")

    def __getitem__(self, name):
        return self._values[name]

    def keys(self):
        return list(self._values)

    def items(self):
        return list(self._values.items())

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in self._values.items())
        return f"{type(self).__name__}({inner})"


def _attrs_kind(name: str, doc: str) -> type:
    return type(name, (Attrs,), {"__doc__": doc, "__module__": __name__})


AstypeAttrs = _attrs_kind("AstypeAttrs", "astype: dtype.")
CallTIRInplaceAttrs = _attrs_kind("CallTIRInplaceAttrs", "call_tir_inplace: inplace_indices.")
ConcatAttrs = _attrs_kind("ConcatAttrs", "concat: axis.")
ExpandDimsAttrs = _attrs_kind("ExpandDimsAttrs", "expand_dims: axis.")
InitAttrs = _attrs_kind("InitAttrs", "zeros/ones/full: dtype.")
EinsumAttrs = _attrs_kind("EinsumAttrs", "einsum: subscripts.")
GatherNDAttrs = _attrs_kind("GatherNDAttrs", "gather_nd: batch_dims.")
LeakyReluAttrs = _attrs_kind("LeakyReluAttrs", "leakyrelu: alpha.")
PReluAttrs = _attrs_kind("PReluAttrs", "prelu: axis.")
SoftplusAttrs = _attrs_kind("SoftplusAttrs", "softplus: beta, threshold.")
LayoutTransformAttrs = _attrs_kind(
    "LayoutTransformAttrs",
    "layout_transform: index_map, pad_value, axis_separators, input_axis_separators.",
)
LayerNormAttrs = _attrs_kind("LayerNormAttrs", "layer_norm: axes, epsilon, center, scale.")
MatmulAttrs = _attrs_kind("MatmulAttrs", "matmul: out_dtype.")
PermuteDimsAttrs = _attrs_kind("PermuteDimsAttrs", "permute_dims: axes.")
ScanopAttrs = _attrs_kind("ScanopAttrs", "cumsum: axis, dtype, exclusive.")
SoftmaxAttrs = _attrs_kind("SoftmaxAttrs", "softmax/log_softmax: axis.")
SplitAttrs = _attrs_kind("SplitAttrs", "split: indices_or_sections, axis.")
SqueezeAttrs = _attrs_kind("SqueezeAttrs", "squeeze: axis.")
StatisticalAttrs = _attrs_kind("StatisticalAttrs", "sum/mean/max/min: axis, keepdims.")
StridedSliceAttrs = _attrs_kind(
    "StridedSliceAttrs", "strided_slice: axes, begin, end, strides, assume_inbound."
)
TileAttrs = _attrs_kind("TileAttrs", "tile/repeat/one_hot: repeats, axis, depth.")
TakeAttrs = _attrs_kind("TakeAttrs", "take: axis, mode.")
Conv2DAttrs = _attrs_kind(
    "Conv2DAttrs",
    "conv2d: strides, padding, dilation, groups, data_layout, kernel_layout, out_layout, "
    "out_dtype.",
)
Pool2DAttrs = _attrs_kind(
    "Pool2DAttrs",
    "max_pool2d/avg_pool2d: pool_size, strides, padding, dilation, ceil_mode, layout.",
)
BatchNormAttrs = _attrs_kind("BatchNormAttrs", "batch_norm: axis, epsilon, center, scale.")
WrapParamAttrs = _attrs_kind("WrapParamAttrs", "wrap_param: dtype.")
