"""layout_transform: a te tensor moved between data layouts such as NCHW, NHWC, NCHW4c."""

from __future__ import annotations

import re

from tvm import te
from tvm.tir import expr as E
from tvm.tir import op as tir_op


def _parse(who, layout):
    """[(letter, factor or None)] for a layout: upper-case letters are whole axes, a number
    then a lower-case letter is the inner part (of that size) of a split axis."""
    if not isinstance(layout, str) or not re.fullmatch(r"([A-Z]|[0-9]+[a-z])+", layout):
        raise ValueError(f"topi.layout_transform: argument {who!r} is not a layout: {layout!r}")
    axes = [
        (m.group(2), int(m.group(1)) if m.group(1) else None)
        for m in re.finditer(r"([0-9]*)([A-Za-z])", layout)
    ]
    letters = [a for a, _ in axes]
    for letter, factor in axes:
        if letters.count(letter) > 1 or (factor is not None and letter.upper() not in letters):
            raise ValueError(f"topi.layout_transform: argument {who!r} is not a layout: {layout!r}")
        if factor is None and not letter.isupper():
            raise ValueError(f"topi.layout_transform: argument {who!r} is not a layout: {layout!r}")
    return axes


def layout_transform(array, src_layout, dst_layout, schedule_rule="None"):
    """array (laid out as src_layout) laid out as dst_layout: the same primal axes, split
    (an inner axis of a fixed size) or merged as the layouts say."""
    if not isinstance(array, te.Tensor):
        raise TypeError(
            f"topi.layout_transform: argument 'array' must be a te.Tensor, got {array!r}"
        )
    src = _parse("src_layout", src_layout)
    dst = _parse("dst_layout", dst_layout)
    if len(src) != array.ndim:
        raise ValueError(
            f"topi.layout_transform: src_layout {src_layout!r} has {len(src)} axes, array has "
            f"{array.ndim}"
        )
    primal_src = sorted(a for a, _ in src if a.isupper())
    primal_dst = sorted(a for a, _ in dst if a.isupper())
    if primal_src != primal_dst:
        raise ValueError(
            f"topi.layout_transform: {src_layout!r} and {dst_layout!r} have different axes"
        )
    src_split = {a.upper(): f for a, f in src if f is not None}
    dst_split = {a.upper(): f for a, f in dst if f is not None}
    # The full extent of each primal axis.
    extent = {}
    for k, (letter, _) in enumerate(src):
        if letter.isupper():
            extent[letter] = (
                array.shape[k] * src_split[letter] if letter in src_split else array.shape[k]
            )
    for letter, factor in dst_split.items():
        full = extent[letter]
        if isinstance(full, E.IntImm) and full.value % factor:
            raise ValueError(
                f"topi.layout_transform: axis {letter} ({full.value}) does not split by {factor}"
            )
    shape = []
    for letter, factor in dst:
        if factor is not None:
            shape.append(factor)
        elif letter in dst_split:
            shape.append(tir_op.floordiv(extent[letter], dst_split[letter]))
        else:
            shape.append(extent[letter])

    def body(*i):
        letters = [a for a, _ in dst]
        # Each primal axis's position: a split one is outer * factor + inner.
        value = {a: i[letters.index(a)] for a in letters if a.isupper()}
        for key, factor in dst_split.items():
            value[key] = value[key] * factor + i[letters.index(key.lower())]
        index = []
        for letter, factor in src:
            key = letter.upper()
            if factor is not None:
                index.append(tir_op.floormod(value[key], factor))
            elif key in src_split:
                index.append(tir_op.floordiv(value[key], src_split[key]))
            else:
                index.append(value[key])
        return array[tuple(index)]

    return te.compute(shape, body, name="T_layout_trans")
