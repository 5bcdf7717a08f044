"""The converter of ONNX If: both branch graphs become the SeqExpr branches of a relax.If on
the scalar bool condition (a sequence output is a tuple, unpacked after it); a condition known
at conversion time picks its branch."""

from __future__ import annotations

from tvm import relax
from tvm.error import OpNotImplemented
from tvm.relax import op as R

from .common import Node, OptionalValue, const_value, like, ndim_of
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
    then_forms, else_forms = [], []
    try:
        then_seq = importer.convert_subgraph(then_graph, node.opset, node.bb, then_forms)
        else_seq = importer.convert_subgraph(else_graph, node.opset, node.bb, else_forms)
    except OpNotImplemented as err:
        if "an empty optional" not in str(err):
            raise
        raise node.unsupported(
            "an If on a run-time condition with a branch giving an empty optional (its presence "
            "would be known only at run time)"
        ) from None
    if not all(_same_form(a, b) for a, b in zip(then_forms, else_forms)):
        raise node.unsupported(
            "an If whose branches give sequences of different lengths or optionals of different "
            "presence"
        )
    if ndim_of(cond) != 0:  # ONNX allows a one-element tensor
        cond = node.emit(R.reshape(cond, []))
    out = node.emit(relax.If(cond, then_seq, else_seq))
    if len(then_forms) == 1:
        return [like(then_forms[0], out, node.bb)]
    return [
        like(form, node.emit(relax.TupleGetItem(out, i)), node.bb)
        for i, form in enumerate(then_forms)
    ]


def _same_form(a, b) -> bool:
    """Whether two branch outputs have one Relax form: tensors, sequences of one length (of
    such items), or optionals both empty or both holding such values."""
    if isinstance(a, OptionalValue) or isinstance(b, OptionalValue):
        if not (isinstance(a, OptionalValue) and isinstance(b, OptionalValue)):
            return False
        if a.value is None or b.value is None:
            return a.value is None and b.value is None
        return _same_form(a.value, b.value)
    if isinstance(a, list) or isinstance(b, list):
        return (
            isinstance(a, list)
            and isinstance(b, list)
            and len(a) == len(b)
            and all(_same_form(x, y) for x, y in zip(a, b))
        )
    return True
