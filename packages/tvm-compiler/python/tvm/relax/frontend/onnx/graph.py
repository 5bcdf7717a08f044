"""The graph walker: an ONNX ModelProto's inputs, initializers and nodes become one Relax
function "main" built with the BlockBuilder."""

from __future__ import annotations

import contextlib
import re

import numpy as np
import tvm
from tvm import relax
from tvm.error import OpNotImplemented

from . import registry
from ._relax_api import TensorStructInfo, TupleStructInfo, tir
from .common import (
    NeedsControlFlow,
    Node,
    OptionalValue,
    as_relax,
    check_dtype,
    const,
    np_dtype_name,
)

_DEFAULT_DOMAINS = ("", "ai.onnx")
_CONTROL_FLOW = ("If", "Loop")
# The ops that take sequences (Python lists of Relax values) or optionals as inputs.
_SEQUENCE_AWARE = {
    "Identity",
    "Loop",
    "SequenceInsert",
    "SequenceAt",
    "SequenceErase",
    "SequenceLength",
    "ConcatFromSequence",
    "SequenceMap",
    "Optional",
    "OptionalHasElement",
    "OptionalGetElement",
}


def _sanitize(name: str) -> str:
    """A name usable as a Relax variable: letters, digits and underscores, not digit-first."""
    clean = re.sub(r"\W", "_", name)
    return f"v_{clean}" if not clean or clean[0].isdigit() else clean


def _has_control_flow(graph) -> bool:
    """Whether graph or a subgraph of it (a SequenceMap body, say) has an If or a Loop."""
    return any(
        node.op_type in _CONTROL_FLOW
        or any(attr.HasField("g") and _has_control_flow(attr.g) for attr in node.attribute)
        for node in graph.node
    )


