"""depth_to_space and space_to_depth: blocks of pixels moved to and from channels."""

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
