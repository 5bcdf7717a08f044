"""The converters of the ONNX Sequence and Optional ops: a sequence is a Python list of Relax
values and an optional an OptionalValue, both known at conversion time (lengths, positions and
presence), so every op here is bookkeeping plus the tensor ops it implies."""

from __future__ import annotations

import numpy as np
from tvm.relax import op as R

from .common import Node, OptionalValue, const, ndim_of, normalize_axis
from .registry import converter


def _sequence(node: Node, index: int) -> list:
    value = node.input(index)
    if not isinstance(value, list):
        raise ValueError(
            f"from_onnx: {node.where()}: input {index} ({node.proto.input[index]!r}) must be a "
            "sequence, got a tensor"
        )
    return value


def _position(node: Node, index: int, length: int, default: int, insert: bool = False) -> int:
    """A position input (known at conversion time), negative ones counted from the end; an
    insertion may also be at length."""
    value = node.const_input(index, "position", optional=True)
    pos = default if value is None else int(np.asarray(value).reshape(-1)[0])
    high = length if insert else length - 1
    if not -length <= pos <= high:
        raise IndexError(
            f"from_onnx: {node.where()}: position {pos} is out of range for a sequence of "
            f"length {length}"
        )
    return pos + length if pos < 0 else pos


@converter("SequenceConstruct", since=11)
def _sequence_construct(node: Node):
    return [list(node.inputs)]


@converter("SequenceEmpty", since=11)
def _sequence_empty(node: Node):
    node.attr("dtype", None)  # the element type of an empty list has no Relax form
    return [[]]


@converter("SequenceInsert", since=11)
def _sequence_insert(node: Node):
    seq = _sequence(node, 0)
    pos = _position(node, 2, len(seq), len(seq), insert=True)
    return [seq[:pos] + [node.input(1)] + seq[pos:]]


@converter("SequenceAt", since=11)
def _sequence_at(node: Node):
    seq = _sequence(node, 0)
    if node.input(1, optional=True) is None:
        raise ValueError(f"from_onnx: {node.where()} needs input 1 (position)")
    return seq[_position(node, 1, len(seq), 0)]


@converter("SequenceErase", since=11)
def _sequence_erase(node: Node):
    seq = _sequence(node, 0)
    if not seq:
        raise IndexError(f"from_onnx: {node.where()}: erasing from an empty sequence")
    pos = _position(node, 1, len(seq), len(seq) - 1)
    return [seq[:pos] + seq[pos + 1 :]]


@converter("SequenceLength", since=11)
def _sequence_length(node: Node):
    return const(np.int64(len(_sequence(node, 0))))


@converter("ConcatFromSequence", since=11)
def _concat_from_sequence(node: Node):
    seq = _sequence(node, 0)
    axis, new_axis = node.attr("axis"), node.attr("new_axis", 0)
    if not seq:
        raise ValueError(f"from_onnx: {node.where()}: concatenating an empty sequence")
    ndim = ndim_of(seq[0])
    axis = normalize_axis(node, axis, ndim + 1 if new_axis else ndim)
    if new_axis:
        seq = [node.emit(R.expand_dims(t, [axis])) for t in seq]
    return node.emit(R.concat(seq, axis=axis)) if len(seq) > 1 else seq[0]


@converter("SplitToSequence", since=11)
def _split_to_sequence(node: Node):
    x = node.input(0)
    shape = node.shape(x)
    axis = normalize_axis(node, node.attr("axis", 0), len(shape))
    keepdims = node.attr("keepdims", 1)
    dim = shape[axis]
    if not isinstance(dim, int):
        raise node.unsupported(f"a split along the symbolic dimension {dim}")
    split = node.const_input(1, "split", optional=True)
    if split is None:
        sizes = [1] * dim
    elif np.ndim(split) == 0:
        chunk = int(split)
        if chunk <= 0:
            raise ValueError(f"from_onnx: {node.where()}: split must be positive, got {chunk}")
        sizes = [min(chunk, dim - start) for start in range(0, dim, chunk)]
    else:
        sizes = [int(s) for s in np.asarray(split).reshape(-1)]
        if any(s < 0 for s in sizes) or sum(sizes) != dim:
            raise ValueError(
                f"from_onnx: {node.where()}: split {sizes} must be non-negative and sum to "
                f"the dimension {dim} of axis {axis}"
            )
    pieces, start = [], 0
    for size in sizes:
        piece = node.emit(R.strided_slice(x, axes=[axis], begin=[start], end=[start + size]))
        if split is None and not keepdims:
            piece = node.emit(R.squeeze(piece, [axis]))
        pieces.append(piece)
        start += size
    return [pieces]


@converter("SequenceMap", since=17)
def _sequence_map(node: Node):
    """The body once per element, unrolled: sequence inputs give their k-th element, tensor
    inputs themselves; each body output becomes one output sequence."""
    body = node.attr("body")
    importer = node.importer
    seq = _sequence(node, 0)
    lengths = {len(v) for v in node.inputs if isinstance(v, list)}
    if len(lengths) > 1:
        raise ValueError(
            f"from_onnx: {node.where()}: the input sequences differ in length ({sorted(lengths)})"
        )
    if len(body.input) != len(node.inputs):
        raise ValueError(
            f"from_onnx: {node.where()}: the body takes {len(body.input)} inputs, the node "
            f"gives {len(node.inputs)}"
        )
    outputs = [[] for _ in body.output]
    saved = dict(importer.values)
    try:
        for k in range(len(seq)):
            importer.values = dict(saved)
            for vi, value in zip(body.input, node.inputs):
                importer.values[vi.name] = value[k] if isinstance(value, list) else value
            for acc, out in zip(outputs, importer.inline_subgraph(body, node.opset, node.bb)):
                acc.append(out)
    finally:
        importer.values = saved
    return outputs


@converter("Optional", since=15)
def _optional(node: Node):
    node.attr("type", None)  # the element type of an empty optional has no Relax form
    return [OptionalValue(node.input(0, optional=True))]


@converter("OptionalHasElement", since=15)
def _optional_has_element(node: Node):
    value = node.input(0, optional=True)  # no input (opset 18): an empty optional
    if isinstance(value, OptionalValue):
        value = value.value
    return const(np.array(value is not None))


@converter("OptionalGetElement", since=15)
def _optional_get_element(node: Node):
    value = node.input(0)
    if isinstance(value, OptionalValue):
        if value.value is None:
            raise ValueError(f"from_onnx: {node.where()}: the optional input is empty")
        return [value.value]
    return [value]  # opset 18: a tensor or sequence is returned as it is
