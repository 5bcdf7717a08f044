"""The converter of ONNX NonMaxSuppression, whose output length is known only at run time: one
serial PrimFunc runs the greedy selection of every (batch, class) into a buffer of the largest
possible size with the count after it, the count becomes a symbolic length, a copy cuts it."""

from __future__ import annotations

import numpy as np
from tvm import te
from tvm.relax import op as R

from ._relax_api import tir
from .common import Node, const, dtype_of, symbolic_length
from .registry import converter

_I64 = "int64"


def _i8(value: int):
    return tir.const(value, "int8")


def _corners(box, center: bool):
    """(x_min, x_max, y_min, y_max) of a box [4] given as corners or as center and size."""
    if center:
        x, y, w, h = box
        return x - w / 2, x + w / 2, y - h / 2, y + h / 2
    y1, x1, y2, x2 = box
    return tir.min(x1, x2), tir.max(x1, x2), tir.min(y1, y2), tir.max(y1, y2)


def _overlaps(a, b, iou, center: bool):
    """Whether box a's IoU with box b is above iou (false for empty boxes or no overlap)."""
    ax0, ax1, ay0, ay1 = _corners(a, center)
    bx0, bx1, by0, by1 = _corners(b, center)
    ix0, ix1 = tir.max(ax0, bx0), tir.min(ax1, bx1)
    iy0, iy1 = tir.max(ay0, by0), tir.min(ay1, by1)
    inter = (ix1 - ix0) * (iy1 - iy0)
    area_a, area_b = (ax1 - ax0) * (ay1 - ay0), (bx1 - bx0) * (by1 - by0)
    union = area_a + area_b - inter
    zero = tir.const(0, inter.dtype)
    safe = tir.Select(union > zero, union, tir.const(1, inter.dtype))
    return tir.all(
        ix1 > ix0,
        iy1 > iy0,
        inter > zero,
        area_a > zero,
        area_b > zero,
        union > zero,
        inter / safe > iou,
    )


def nms_te(boxes, scores, limits, center: bool, has_score_threshold: bool):
    """te: [B * C * N + 1, 3] int64: the selected (batch, class, box) rows in order, then a
    row whose first entry is their count. limits = [max boxes per class, iou threshold,
    score threshold] as float64."""
    batches, count_boxes, _ = (int(d) for d in boxes.shape)
    classes = int(scores.shape[1])
    capacity = batches * classes * count_boxes

    def body(ins, outs):
        bx, sc, lim = ins
        out = outs[0]
        done = tir.decl_buffer((count_boxes,), "int8", name="nms_done")
        chosen = tir.decl_buffer((count_boxes,), _I64, name="nms_chosen")
        state = tir.decl_buffer((4,), _I64, name="nms_state")  # written, in class, best, keep
        b, c = tir.Var("b", _I64), tir.Var("c", _I64)
        i, step, k = tir.Var("i", _I64), tir.Var("step", _I64), tir.Var("k", _I64)
        zero, one = tir.const(0, _I64), tir.const(1, _I64)

        def loop(var, extent, stmt):
            return tir.For(var, zero, tir.const(extent, _I64), body=stmt)

        def score(index):
            return sc[b, c, index].astype("float64")

        def box(index):
            return [bx[b, index, j] for j in range(4)]

        limit = lim[0].astype(_I64)
        below = score(i) <= lim[2] if has_score_threshold else tir.const(False, "bool")
        init = loop(i, count_boxes, tir.BufferStore(done, tir.Select(below, _i8(1), _i8(0)), [i]))
        best = state[2]
        better = tir.all(
            done[i] == 0,
            tir.any(best < 0, score(i) > score(tir.max(best, zero))),
        )
        scan = loop(i, count_boxes, tir.IfThenElse(better, tir.BufferStore(state, i, [2])))
        check = loop(
            k,
            count_boxes,
            tir.IfThenElse(
                tir.all(
                    k < state[1],
                    _overlaps(
                        box(best),
                        box(chosen[tir.min(k, count_boxes - 1)]),
                        lim[1].astype(bx.dtype),
                        center,
                    ),
                ),
                tir.BufferStore(state, zero, [3]),
            ),
        )
        take = tir.SeqStmt(
            [
                tir.BufferStore(chosen, best, [state[1]]),
                tir.BufferStore(out, b, [state[0], 0]),
                tir.BufferStore(out, c, [state[0], 1]),
                tir.BufferStore(out, best, [state[0], 2]),
                tir.BufferStore(state, state[0] + 1, [0]),
                tir.BufferStore(state, state[1] + 1, [1]),
            ]
        )
        pick = tir.SeqStmt(
            [
                tir.BufferStore(state, -one, [2]),
                scan,
                tir.IfThenElse(
                    tir.all(best >= 0, state[1] < limit),
                    tir.SeqStmt(
                        [
                            tir.BufferStore(done, _i8(1), [best]),
                            tir.BufferStore(state, one, [3]),
                            check,
                            tir.IfThenElse(state[3] == 1, take),
                        ]
                    ),
                ),
            ]
        )
        per_class = tir.SeqStmt(
            [tir.BufferStore(state, zero, [1]), init, loop(step, count_boxes, pick)]
        )
        stmt = tir.SeqStmt(
            [
                tir.BufferStore(state, zero, [0]),
                loop(b, batches, loop(c, classes, per_class)),
                tir.BufferStore(out, state[0], [capacity, 0]),
            ]
        )
        for buf in (state, chosen, done):
            stmt = tir.Allocate(buf.data, buf.dtype, list(buf.shape), tir.DeclBuffer(buf, stmt))
        return stmt

    return te.extern([capacity + 1, 3], [boxes, scores, limits], body, name="nms", dtype=_I64)


