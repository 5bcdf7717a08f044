"""dense: data (batch, in) times weight (out, in) transposed, plus an optional bias."""

from tvm import te


def dense(
    data,
    weight,
    bias=None,
    out_dtype=None,
    auto_scheduler_rewritten_layout="",
    meta_schedule_original_shape=None,
):
    """out[i, j] = sum_k data[i, k] * weight[j, k] (+ bias[j]) (the scheduler arguments are
    accepted and unused)."""
    for arg, t, ndim in (("data", data, 2), ("weight", weight, 2)):
        if not isinstance(t, te.Tensor) or t.ndim != ndim:
            raise ValueError(f"topi.nn.dense: argument {arg!r} must be a 2-D te.Tensor, got {t!r}")
    out_dtype = out_dtype or data.dtype
    k = te.reduce_axis((0, data.shape[1]), name="k")
    matmul = te.compute(
        (data.shape[0], weight.shape[0]),
        lambda i, j: te.sum(data[i, k].astype(out_dtype) * weight[j, k].astype(out_dtype), axis=k),
        name="T_matmul_NT",
    )
    if bias is None:
        return matmul
    return te.compute(
        matmul.shape, lambda i, j: matmul[i, j] + bias[j].astype(out_dtype), name="T_add"
    )
