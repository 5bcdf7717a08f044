"""te computations for ONNX outputs Relax has no op for: MaxPool's Indices and transposed
convolutions of any spatial rank."""

from __future__ import annotations

from tvm import te

from ._relax_api import tir


def max_pool_indices(x, out_spatial, kernel, strides, dilations, pads, storage_order):
    """MaxPool's Indices: the flat index into x ([N, C, *spatial]) of each window's first
    maximum, the spatial part row-major (storage_order 0) or column-major (1)."""
    from tvm.topi.reduction import _ARG_REDUCERS

    nsp = len(kernel)
    spatial = [int(d) for d in x.shape[2:]]
    window = [te.reduce_axis((0, k), name=f"w{i}") for i, k in enumerate(kernel)]

    def compute(n, c, *o):
        pos = [o[i] * strides[i] - pads[i] + window[i].var * dilations[i] for i in range(nsp)]
        inside = tir.all(*[tir.all(p >= 0, p < spatial[i]) for i, p in enumerate(pos)])
        at = [tir.max(tir.min(p, spatial[i] - 1), 0) for i, p in enumerate(pos)]
        value = tir.Select(inside, x[(n, c, *at)], te.min_value(x.dtype))
        order = range(nsp) if storage_order == 0 else reversed(range(nsp))
        flat = tir.const(0, "int64")
        for i in order:
            flat = flat * spatial[i] + at[i].astype("int64")
        plane = 1
        for d in spatial:
            plane *= d
        flat = (n.astype("int64") * x.shape[1] + c.astype("int64")) * plane + flat
        return _ARG_REDUCERS[("argmax", False)]((flat, value), axis=window)

    shape = [x.shape[0], x.shape[1], *out_spatial]
    return te.compute(shape, compute, name="max_pool_indices")[0]


def conv_transpose_nd(x, w, strides, pads, output_padding, dilations, groups):
    """A transposed convolution of any spatial rank (Relax has the 1-D and 2-D ones): each
    output position sums the inputs whose strided, dilated kernel taps land on it.
    x [N, C_in, *in], w [C_in, C_out / groups, *kernel]."""
    nsp = len(x.shape) - 2
    in_sp = [int(d) for d in x.shape[2:]]
    kernel = [int(d) for d in w.shape[2:]]
    c_in, out_per_group = int(x.shape[1]), int(w.shape[1])
    in_per_group = c_in // groups
    out_sp = [
        strides[i] * (in_sp[i] - 1)
        + output_padding[i]
        + (kernel[i] - 1) * dilations[i]
        + 1
        - pads[i]
        - pads[i + nsp]
        for i in range(nsp)
    ]
    rc = te.reduce_axis((0, in_per_group), name="rc")
    rk = [te.reduce_axis((0, k), name=f"rk{i}") for i, k in enumerate(kernel)]

    def compute(n, oc, *o):
        g = oc // out_per_group
        ic = g * in_per_group + rc.var
        ok, at = [], []
        for i in range(nsp):
            pos = o[i] + pads[i] - rk[i].var * dilations[i]  # = input index * stride
            src = tir.floordiv(pos, strides[i])
            ok += [pos >= 0, tir.floormod(pos, strides[i]) == 0, src < in_sp[i]]
            at.append(tir.max(tir.min(src, in_sp[i] - 1), 0))
        value = x[(n, ic, *at)] * w[(ic, oc % out_per_group, *(r.var for r in rk))]
        return te.sum(tir.Select(tir.all(*ok), value, tir.const(0, x.dtype)), axis=[rc, *rk])

    shape = [x.shape[0], out_per_group * groups, *out_sp]
    return te.compute(shape, compute, name="conv_transpose")