def _rows_te(buffer, length):
    return te.compute((length, 3), lambda r, j: buffer[r, j], name="nms_selected")


def _scalar_input(node: Node, index: int, default: float):
    value = node.input(index, optional=True)
    if value is None:
        return const(np.array([default], "float64"))
    return node.emit(R.reshape(R.astype(value, "float64"), [1]))


@converter("NonMaxSuppression", since=10)
def _nms(node: Node):
    boxes, scores = node.input(0), node.input(1)
    center = node.attr("center_point_box", 0)
    if center not in (0, 1):
        raise node.unsupported(f"center_point_box={center}")
    b_shape, s_shape = node.static_shape(boxes, "boxes"), node.static_shape(scores, "scores")
    if len(b_shape) != 3 or b_shape[2] != 4 or len(s_shape) != 3 or s_shape[0] != b_shape[0]:
        raise ValueError(
            f"from_onnx: {node.where()}: boxes {b_shape} and scores {s_shape} must be "
            "[batch, boxes, 4] and [batch, classes, boxes]"
        )
    if s_shape[2] != b_shape[1]:
        raise ValueError(f"from_onnx: {node.where()}: scores {s_shape} and boxes {b_shape} differ")
    has_threshold = node.input(4, optional=True) is not None
    limits = node.emit(
        R.concat(
            [_scalar_input(node, 2, 0.0), _scalar_input(node, 3, 0.0), _scalar_input(node, 4, 0.0)],
            axis=0,
        )
    )
    if dtype_of(boxes) != dtype_of(scores):
        scores = node.emit(R.astype(scores, dtype_of(boxes)))
    buffer = node.emit_te(
        nms_te, boxes, scores, limits, center=bool(center), has_score_threshold=has_threshold
    )
    capacity = b_shape[0] * s_shape[1] * b_shape[1]
    count = node.emit(
        R.reshape(
            R.strided_slice(buffer, axes=[0, 1], begin=[capacity, 0], end=[capacity + 1, 1]), [1]
        )
    )
    length = symbolic_length(node, count, "nms_n")
    return node.emit_te(_rows_te, buffer, length.struct_info.values[0])
