"""What every converter shares: the node being converted, its attributes, and value helpers."""

from __future__ import annotations

import numpy as np
from tvm import relax
from tvm.error import OpNotImplemented

from ._relax_api import Constant, TensorStructInfo, constant_numpy, is_tensor_info, struct_info, tir

_REQUIRED = object()


def np_dtype_name(elem_type: int) -> str:
    """The TVM dtype string of an ONNX TensorProto element type."""
    import onnx

    try:
        return str(np.dtype(onnx.helper.tensor_dtype_to_np_dtype(elem_type)))
    except (KeyError, TypeError, ValueError):
        return onnx.TensorProto.DataType.Name(elem_type).lower()


def unsupported_dtype(dtype: str, where: str) -> OpNotImplemented:
    return OpNotImplemented(f"from_onnx: {where}: the element type {dtype} is not supported")


def check_dtype(dtype: str, where: str) -> str:
    """dtype itself when this stack's tensors can hold it, else OpNotImplemented."""
    try:
        TensorStructInfo([1], dtype)
    except (ValueError, TypeError):
        raise unsupported_dtype(dtype, where) from None
    return dtype


def const(value, dtype=None):
    array = np.array(value, dtype=dtype, order="C")  # keeps 0-d arrays 0-d
    try:
        return relax.const(array, str(array.dtype))
    except (ValueError, TypeError):
        raise unsupported_dtype(str(array.dtype), "a constant") from None


def shape_of(expr):
    """The shape of a tensor expression: ints where static, PrimExprs where symbolic; None if
    the rank is unknown."""
    sinfo = struct_info(expr)
    if not is_tensor_info(sinfo) or sinfo.shape is None:
        return None
    values = getattr(sinfo.shape, "values", None)
    if values is None:
        return None
    return [int(v) if isinstance(v, tir.IntImm) else v for v in values]


def ndim_of(expr) -> int:
    sinfo = struct_info(expr)
    return int(sinfo.ndim) if is_tensor_info(sinfo) else -1


def dtype_of(expr) -> str:
    return str(struct_info(expr).dtype)


def const_value(expr):
    """The NumPy value of a constant expression, or None for a value only known at run time."""
    if isinstance(expr, Constant):
        return constant_numpy(expr)
    return None


def is_static(shape) -> bool:
    return shape is not None and all(isinstance(d, int) for d in shape)


class NeedsControlFlow(Exception):
    """Raised by a converter that needs a loop or a branch (not allowed in a dataflow block)
    while the graph is built in one: from_onnx builds the graph again without it."""


def require_control_flow(bb: relax.BlockBuilder) -> None:
    if bb.current_block_is_dataflow():
        raise NeedsControlFlow


class Node:
    """One ONNX node while it is converted: its inputs as Relax expressions, its attributes,
    the opset its semantics follow, and the BlockBuilder to emit into."""

    def __init__(self, proto, inputs, opset: int, bb: relax.BlockBuilder):
        import onnx

        self.proto = proto
        self.op_type = proto.op_type
        self.name = proto.name or (proto.output[0] if proto.output else "")
        self.inputs = inputs
        self.opset = opset
        self.bb = bb
        self.num_outputs = len(proto.output)
        self.attrs = {}
        for attr in proto.attribute:
            value = onnx.helper.get_attribute_value(attr)
            if isinstance(value, bytes):
                value = value.decode("utf-8")
            elif isinstance(value, list) and value and isinstance(value[0], bytes):
                value = [v.decode("utf-8") for v in value]
            self.attrs[attr.name] = value
        self._used: set[str] = set()

    def where(self) -> str:
        return f"ONNX node {self.name!r} (op {self.op_type}, opset {self.opset})"

    def unsupported(self, what: str) -> OpNotImplemented:
        return OpNotImplemented(f"from_onnx: {self.where()}: {what} is not supported")

    def attr(self, name: str, default=_REQUIRED):
        self._used.add(name)
        if name in self.attrs:
            return self.attrs[name]
        if default is _REQUIRED:
            raise ValueError(f"from_onnx: {self.where()} needs the attribute {name!r}")
        return default

    def ignore(self, *names: str) -> None:
        """Attributes that do not change inference results (a seed, a training momentum)."""
        self._used.update(names)

    def check_attrs_used(self) -> None:
        unknown = sorted(set(self.attrs) - self._used)
        if unknown:
            raise self.unsupported(f"the attribute(s) {', '.join(unknown)}")

    def input(self, index: int, optional: bool = False):
        if index < len(self.inputs) and self.inputs[index] is not None:
            return self.inputs[index]
        if optional:
            return None
        raise ValueError(f"from_onnx: {self.where()} needs input {index}")

    def const_input(self, index: int, what: str, optional: bool = False):
        """The NumPy value of an operand that must be known at conversion time (a shape, axes)."""
        expr = self.input(index, optional)
        if expr is None:
            return None
        value = const_value(expr)
        if value is None:
            raise self.unsupported(f"a {what} ({self.proto.input[index]!r}) computed at run time")
        return value

    def emit(self, expr):
        if isinstance(expr, Constant):
            return expr
        return self.bb.emit(expr)

    def emit_te(self, fte, *args, **kwargs):
        return self.bb.emit_te(fte, *args, **kwargs)

    def shape(self, expr, what: str = "input"):
        shape = shape_of(expr)
        if shape is None:
            raise self.unsupported(f"an {what} of unknown rank")
        return shape

    def static_shape(self, expr, what: str = "input"):
        shape = self.shape(expr, what)
        if not is_static(shape):
            raise self.unsupported(f"an {what} with symbolic dimensions {shape}")
        return shape


