"""ToNonDataflow: dataflow blocks become plain binding blocks and DataflowVars become Vars, so
the later passes (which emit impure calls) see one kind of block."""

from __future__ import annotations

from .lowering_utils import BindingRewriter, relax_function_pass


class _ToNonDataflow(BindingRewriter):
    def rewrite_block(self, block):
        from tvm.relax.expr import BindingBlock, DataflowBlock, DataflowVar, Var

        if isinstance(block, DataflowBlock):
            for binding in block.bindings:
                var = binding.var
                if isinstance(var, DataflowVar):
                    self.var_map[var] = Var(var.name_hint, var.struct_info)
        new = super().rewrite_block(block)
        if isinstance(new, DataflowBlock):
            return BindingBlock(new.bindings)
        return new


def ToNonDataflow():  # noqa: N802  (pass constructors are capitalised, as upstream)
    """Turn every dataflow block into a binding block (relax.transform.ToNonDataflow)."""

    @relax_function_pass("ToNonDataflow")
    def to_non_dataflow(func, mod, ctx):
        return _ToNonDataflow().rewrite_function(func)

    return to_non_dataflow
