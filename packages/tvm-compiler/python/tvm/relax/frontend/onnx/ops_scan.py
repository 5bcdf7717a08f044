"""The converter of ONNX Scan: the body converted once per step (a static length up to
MAX_UNROLL) or run as a loop (the Loop converter's while_loop), its scan outputs stacked along
their axes in their directions."""

from __future__ import annotations

import numpy as np
from tvm import relax
from tvm.relax import op as R

from .common import Node, const, const_value, dtype_of, normalize_axis
from .ops_loop import MAX_UNROLL, while_loop
from .registry import converter


def _length(node: Node, scans, axes):
    """The number of steps: the scanned axis' extent, one for every scan input."""
    lengths = [node.shape(x)[axis] for x, axis in zip(scans, axes)]
    first = lengths[0]
    for other in lengths[1:]:
        if isinstance(first, int) and isinstance(other, int) and first != other:
            raise ValueError(
                f"from_onnx: {node.where()}: the scan inputs have different lengths {lengths}"
            )
    return next((n for n in lengths if isinstance(n, int)), first)


def _run_scan(node: Node, states, scans, in_axes, in_dirs, out_axes, out_dirs):
    """The final states and the stacked scan outputs of the body over scans."""
    body = node.attr("body")
    n_state, n_scan_in = len(states), len(scans)
    n_out = len(body.output) - n_state
    if len(body.input) != n_state + n_scan_in or n_out < 0:
        raise ValueError(
            f"from_onnx: {node.where()}: the body takes {len(body.input)} inputs and gives "
            f"{len(body.output)} outputs; with {n_state} state(s) and {n_scan_in} scan "
            f"input(s) it must take {n_state + n_scan_in} and give at least {n_state}"
        )
    out_axes = list(out_axes) if out_axes is not None else [0] * n_out
    out_dirs = list(out_dirs) if out_dirs is not None else [0] * n_out
    if len(out_axes) != n_out or len(out_dirs) != n_out:
        raise ValueError(
            f"from_onnx: {node.where()}: scan_output_axes / _directions must have {n_out} "
            f"entries (one per scan output), got {out_axes} / {out_dirs}"
        )
    length = _length(node, scans, in_axes)
    importer = node.importer

    def step(i, carried):
        """One body run at step i (a 0-d int64 tensor): (states..., scan outputs...)."""
        last = None
        elems = []
        for x, axis, backward in zip(scans, in_axes, in_dirs):
            index = i
            if backward:
                if last is None:
                    last = node.emit(R.subtract(_length_tensor(node, length), const(np.int64(1))))
                index = node.emit(R.subtract(last, i))
            elems.append(node.emit(R.take(x, index, axis=axis)))
        saved = dict(importer.values)
        try:
            for vi, value in zip(body.input, [*carried, *elems]):
                importer.values[vi.name] = value
            outs = importer.inline_subgraph(body, node.opset, node.bb)
        finally:
            importer.values = saved
        for value in outs:
            if isinstance(value, list) or value is None:
                raise node.unsupported("a Scan body output that is not a tensor")
        return outs

    if isinstance(length, int) and length <= MAX_UNROLL:
        carried, rows = list(states), [[] for _ in range(n_out)]
        for t in range(length):
            outs = step(const(np.int64(t)), carried)
            carried = outs[:n_state]
            for acc, value in zip(rows, outs[n_state:]):
                acc.append(node.emit(R.expand_dims(value, [0])))
        stacked = []
        for acc in rows:
            if not acc:
                raise node.unsupported("a Scan over zero steps")
            stacked.append(acc[0] if len(acc) == 1 else node.emit(R.concat(acc, axis=0)))
    else:

        def loop_step(i, _cond, carried):
            return [const(True), *step(i, carried)]

        trip = _length_tensor(node, length)
        outs = while_loop(node, loop_step, trip, None, list(states), n_out)
        carried, stacked = outs[:n_state], outs[n_state:]
        stacked = [
            node.bb.match_cast(s, relax.TensorStructInfo([length, *node.shape(s)[1:]], dtype_of(s)))
            for s in stacked
        ]
    results = []
    for value, axis, backward in zip(stacked, out_axes, out_dirs):
        if backward:  # prepended: the last step's output comes first
            value = node.emit(R.flip(value, axis=0))
        ndim = len(node.shape(value))
        axis = normalize_axis(node, axis, ndim)
        if axis != 0:
            order = list(range(1, ndim))
            order.insert(axis, 0)
            value = node.emit(R.permute_dims(value, order))
        results.append(value)
    return list(carried) + results


def _length_tensor(node: Node, length):
    """length (an int or a symbolic dim) as a 0-d int64 tensor."""
    if isinstance(length, int):
        return const(np.int64(length))
    shape = node.emit(R.shape_to_tensor(relax.ShapeExpr([length])))
    return node.emit(R.reshape(shape, []))


def _axes(node: Node, name: str, count: int, ranks=None):
    values = list(node.attr(name, [0] * count))
    if len(values) != count:
        raise ValueError(
            f"from_onnx: {node.where()}: {name} must have {count} entries, got {values}"
        )
    if ranks is not None:
        values = [normalize_axis(node, a, r) for a, r in zip(values, ranks)]
    return values


@converter("Scan", since=9)
def _scan(node: Node):
    count = node.attr("num_scan_inputs")
    inputs = list(node.inputs)
    states, scans = inputs[: len(inputs) - count], inputs[len(inputs) - count :]
    ranks = [len(node.shape(x)) for x in scans]
    in_axes = _axes(node, "scan_input_axes", count, ranks)
    in_dirs = _axes(node, "scan_input_directions", count)
    n_out = len(node.attr("body").output) - len(states)
    out_axes = _axes(node, "scan_output_axes", n_out)
    out_dirs = _axes(node, "scan_output_directions", n_out)
    return _run_scan(node, states, scans, in_axes, in_dirs, out_axes, out_dirs)


@converter("Scan", since=8)
def _scan8(node: Node):
    """Scan-8: every operand has a batch axis 0 (the scanned axis is 1), run one batch entry
    at a time; sequence_lens must be the full length."""
    count = node.attr("num_scan_inputs")
    inputs = list(node.inputs)
    lens = inputs[0]
    states, scans = inputs[1 : len(inputs) - count], inputs[len(inputs) - count :]
    in_dirs = _axes(node, "directions", count)
    batch = node.shape(scans[0])[0]
    if not isinstance(batch, int):
        raise node.unsupported("a Scan-8 batch of symbolic size")
    length = node.shape(scans[0])[1]
    if lens is not None:
        value = const_value(lens)
        if value is None or not isinstance(length, int) or np.any(value != length):
            raise node.unsupported("sequence_lens other than the full length")
    per_batch = []
    for b in range(batch):
        index = const(np.int64(b))
        pick = [node.emit(R.take(x, index, axis=0)) for x in states + scans]
        outs = _run_scan(
            node, pick[: len(states)], pick[len(states) :], [0] * count, in_dirs, None, None
        )
        per_batch.append([node.emit(R.expand_dims(v, [0])) for v in outs])
    return [
        parts[0] if len(parts) == 1 else node.emit(R.concat(list(parts), axis=0))
        for parts in zip(*per_batch)
    ]
