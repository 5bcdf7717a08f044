"""The ONNX Attention op (opset 23+) composed from matmul, masks and softmax: 3-D or 4-D inputs,
past key/value caches, boolean or additive masks, causal and sliding-window masks, softcap,
grouped-query heads and the qk_matmul_output modes."""

from __future__ import annotations

import numpy as np
from tvm.relax import op as R

from .common import Node, const, dtype_of, np_dtype_name
from .ops_elementwise import scalar
from .registry import converter


def _heads(node: Node, x, num_heads):
    """(B, S, H*D) -> (B, H, S, D)."""
    b, s, hidden = node.static_shape(x)
    return node.emit(
        R.permute_dims(R.reshape(x, [b, s, num_heads, hidden // num_heads]), [0, 2, 1, 3])
    )


def _window(q_len, kv_len, offset, left, right, causal):
    """An additive (q, kv) bias: 0 where query i may attend key j, -inf elsewhere."""
    i = np.arange(q_len).reshape(-1, 1) + offset
    j = np.arange(kv_len).reshape(1, -1)
    allowed = np.ones((q_len, kv_len), dtype=bool)
    if causal:
        allowed &= j <= i
    if left is not None and left >= 0:
        allowed &= i - j <= left
    if right is not None and right >= 0:
        allowed &= j - i <= right
    return allowed


@converter("Attention", since=23)
def _attention(node: Node):
    q, k, v = node.input(0), node.input(1), node.input(2)
    mask = node.input(3, optional=True)
    past_k, past_v = node.input(4, optional=True), node.input(5, optional=True)
    nonpad = node.input(6, optional=True) if node.opset >= 24 else None
    dtype = dtype_of(q)
    three_d = len(node.shape(q)) == 3
    if three_d:
        q = _heads(node, q, node.attr("q_num_heads"))
        k = _heads(node, k, node.attr("kv_num_heads"))
        v = _heads(node, v, node.attr("kv_num_heads"))
    else:
        node.ignore("q_num_heads", "kv_num_heads")
    for x in (q, k, v):
        node.static_shape(x)
    batch, q_heads, q_len, head = node.shape(q)
    kv_heads = node.shape(k)[1]
    scale = node.attr("scale", None)
    scale = 1.0 / np.sqrt(head) if scale is None else scale
    if past_k is not None:
        k = node.emit(R.concat([past_k, k], axis=2))
        v = node.emit(R.concat([past_v, v], axis=2))
    present_k, present_v = k, v
    # float16 and bfloat16 attention is computed in float32 and rounded once at the end: a
    # narrow matmul and softmax round at every step and land an ulp away from the reference
    work = "float32" if dtype in ("float16", "bfloat16") else dtype
    if work != dtype:
        q, k, v = (node.emit(R.astype(x, work)) for x in (q, k, v))
    past_len = node.static_shape(past_k)[2] if past_k is not None else 0
    kv_len = node.shape(k)[2]

    # the additive bias: the mask (padded to the whole key length), then causal/window masks
    bias = None
    if mask is not None:
        mshape = node.static_shape(mask, "attn_mask")
        if dtype_of(mask) == "bool":
            mask = R.where(mask, scalar(0, q), scalar(-np.inf, q))
        elif dtype_of(mask) != work:
            mask = node.emit(R.astype(mask, work))
        if mshape[-1] < kv_len:
            pad_shape = list(mshape[:-1]) + [kv_len - mshape[-1]]
            mask = R.concat([mask, const(np.full(pad_shape, -np.inf, dtype=work))], axis=-1)
        bias = node.emit(mask)
    causal = bool(node.attr("is_causal", 0))
    left = node.attr("left_window_size", -1) if node.opset >= 25 else -1
    right = node.attr("right_window_size", -1) if node.opset >= 25 else -1
    if nonpad is not None:
        if past_k is not None:
            raise ValueError(f"from_onnx: {node.where()}: nonpad_kv_seqlen with a past cache")
        # per-batch frontier: offset[b] = nonpad[b] - q_len; padding keys j >= nonpad[b] masked
        lens = R.reshape(R.astype(nonpad, "int64"), [batch, 1, 1, 1])
        i = const(np.arange(q_len, dtype="int64").reshape(1, 1, -1, 1))
        j = const(np.arange(kv_len, dtype="int64").reshape(1, 1, 1, -1))
        pos = R.add(i, R.subtract(lens, const(q_len, "int64")))
        allowed = R.less(j, lens)
        if causal:
            allowed = R.logical_and(allowed, R.less_equal(j, pos))
        if left >= 0:
            allowed = R.logical_and(allowed, R.less_equal(R.subtract(pos, j), const(left, "int64")))
        if right >= 0:
            allowed = R.logical_and(
                allowed, R.less_equal(R.subtract(j, pos), const(right, "int64"))
            )
        extra = R.where(allowed, scalar(0, q), scalar(-np.inf, q))
        bias = node.emit(extra if bias is None else R.add(bias, extra))
    elif causal or left >= 0 or right >= 0:
        allowed = _window(q_len, kv_len, past_len, left, right, causal)
        extra = const(np.where(allowed, 0, -np.inf).astype(work))
        bias = node.emit(extra if bias is None else R.add(bias, extra))

    if q_heads != kv_heads:  # grouped-query attention: each kv head serves several q heads
        reps = q_heads // kv_heads
        k = node.emit(R.repeat(k, reps, axis=1))
        v = node.emit(R.repeat(v, reps, axis=1))
    root = np.sqrt(scale)
    scores = node.emit(
        R.matmul(
            R.multiply(q, scalar(root, q)),
            R.permute_dims(R.multiply(k, scalar(root, q)), [0, 1, 3, 2]),
        )
    )
    softcap = node.attr("softcap", 0.0)
    if softcap and softcap > 0:
        scores = node.emit(
            R.multiply(R.tanh(R.divide(scores, scalar(softcap, q))), scalar(softcap, q))
        )
    mode = node.attr("qk_matmul_output_mode", 0)
    qk_out = scores
    with_bias = scores if bias is None else node.emit(R.add(scores, bias))
    if mode == 2:
        qk_out = with_bias
    precision = node.attr("softmax_precision", None)
    logits = with_bias
    if precision is not None and np_dtype_name(precision) != work:
        logits = node.emit(R.astype(logits, np_dtype_name(precision)))
    probs = node.emit(R.nn.softmax(logits, axis=-1))
    if bias is not None:
        # a row whose every key is masked attends nothing: zero, not NaN
        dead = R.equal(R.max(bias, axis=[-1], keepdims=True), scalar(-np.inf, q))
        probs = node.emit(R.where(dead, scalar(0, probs), probs))
    if dtype_of(probs) != work:
        probs = node.emit(R.astype(probs, work))
    if mode == 3:
        qk_out = probs
    elif mode not in (0, 1, 2):
        raise node.unsupported(f"qk_matmul_output_mode={mode}")
    out = node.emit(R.matmul(probs, v))
    if work != dtype:
        out = node.emit(R.astype(out, dtype))
        qk_out = node.emit(R.astype(qk_out, dtype))
    if three_d:
        out = node.emit(R.reshape(node.emit(R.permute_dims(out, [0, 2, 1, 3])), [batch, q_len, -1]))
    return [out, present_k, present_v, qk_out][: node.num_outputs]
