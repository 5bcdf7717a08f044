"""Which Relax ops ToMixedPrecision runs in float16: the op attribute TMixedPrecisionPolicy
(kAlways / kFollow / kNever, upstream's values) and, for the kAlways ops, FInferMixedPrecision
(the call rebuilt with the accumulator dtype as its out_dtype)."""

from __future__ import annotations

from tvm.ir.op import Op

# upstream's MixedPrecisionPolicyKind
kAlways = 0  # noqa: N816  (upstream's names)
kFollow = 1  # noqa: N816
kNever = 2  # noqa: N816

# gemm, conv and attention: float16 operands favour tensor cores and halve the bandwidth, and
# the accumulator dtype (out_dtype; attention has none) keeps the sums exact enough.
_ALWAYS = (
    "matmul",
    "nn.attention",
    "nn.conv1d",
    "nn.conv2d",
    "nn.conv1d_transpose",
    "nn.conv2d_transpose",
)

# Elementwise and data-movement ops are as accurate in float16 as their inputs are, so they run
# in float16 when every input already is (or is a constant float16 can hold), else in float32.
# Ops not listed (softmax, reductions, take, call_tir, ...) are kNever: their inputs keep the
# dtype they had.
_FOLLOW = (
    # unary
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bitwise_not", "ceil", "clip",
    "cos", "cosh", "erf", "exp", "floor", "isfinite", "isinf", "isnan", "log", "logical_not",
    "negative", "round", "rsqrt", "sigmoid", "sign", "sin", "sinh", "sqrt", "square", "tan",
    "tanh", "trunc",
    # binary
    "add", "atan2", "bitwise_and", "bitwise_or", "bitwise_xor", "divide", "equal",
    "floor_divide", "floor_mod", "greater", "greater_equal", "left_shift", "less", "less_equal",
    "log_add_exp", "logical_and", "logical_or", "logical_xor", "maximum", "minimum", "mod",
    "multiply", "not_equal", "power", "right_shift", "subtract", "ewise_fma",
    # data movement
    "astype", "broadcast_to", "concat", "dynamic_strided_slice", "expand_dims", "flatten",
    "flip", "permute_dims", "repeat", "reshape", "split", "squeeze", "strided_slice", "tile",
    "image.resize2d",
    # nn
    "nn.adaptive_avg_pool1d", "nn.adaptive_avg_pool2d", "nn.avg_pool1d", "nn.avg_pool2d",
    "nn.batch_norm", "nn.gelu", "nn.gelu_tanh", "nn.group_norm", "nn.layer_norm",
    "nn.leakyrelu", "nn.max_pool1d", "nn.max_pool2d", "nn.relu", "nn.rms_norm", "nn.selu",
    "nn.silu",
)  # fmt: skip


def _with_out_dtype(call, out_dtype: str):
    """call with its out_dtype attribute set to out_dtype (upstream's FInferMixedPrecision for
    matmul and conv*); its struct info is inferred again when it is normalised."""
    from ..expr import Call

    attrs = type(call.attrs)(**{**dict(call.attrs.items()), "out_dtype": str(out_dtype)})
    return Call(call.op, list(call.args), attrs, list(call.sinfo_args), call.span)


def _same_call(call, out_dtype: str):
    """attention has no accumulator dtype: its float16 operands give a float16 result (upstream
    rebuilds the call without its scale and mask; this keeps them)."""
    return call


def _register() -> None:
    for name in _ALWAYS:
        op = Op.get("relax." + name)
        op.set_attr("TMixedPrecisionPolicy", kAlways)
        infer = _same_call if name == "nn.attention" else _with_out_dtype
        op.set_attr("FInferMixedPrecision", infer)
    for name in _FOLLOW:
        Op.get("relax." + name).set_attr("TMixedPrecisionPolicy", kFollow)


def policy_of(call) -> int:
    """The policy of call's op; -1 when call does not call an op (a function, a closure)."""
    if not isinstance(call.op, Op):
        return -1
    return call.op.get_attr("TMixedPrecisionPolicy", kNever)


_register()