class GraphImporter:
    """Converts one ONNX graph; the options are from_onnx's."""

    def __init__(self, shape_dict, dtype_dict, opset, keep_params_in_input, sanitize_input_names):
        self.shape_dict = dict(shape_dict or {})
        self.dtype_dict = dtype_dict
        self.opset = opset
        self.keep_params_in_input = keep_params_in_input
        self.sanitize = sanitize_input_names
        self.sym_dims: dict[str, tir.Var] = {}
        self.values: dict[str, relax.Expr | None] = {"": None}

    def _model_opset(self, model) -> int:
        versions = [o.version for o in model.opset_import if o.domain in _DEFAULT_DOMAINS]
        return int(self.opset) if self.opset is not None else max(versions, default=1)

    def _check_supported(self, graph, opset: int) -> None:
        """Every node's op must have a converter: refuse the model before building anything."""
        for node in graph.node:
            label = f"ONNX node {node.name or node.output[0]!r} (op {node.op_type}"
            if node.domain not in _DEFAULT_DOMAINS:
                raise OpNotImplemented(
                    f"from_onnx: {label}, domain {node.domain!r}): only the standard ONNX "
                    "domain is supported"
                )
            if registry.lookup(node.op_type, opset) is None:
                raise OpNotImplemented(
                    f"from_onnx: {label}, opset {opset}): the op {node.op_type} is not supported "
                    f"at opset {opset}"
                )
            for attr in node.attribute:
                if attr.HasField("g"):  # an If / Loop body: its nodes must convert too
                    self._check_supported(attr.g, opset)

    def _dim(self, input_name: str, index: int, dim):
        if isinstance(dim, (int, np.integer)) and dim >= 0:
            return int(dim)
        if isinstance(dim, str):
            return self.sym_dims.setdefault(dim, tir.Var(_sanitize(dim), "int64"))
        if isinstance(dim, tir.PrimExpr):
            return dim
        return tir.Var(_sanitize(f"{input_name}_dim{index}"), "int64")

    def _sequence_var(self, value_info) -> relax.Var:
        """A sequence graph input: a tuple parameter, its element shapes from shape_dict."""
        name = value_info.name
        elem = value_info.type.sequence_type.elem_type
        if elem.WhichOneof("value") != "tensor_type":
            raise OpNotImplemented(
                f"from_onnx: graph input {name!r} is a sequence of {elem.WhichOneof('value')}; "
                "only sequences of tensors are supported"
            )
        shapes = self.shape_dict.get(name)
        if shapes is None:
            raise OpNotImplemented(
                f"from_onnx: graph input {name!r} is a sequence of unknown length; give its "
                "element shapes in shape_dict (a list of shapes, one per element)"
            )
        if not isinstance(shapes, (list, tuple)) or not all(
            isinstance(s, (list, tuple)) for s in shapes
        ):
            raise ValueError(
                f"from_onnx: shape_dict[{name!r}] must be a list of shapes (one per element of "
                f"the sequence input), got {shapes!r}"
            )
        dtype = check_dtype(np_dtype_name(elem.tensor_type.elem_type), f"graph input {name!r}")
        fields = [
            TensorStructInfo([self._dim(f"{name}_{k}", i, d) for i, d in enumerate(s)], dtype)
            for k, s in enumerate(shapes)
        ]
        var_name = _sanitize(name) if self.sanitize else name
        return relax.Var(var_name, TupleStructInfo(fields))

    def _input_var(self, value_info) -> relax.Var:
        name = value_info.name
        ttype = value_info.type
        if ttype.WhichOneof("value") == "sequence_type":
            return self._sequence_var(value_info)
        if ttype.WhichOneof("value") != "tensor_type":
            raise OpNotImplemented(
                f"from_onnx: graph input {name!r} is a {ttype.WhichOneof('value')}; only tensor "
                "and sequence inputs are supported (an optional's presence is not known at "
                "conversion time)"
            )
        dtype = np_dtype_name(ttype.tensor_type.elem_type)
        check_dtype(dtype, f"graph input {name!r}")
        if isinstance(self.dtype_dict, str):
            dtype = self.dtype_dict
        elif self.dtype_dict and name in self.dtype_dict:
            dtype = str(self.dtype_dict[name])
        if name in self.shape_dict:
            dims = list(self.shape_dict[name])
        elif ttype.tensor_type.HasField("shape"):
            dims = [
                d.dim_value if d.HasField("dim_value") else (d.dim_param or None)
                for d in ttype.tensor_type.shape.dim
            ]
        else:
            var_name = _sanitize(name) if self.sanitize else name
            return relax.Var(var_name, TensorStructInfo(dtype=dtype, ndim=-1))
        shape = [self._dim(name, i, d) for i, d in enumerate(dims)]
        var_name = _sanitize(name) if self.sanitize else name
        return relax.Var(var_name, TensorStructInfo(shape, dtype))

    def _convert_node(self, proto, opset: int, bb) -> None:
        inputs = []
        for name in proto.input:
            if name not in self.values:
                raise ValueError(
                    f"from_onnx: ONNX node {proto.name!r} reads {name!r}, never defined"
                )
            inputs.append(self.values[name])
        node = Node(proto, inputs, opset, bb)
        if proto.op_type not in _SEQUENCE_AWARE:
            for name, value in zip(proto.input, inputs):
                if isinstance(value, (list, OptionalValue)):
                    kind = "sequence" if isinstance(value, list) else "optional"
                    raise node.unsupported(f"the {kind} input {name!r}")
        node.importer = self
        fn = registry.lookup(proto.op_type, opset)
        try:
            outputs = fn(node)
            node.check_attrs_used()
        except OpNotImplemented:
            raise
        except AttributeError as err:
            owner = getattr(getattr(err, "obj", None), "__name__", "")
            if owner.startswith("tvm.relax.op"):  # an op this Relax build does not have yet
                raise node.unsupported(f"{proto.op_type} ({owner}.{err.name} is missing)") from err
            raise type(err)(f"from_onnx: {node.where()}: {err}") from err
        except (TypeError, ValueError, IndexError) as err:
            if str(err).startswith("from_onnx:"):
                raise
            raise type(err)(f"from_onnx: {node.where()}: {err}") from err
        if not isinstance(outputs, (list, tuple)):
            outputs = [outputs]
        for name, value in zip(proto.output, outputs):
            if name:
                self.values[name] = value
        for name in proto.output[len(outputs) :]:
            if name:
                raise node.unsupported(f"the optional output {name!r}")

    def convert_subgraph(self, graph, opset: int, bb, forms=None):
        """The SeqExpr computing graph's outputs (a Tuple of them when several) in a scope of
        its own; the graph reads the enclosing graphs' values by name. A sequence output is a
        Tuple; forms, a list, receives the outputs as the importer holds them."""
        import onnx.numpy_helper

        saved_values = dict(self.values)
        saved_scope = bb._begin_scope()
        try:
            bb._begin_frame(False)
            for init in graph.initializer:
                self.values[init.name] = const(onnx.numpy_helper.to_array(init))
            for proto in graph.node:
                self._convert_node(proto, opset, bb)
            outs = [self.values.get(vi.name) for vi in graph.output]
            if any(out is None for out in outs):
                raise ValueError("from_onnx: a subgraph output is never computed")
            if forms is not None:
                forms.extend(outs)
            outs = [as_relax(out) for out in outs]
            result = outs[0] if len(outs) == 1 else relax.Tuple(outs)
            result = bb.normalize(result)
            bb._end_frame()
            blocks = bb._blocks
        finally:
            bb._end_scope(saved_scope)
            self.values = saved_values
        return relax.SeqExpr(blocks, result)

    def inline_subgraph(self, graph, opset: int, bb) -> list:
        """graph's nodes converted into the current block (an If whose condition is a
        constant); its output values, in order."""
        import onnx.numpy_helper

        for init in graph.initializer:
            self.values[init.name] = const(onnx.numpy_helper.to_array(init))
        for proto in graph.node:
            self._convert_node(proto, opset, bb)
        return [self.values.get(vi.name) for vi in graph.output]

    def import_model(self, model) -> tvm.IRModule:
        import onnx.numpy_helper

        graph = model.graph
        opset = self._model_opset(model)
        self._check_supported(graph, opset)
        initializers = {t.name: onnx.numpy_helper.to_array(t) for t in graph.initializer}
        params = [self._input_var(vi) for vi in graph.input if vi.name not in initializers]
        for vi, var in zip((vi for vi in graph.input if vi.name not in initializers), params):
            self.values[vi.name] = var
        num_input = len(params)
        param_values = []
        for name, array in initializers.items():
            if self.keep_params_in_input:
                var_name = _sanitize(name) if self.sanitize else name
                dtype = check_dtype(str(array.dtype), f"initializer {name!r}")
                var = relax.Var(var_name, TensorStructInfo(list(array.shape), dtype))
                params.append(var)
                # a writable copy: tvm.runtime.tensor refuses read-only arrays (to_array's are)
                param_values.append(tvm.runtime.tensor(np.array(array, order="C")))
                self.values[name] = var
            else:
                self.values[name] = const(array)
        attrs = {"num_input": num_input}
        if self.keep_params_in_input:
            attrs["params"] = param_values
        # control flow (an If) cannot sit in a dataflow block: such graphs get a plain one,
        # and so does a graph whose converter finds it needs a loop (an RNN over a symbolic
        # length): it is built again without the dataflow block
        control = _has_control_flow(graph)
        start_values = dict(self.values)
        try:
            return self._build(graph, opset, params, num_input, attrs, control)
        except NeedsControlFlow:
            if control:
                raise
        self.values = start_values
        return self._build(graph, opset, params, num_input, attrs, True)

    def _build(self, graph, opset, params, num_input, attrs, control) -> tvm.IRModule:
        bb = relax.BlockBuilder()
        with bb.function("main", params, attrs=attrs):
            with contextlib.nullcontext() if control else bb.dataflow():
                for var in params[:num_input]:  # a sequence input: a list of its items
                    if isinstance(var.struct_info, TupleStructInfo):
                        count = len(var.struct_info.fields)
                        items = [bb.emit(relax.TupleGetItem(var, k)) for k in range(count)]
                        name = next(n for n, v in self.values.items() if v is var)
                        self.values[name] = items
                for proto in graph.node:
                    self._convert_node(proto, opset, bb)
                outs = []
                for vi in graph.output:
                    if vi.name not in self.values or self.values[vi.name] is None:
                        raise ValueError(f"from_onnx: graph output {vi.name!r} is never computed")
                    outs.append(as_relax(self.values[vi.name]))
                result = outs[0] if len(outs) == 1 else relax.Tuple(outs)
                result = bb.emit(result) if control else bb.emit_output(result)
            bb.emit_func_output(result)
        return bb.get()


def from_onnx(
    model,
    shape_dict=None,
    dtype_dict=None,
    opset=None,
    keep_params_in_input=False,
    sanitize_input_names=True,
) -> tvm.IRModule:
    """Convert an ONNX model to a Relax IRModule whose "main" takes the graph inputs.

    shape_dict / dtype_dict override input shapes / dtypes (dtype_dict may be one dtype for all);
    opset overrides the model's opset import; with keep_params_in_input the initializers are
    parameters after the inputs (their values in the function's "params" attribute) instead of
    constants; sanitize_input_names makes input names valid identifiers.
    """
    import onnx

    if not isinstance(model, onnx.ModelProto):
        raise TypeError(f"from_onnx: model must be an onnx.ModelProto, got {type(model).__name__}")
    try:
        onnx.checker.check_model(model)
    except onnx.checker.ValidationError as err:
        raise ValueError(f"from_onnx: the model fails onnx.checker: {err}") from None
    importer = GraphImporter(
        shape_dict, dtype_dict, opset, keep_params_in_input, sanitize_input_names
    )
    return importer.import_model(model)