def relax_op(node: Node, path: str):
    """relax.op.<path>, or OpNotImplemented when this Relax build does not have it."""
    fn = relax.op
    for part in path.split("."):
        fn = getattr(fn, part, None)
        if fn is None:
            raise node.unsupported(f"{node.op_type} (relax.op.{path} is missing)")
    return fn


def normalize_axis(node: Node, axis: int, ndim: int) -> int:
    if not -ndim <= axis < max(ndim, 1):
        raise ValueError(f"from_onnx: {node.where()}: axis {axis} out of range for rank {ndim}")
    return axis + ndim if axis < 0 else axis


def tensor_info(shape, dtype) -> TensorStructInfo:
    return TensorStructInfo(shape, dtype)


def symbolic_length(node: Node, count, name: str):
    """A 1-element int64 tensor computed at run time as a Shape of one symbolic dim (named
    name) that te computations can take as their extent."""
    shape = node.emit(relax.op.tensor_to_shape(count))
    return node.bb.match_cast(shape, relax.ShapeStructInfo([tir.Var(name, "int64")]))


class OptionalValue:
    """An ONNX optional whose presence is known at conversion time: value is None when it is
    empty, else a tensor expression or a sequence (a list of them)."""

    def __init__(self, value):
        self.value = value


def as_relax(value):
    """A sequence (a Python list) as a relax.Tuple, recursively; an optional as its content
    (an empty optional has no Relax form); a tensor expression as it is."""
    if isinstance(value, OptionalValue):
        if value.value is None:
            raise OpNotImplemented("from_onnx: an empty optional as a graph or branch output")
        return as_relax(value.value)
    if isinstance(value, list):
        return relax.Tuple([as_relax(v) for v in value])
    return value


def like(template, expr, bb):
    """expr (a Relax value built from as_relax(template)) back in template's form: a tuple
    becomes a list of its items where template is a sequence."""
    if isinstance(template, OptionalValue):
        return OptionalValue(like(template.value, expr, bb))
    if isinstance(template, list):
        return [
            like(item, bb.emit(relax.TupleGetItem(expr, k)), bb) for k, item in enumerate(template)
        ]
    return expr


# float16 and bfloat16 kernels round after every operation, so a dot product or a sum rounded
# at each partial result drifts a few ULPs from the reference; NumPy (the ONNX reference) and
# onnxruntime accumulate these types in float32 and round once.
NARROW_FLOATS = ("float16", "bfloat16")


def _tensor_dtype(value) -> str | None:
    """The dtype of a tensor expression; None for anything else (a sequence, None, a tuple)."""
    if not isinstance(value, relax.Expr):
        return None
    try:
        sinfo = struct_info(value)
    except (AttributeError, ValueError):
        return None
    return str(sinfo.dtype) if is_tensor_info(sinfo) else None


def _is_narrow_float(expr) -> bool:
    return _tensor_dtype(expr) in NARROW_FLOATS


def accumulate_in_float32(convert):
    """A converter whose op accumulates (MatMul, Conv, Softmax, ReduceSum...) made to compute
    float16/bfloat16 inputs in float32 and round its float32 results back once."""
    from functools import wraps

    from tvm.relax import op as R

    @wraps(convert)
    def wrapper(node: Node):
        narrow = {dtype_of(x) for x in node.inputs if _is_narrow_float(x)}
        if len(narrow) != 1:
            return convert(node)
        (dtype,) = narrow
        original = node.inputs
        node.inputs = [
            node.emit(R.astype(x, "float32")) if _is_narrow_float(x) else x for x in original
        ]
        try:
            out = convert(node)
        finally:
            node.inputs = original

        def narrow_back(value):
            if isinstance(value, (list, tuple)):
                return type(value)(narrow_back(v) for v in value)
            if _tensor_dtype(value) == "float32":
                return node.emit(R.astype(value, dtype))
            return value

        return narrow_back(out)

    return wrapper
