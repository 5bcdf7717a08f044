"""Broadcasting binary elementwise operators over te tensors and scalars, NumPy's rules."""

from __future__ import annotations

from tvm import te
from tvm.tir import expr as E
from tvm.tir import op as tir_op


def _static(extent):
    return extent.value if isinstance(extent, E.IntImm) else None


def broadcast_shape(who, lhs_shape, rhs_shape):
    """NumPy's broadcast of two shapes (trailing axes aligned; an extent of 1 stretches)."""
    ndim = max(len(lhs_shape), len(rhs_shape))
    lhs = [E.const(1, "int32")] * (ndim - len(lhs_shape)) + list(lhs_shape)
    rhs = [E.const(1, "int32")] * (ndim - len(rhs_shape)) + list(rhs_shape)
    out = []
    for a, b in zip(lhs, rhs):
        sa, sb = _static(a), _static(b)
        if sa == 1:
            out.append(b)
        elif sb == 1 or a is b or (sa is not None and sa == sb):
            out.append(a)
        elif sa is not None and sb is not None:
            raise ValueError(
                f"{who}: shapes {[str(x) for x in lhs_shape]} and {[str(x) for x in rhs_shape]} "
                "do not broadcast"
            )
        else:
            out.append(a)  # symbolic extents are taken to agree, as upstream does
    return out


def _index(tensor, out_index):
    """tensor's element at out_index of the broadcast result (stretched axes read index 0)."""
    offset = len(out_index) - len(tensor.shape)
    idx = [
        0 if _static(extent) == 1 else out_index[offset + k]
        for k, extent in enumerate(tensor.shape)
    ]
    return tensor[tuple(idx)] if idx else tensor[()]


def _binary(name, fop):
    def operator(lhs, rhs):
        if not isinstance(lhs, te.Tensor) and not isinstance(rhs, te.Tensor):
            return fop(E.convert(lhs), E.convert(rhs))
        for arg, value in (("lhs", lhs), ("rhs", rhs)):
            if not isinstance(value, (te.Tensor, int, float, E.PrimExpr)):
                raise TypeError(
                    f"topi.{name}: argument {arg!r} must be a te.Tensor or a scalar, got "
                    f"{type(value).__name__}"
                )
        if not isinstance(rhs, te.Tensor):
            return te.compute(lhs.shape, lambda *i: fop(lhs[i], rhs), name=f"T_{name}")
        if not isinstance(lhs, te.Tensor):
            return te.compute(rhs.shape, lambda *i: fop(lhs, rhs[i]), name=f"T_{name}")
        shape = broadcast_shape(f"topi.{name}", lhs.shape, rhs.shape)
        return te.compute(shape, lambda *i: fop(_index(lhs, i), _index(rhs, i)), name=f"T_{name}")

    operator.__name__ = name
    operator.__doc__ = f"Elementwise {name} of lhs and rhs with NumPy broadcasting."
    return operator


add = _binary("add", lambda a, b: a + b)
subtract = _binary("subtract", lambda a, b: a - b)
multiply = _binary("multiply", lambda a, b: a * b)
divide = _binary("divide", lambda a, b: a / b)
maximum = _binary("maximum", tir_op.max)
minimum = _binary("minimum", tir_op.min)
