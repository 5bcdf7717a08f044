"""te.extern: a tensor computed by opaque code (a call_extern or call_packed) over buffers."""

from __future__ import annotations

from tvm.tir import expr as E
from tvm.tir.stmt import Evaluate, Stmt

from .tensor import Tensor, _Operation, _shape


class ExternOp(_Operation):
    """inputs: the tensors body reads through input_placeholders (their buffers); body writes
    output_placeholders, the buffers of this op's outputs."""

    _fields = (
        "name",
        "tag",
        "attrs",
        "inputs",
        "input_placeholders",
        "output_placeholders",
        "body",
    )

    def __init__(self, name, tag, attrs, inputs, input_placeholders, output_placeholders, body):
        self._set(
            name=name,
            tag=tag,
            attrs=dict(attrs or {}),
            inputs=tuple(inputs),
            input_placeholders=tuple(input_placeholders),
            output_placeholders=tuple(output_placeholders),
            body=body,
        )


def extern(shape, inputs, fcompute, name="extern", dtype=None, tag="", attrs=None):
    """Tensors of shape (a list of shapes for several outputs) computed by the statement or
    expression fcompute(ins, outs) returns, ins and outs being the buffers of inputs and
    outputs (as upstream: the body is usually a tir.call_packed or tir.call_extern)."""
    who = f"extern {name!r}"
    if not isinstance(shape, (list, tuple)) or not shape:
        raise ValueError(f"{who}: shape must be a non-empty list or tuple, got {shape!r}")
    shapes = shape if isinstance(shape[0], (list, tuple)) else [shape]
    shapes = [_shape(s, who) for s in shapes]
    if not isinstance(inputs, (list, tuple)) or not all(isinstance(t, Tensor) for t in inputs):
        raise TypeError(f"{who}: inputs must be a list of te Tensors, got {inputs!r}")
    if not callable(fcompute):
        raise TypeError(f"{who}: fcompute must be callable, got {type(fcompute).__name__}")
    if dtype is None:
        if not inputs:
            raise ValueError(f"{who}: dtype is needed when there are no inputs")
        dtype = inputs[0].dtype
    dtypes = list(dtype) if isinstance(dtype, (list, tuple)) else [dtype] * len(shapes)
    if len(dtypes) != len(shapes):
        raise ValueError(f"{who}: {len(dtypes)} dtypes for {len(shapes)} outputs")
    multi = len(shapes) > 1
    outputs = []
    for k, (s, t) in enumerate(zip(shapes, dtypes)):
        out_name = f"{name}.v{k}" if multi else name
        outputs.append((out_name, s, t, k, f"{name}_v{k}" if multi else name))
    # The output tensors own the buffers fcompute writes, so they are made first.
    tensors = [Tensor(n, s, t, None, k, buffer_name=b) for n, s, t, k, b in outputs]
    ins = [t.buffer for t in inputs]
    outs = [t.buffer for t in tensors]
    body = fcompute(ins, outs)
    if not isinstance(body, Stmt):
        try:
            body = Evaluate(E.convert(body))
        except TypeError:
            raise TypeError(
                f"{who}: fcompute must return a statement or an expression, got "
                f"{type(body).__name__}"
            ) from None
    op = ExternOp(name, tag, attrs, inputs, ins, outs, body)
    for t in tensors:
        object.__setattr__(t, "op", op)
    op._fill_late_field("_outputs", tuple(tensors))
    return tensors if multi else tensors[0]
