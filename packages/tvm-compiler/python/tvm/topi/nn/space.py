"""depth_to_space and space_to_depth (blocks of pixels moved to and from channels), and
space_to_batch_nd / batch_to_space_nd (blocks moved to and from the batch)."""

from __future__ import annotations

from tvm import te
from tvm.tir import op as T

_LAYOUTS = ("NCHW", "NHWC")


def _check(who, data, block_size, layout):
    if not isinstance(data, te.Tensor) or data.ndim != 4:
        raise ValueError(f"topi.nn.{who}: argument 'data' must be a 4-D te.Tensor, got {data!r}")
    if not isinstance(block_size, int) or block_size < 1:
        raise ValueError(
            f"topi.nn.{who}: argument 'block_size' must be an int >= 1, got {block_size!r}"
        )
    if layout not in _LAYOUTS:
        raise ValueError(f"topi.nn.{who}: argument 'layout' must be NCHW or NHWC, got {layout!r}")


def _nchw(layout, i):
    """(n, c, y, x) of an index in layout."""
    return (i[0], i[1], i[2], i[3]) if layout == "NCHW" else (i[0], i[3], i[1], i[2])


def _at(data, layout, n, c, y, x):
    return data[n, c, y, x] if layout == "NCHW" else data[n, y, x, c]


def _shape(layout, n, c, h, w):
    return (n, c, h, w) if layout == "NCHW" else (n, h, w, c)


def depth_to_space(data, block_size, layout="NCHW", mode="DCR"):
    """Channels moved into block_size x block_size pixel blocks: DCR takes a block position's
    channels as one run (TensorFlow), CDR a channel's block positions (PyTorch)."""
    _check("depth_to_space", data, block_size, layout)
    if mode not in ("DCR", "CDR"):
        raise ValueError(
            f"topi.nn.depth_to_space: argument 'mode' must be DCR or CDR, got {mode!r}"
        )
    n, c, h, w = _nchw(layout, data.shape)
    bs = block_size
    out_c = T.floordiv(c, bs * bs)

    def body(*i):
        b, ch, y, x = _nchw(layout, i)
        offset = T.floormod(y, bs) * bs + T.floormod(x, bs)
        src = offset * out_c + ch if mode == "DCR" else ch * (bs * bs) + offset
        return _at(data, layout, b, src, T.floordiv(y, bs), T.floordiv(x, bs))

    return te.compute(_shape(layout, n, out_c, h * bs, w * bs), body, name="depth_to_space")


def space_to_depth(data, block_size, layout="NCHW"):
    """block_size x block_size pixel blocks moved into channels (a block position's
    channels as one run)."""
    _check("space_to_depth", data, block_size, layout)
    n, c, h, w = _nchw(layout, data.shape)
    bs = block_size

    def body(*i):
        b, oc, y, x = _nchw(layout, i)
        block, ch = T.floordiv(oc, c), T.floormod(oc, c)
        return _at(
            data, layout, b, ch, y * bs + T.floordiv(block, bs), x * bs + T.floormod(block, bs)
        )

    shape = _shape(layout, n, c * (bs * bs), T.floordiv(h, bs), T.floordiv(w, bs))
    return te.compute(shape, body, name="space_to_depth")


def _block_ints(who, block_shape, data):
    blocks = [int(b) for b in block_shape]
    if not blocks or any(b < 1 for b in blocks) or len(blocks) + 1 > data.ndim:
        raise ValueError(
            f"topi.nn.{who}: argument 'block_shape' must hold 1 to {data.ndim - 1} ints >= 1, "
            f"got {list(block_shape)}"
        )
    return blocks


def space_to_batch_nd(data, block_shape, pad_before, pad_after, pad_value=0.0):
    """data (batch, spatial..., rest...) padded, then each spatial axis cut into blocks whose
    offset moves to the batch: (batch * prod(block_shape), padded / block..., rest...)."""
    if not isinstance(data, te.Tensor):
        raise TypeError(
            f"topi.nn.space_to_batch_nd: argument 'data' must be a te.Tensor, got {data!r}"
        )
    blocks = _block_ints("space_to_batch_nd", block_shape, data)
    m = len(blocks)
    from .pad import pad

    padded = pad(
        data,
        [0, *pad_before, *([0] * (data.ndim - 1 - m))],
        [0, *pad_after, *([0] * (data.ndim - 1 - m))],
        pad_value,
        name="space_to_batch_pad",
    )
    batch = data.shape[0]
    total = 1
    for b in blocks:
        total *= b
    shape = (
        [batch * total]
        + [T.floordiv(padded.shape[1 + k], blocks[k]) for k in range(m)]
        + list(data.shape[1 + m :])
    )

    def body(ob, *i):
        n, rest = T.floormod(ob, batch), T.floordiv(ob, batch)
        offsets = []
        for b in reversed(blocks):
            offsets.append(T.floormod(rest, b))
            rest = T.floordiv(rest, b)
        offsets.reverse()
        spatial = tuple(i[k] * blocks[k] + offsets[k] for k in range(m))
        return padded[(n, *spatial, *i[m:])]

    return te.compute(shape, body, name="space_to_batch_nd")


def batch_to_space_nd(data, block_shape, crop_begin_list, crop_end_list):
    """The inverse of space_to_batch_nd: batch offsets moved back into the spatial axes, then
    crop_begin_list / crop_end_list cropped off each."""
    if not isinstance(data, te.Tensor):
        raise TypeError(
            f"topi.nn.batch_to_space_nd: argument 'data' must be a te.Tensor, got {data!r}"
        )
    blocks = _block_ints("batch_to_space_nd", block_shape, data)
    m = len(blocks)
    total = 1
    for b in blocks:
        total *= b
    batch = T.floordiv(data.shape[0], total)
    shape = (
        [batch]
        + [data.shape[1 + k] * blocks[k] - crop_begin_list[k] - crop_end_list[k] for k in range(m)]
        + list(data.shape[1 + m :])
    )

    def body(n, *i):
        ob, spatial = 0, []
        for k in range(m):
            full = i[k] + crop_begin_list[k]
            ob = ob * blocks[k] + T.floormod(full, blocks[k])
            spatial.append(T.floordiv(full, blocks[k]))
        return data[(ob * batch + n, *spatial, *i[m:])]

    return te.compute(shape, body, name="batch_to_space_nd")
