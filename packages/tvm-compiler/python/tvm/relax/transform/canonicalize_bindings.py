"""CanonicalizeBindings: a binding that only renames another variable (y = x) is removed and
its uses refer to x, so later passes see one name per value."""

from __future__ import annotations

from .lowering_utils import BindingRewriter, relax_function_pass


class _Canonicalize(BindingRewriter):
    def rewrite_binding(self, binding, emit):
        from tvm.relax.expr import DataflowVar, Var, VarBinding

        value = binding.value
        var = binding.var
        trivial = (
            isinstance(binding, VarBinding)
            and isinstance(value, Var)
            # A dataflow block's output (a Var) may not become the DataflowVar it names.
            and (isinstance(var, DataflowVar) or not isinstance(value, DataflowVar))
        )
        if trivial:
            self.var_map[var] = value
            return
        emit(binding)

    def rewrite_seq(self, seq):
        new = super().rewrite_seq(seq)
        return new


def canonicalize(func):
    return _Canonicalize().rewrite_function(func)


def CanonicalizeBindings():  # noqa: N802
    """Remove trivial rebindings (relax.transform.CanonicalizeBindings)."""

    @relax_function_pass("CanonicalizeBindings")
    def canonicalize_bindings(func, mod, ctx):
        return canonicalize(func)

    return canonicalize_bindings
