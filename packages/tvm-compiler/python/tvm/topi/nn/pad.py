"""pad: a tensor surrounded by pad_value."""

from tvm import te
from tvm.tir import expr as E
from tvm.tir import op as tir_op


def pad(data, pad_before, pad_after=None, pad_value=0.0, name="PadInput"):
    """data with pad_before[k] / pad_after[k] elements of pad_value added on axis k."""
    pad_after = pad_before if pad_after is None else pad_after
    if all(isinstance(p, int) and p == 0 for p in (*pad_before, *pad_after)):
        return data
    shape = [s + b + a for s, b, a in zip(data.shape, pad_before, pad_after)]

    def body(*i):
        inside, index = [], []
        for x, extent, before, after in zip(i, data.shape, pad_before, pad_after):
            index.append(x - before)
            if not (isinstance(before, int) and before == 0):
                inside.append(x >= before)
            if not (isinstance(before, int) and before == 0) or not (
                isinstance(after, int) and after == 0
            ):
                inside.append(x - before < extent)  # padding after the data needs this bound
        load = data[tuple(index)]
        if not inside:
            return load
        return tir_op.if_then_else(tir_op.all(*inside), load, E.const(pad_value, data.dtype))

    return te.compute(shape, body, name=name)
