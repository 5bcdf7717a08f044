"""The converter of ONNX If: both branch graphs become the SeqExpr branches of a relax.If on
the scalar bool condition; a condition known at conversion time picks its branch."""

from __future__ import annotations

from tvm import relax
from tvm.relax import op as R

from ._relax_api import is_tuple_info, struct_info
from .common import Node, const_value, ndim_of
from .registry import converter


@converter("If", since=1)
def _if(node: Node):
    cond = node.input(0)
    then_graph, else_graph = node.attr("then_branch"), node.attr("else_branch")
    importer = node.importer
    known = const_value(cond)
    if known is not None:  # a condition known now (often one computed from static shapes)
        chosen = then_graph if bool(known.reshape(-1)[0]) else else_graph
        return importer.inline_subgraph(chosen, node.opset, node.bb)
    then_seq = importer.convert_subgraph(then_graph, node.opset, node.bb)
    else_seq = importer.convert_subgraph(else_graph, node.opset, node.bb)
    if ndim_of(cond) != 0:  # ONNX allows a one-element tensor
        cond = node.emit(R.reshape(cond, []))
    out = node.emit(relax.If(cond, then_seq, else_seq))
    if node.num_outputs == 1 and not is_tuple_info(struct_info(out)):
        return out
    return [node.emit(relax.TupleGetItem(out, i)) for i in range(node.num_outputs)]
