"""pad: a tensor surrounded by pad_value, or by its reflection, edge or wrap-around."""

from tvm import te
from tvm.tir import expr as E
from tvm.tir import op as tir_op


def pad(data, pad_before, pad_after=None, pad_value=0.0, name="PadInput", attrs=None):
    """data with pad_before[k] / pad_after[k] elements of pad_value added on axis k (attrs,
    upstream's compute attributes, are accepted and unused)."""
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
            if not (isinstance(after, int) and after == 0):
                inside.append(x - before < extent)
        load = data[tuple(index)]
        if not inside:
            return load
        return tir_op.if_then_else(tir_op.all(*inside), load, E.const(pad_value, data.dtype))

    return te.compute(shape, body, name=name)


def _padded(who, data, pad_before, pad_after, source, name):
    """data padded by reading, for each output position, the input position source(k, j, n)
    gives for axis k's shifted index j (extent n)."""
    if not isinstance(data, te.Tensor):
        raise TypeError(f"topi.nn.{who}: argument 'data' must be a te.Tensor, got {data!r}")
    pad_after = pad_before if pad_after is None else pad_after
    if len(pad_before) != data.ndim or len(pad_after) != data.ndim:
        raise ValueError(
            f"topi.nn.{who}: arguments 'pad_before' and 'pad_after' must have {data.ndim} entries"
        )
    shape = [s + b + a for s, b, a in zip(data.shape, pad_before, pad_after)]

    def body(*i):
        return data[tuple(source(x - b, n) for x, n, b in zip(i, data.shape, pad_before))]

    return te.compute(shape, body, name=name)


def reflect_pad(data, pad_before, pad_after=None, name="ReflectPadInput"):
    """data padded by its reflection without the edge element (NumPy's "reflect")."""

    def source(j, n):
        j = tir_op.if_then_else(j < 0, 0 - j, j)
        return tir_op.if_then_else(j >= n, 2 * (n - 1) - j, j)

    return _padded("reflect_pad", data, pad_before, pad_after, source, name)


def replicate_pad(data, pad_before, pad_after=None, name="ReplicatePadInput"):
    """data padded by repeating its edge element (NumPy's "edge")."""
    return _padded(
        "replicate_pad",
        data,
        pad_before,
        pad_after,
        lambda j, n: E.Max(E.Min(j, n - 1), 0),
        name,
    )


def mirror_pad(data, pad_before, pad_after=None, mode="SYMMETRIC", name="MirrorPadInput"):
    """data padded by its mirror image: "SYMMETRIC" repeats the edge element (NumPy's
    "symmetric"), "REFLECT" does not."""
    if mode == "REFLECT":
        return reflect_pad(data, pad_before, pad_after, name)
    if mode != "SYMMETRIC":
        raise ValueError(
            f"topi.nn.mirror_pad: argument 'mode' must be 'SYMMETRIC' or 'REFLECT', got {mode!r}"
        )

    def source(j, n):
        j = tir_op.if_then_else(j < 0, -1 - j, j)
        return tir_op.if_then_else(j >= n, 2 * n - 1 - j, j)

    return _padded("mirror_pad", data, pad_before, pad_after, source, name)


def circular_pad(data, pad_before, pad_after=None, name="CircularPadInput"):
    """data padded by wrapping around (NumPy's "wrap")."""
    return _padded(
        "circular_pad", data, pad_before, pad_after, lambda j, n: tir_op.floormod(j, n), name
    )


def get_padded_shape(data, pad_before, pad_after=None):
    """The shape of data once padded by pad_before / pad_after (pad_after defaults to
    pad_before)."""
    if not isinstance(data, te.Tensor):
        raise TypeError(
            f"topi.nn.get_padded_shape: argument 'data' must be a te.Tensor, got {data!r}"
        )
    pad_after = pad_before if pad_after is None else pad_after
    if len(pad_before) != data.ndim or len(pad_after) != data.ndim:
        raise ValueError(
            "topi.nn.get_padded_shape: arguments 'pad_before' and 'pad_after' must have "
            f"{data.ndim} entries"
        )
    return tuple(s + b + a for s, b, a in zip(data.shape, pad_before, pad_after))
