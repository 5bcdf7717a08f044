"""scale_shift_nchw / scale_shift_nhwc: a per-channel affine map (inference batch norm)."""

from __future__ import annotations

from tvm import te


def _check(who, data, scale, shift):
    if not isinstance(data, te.Tensor) or data.ndim != 4:
        raise ValueError(f"topi.nn.{who}: argument 'Input' must be a 4-D te.Tensor, got {data!r}")
    for name, t in (("Scale", scale), ("Shift", shift)):
        if not isinstance(t, te.Tensor) or t.ndim != 1:
            raise ValueError(f"topi.nn.{who}: argument {name!r} must be a 1-D te.Tensor, got {t!r}")


def scale_shift_nchw(Input, Scale, Shift):  # noqa: N803
    """Input[b, c, y, x] * Scale[c] + Shift[c]."""
    _check("scale_shift_nchw", Input, Scale, Shift)
    return te.compute(
        Input.shape, lambda b, c, y, x: Input[b, c, y, x] * Scale[c] + Shift[c], name="ScaleShift"
    )


def scale_shift_nhwc(Input, Scale, Shift):  # noqa: N803
    """Input[b, y, x, c] * Scale[c] + Shift[c]."""
    _check("scale_shift_nhwc", Input, Scale, Shift)
    return te.compute(
        Input.shape, lambda b, y, x, c: Input[b, y, x, c] * Scale[c] + Shift[c], name="ScaleShift"
    )
