"""CanonicalizeBindings: bindings that only rename a value are removed and their uses refer to
that value, so later passes see one name per value. As upstream's: y = x, z = t[i] of a known
tuple t, and a match_cast to the struct info its value already has are such renamings; and in a
dataflow block, `out = lv` (an output naming a dataflow variable) binds lv's value to out
directly."""

from __future__ import annotations

from .lowering_utils import BindingRewriter, relax_function_pass


def _may_alias(var, value) -> bool:
    # A dataflow block's output (a Var) may not become the DataflowVar it names.
    from tvm.relax.expr import DataflowVar, Var

    return isinstance(value, Var) and (
        isinstance(var, DataflowVar) or not isinstance(value, DataflowVar)
    )


class _Canonicalize(BindingRewriter):
    def __init__(self):
        super().__init__()
        self.tuples: dict = {}  # var -> the Tuple it is bound to

    def _renamed(self, binding):
        """The variable binding's value only renames, else None."""
        from tvm.ir.structural import structural_equal
        from tvm.relax.expr import MatchCast, Tuple, TupleGetItem, VarBinding

        value = binding.value
        if isinstance(binding, MatchCast):
            sinfo = value.__dict__.get("struct_info_")
            return (
                value
                if sinfo is not None and structural_equal(sinfo, binding.struct_info)
                else None
            )
        if not isinstance(binding, VarBinding):
            return None
        if isinstance(value, Tuple):
            self.tuples[binding.var] = value
            return None
        if isinstance(value, TupleGetItem) and value.tuple_value in self.tuples:
            fields = self.tuples[value.tuple_value].fields
            return fields[value.index] if 0 <= value.index < len(fields) else None
        return value

    def rewrite_binding(self, binding, emit):
        from tvm.relax.expr import MatchCast, VarBinding

        target = self._renamed(binding)
        if target is not None and _may_alias(binding.var, target):
            self.var_map[binding.var] = target
            return
        if target is not None and isinstance(binding, MatchCast):
            # a cast that checks nothing is a plain binding (an output naming a dataflow var)
            emit(VarBinding(binding.var, binding.value))
            return
        emit(binding)


def _output_renames(func) -> dict:
    """lv -> out for each `out = lv` in a dataflow block where lv, a DataflowVar bound in that
    block, is what that one output (and no other) names: lv's value may be bound to out."""
    from tvm.relax.analysis.bindings import _bindings
    from tvm.relax.expr import DataflowVar, VarBinding

    bound_in = {}
    for block in _blocks(func):
        for binding in block.bindings:
            bound_in[binding.var] = block
    aliases: dict = {}
    for binding in _bindings(func):
        value, var = binding.value, binding.var
        if (
            isinstance(binding, VarBinding)
            and isinstance(value, DataflowVar)
            and not isinstance(var, DataflowVar)
            and bound_in.get(value) is bound_in.get(var)
        ):
            aliases.setdefault(value, []).append(var)
    return {lv: outs[0] for lv, outs in aliases.items() if len(outs) == 1}


def _blocks(func) -> list:
    from ..expr_functor import ExprVisitor

    found: list = []

    class _Collect(ExprVisitor):
        def visit_binding_block(self, block):
            found.append(block)
            return super().visit_binding_block(block)

    _Collect().visit(func)
    return found


class _BindOutputs(BindingRewriter):
    """Applies _output_renames: lv's binding binds out instead, and `out = out` goes."""

    def __init__(self, renames):
        super().__init__()
        self.var_map = dict(renames)

    def rewrite_binding(self, binding, emit):
        if binding.value is binding.var:
            return
        emit(binding)


def canonicalize(func):
    func = _Canonicalize().rewrite_function(func)
    renames = _output_renames(func)
    return _BindOutputs(renames).rewrite_function(func) if renames else func


def CanonicalizeBindings():  # noqa: N802
    """Remove trivial rebindings (relax.transform.CanonicalizeBindings)."""

    @relax_function_pass("CanonicalizeBindings")
    def canonicalize_bindings(func, mod, ctx):
        return canonicalize(func)

    return canonicalize_bindings
