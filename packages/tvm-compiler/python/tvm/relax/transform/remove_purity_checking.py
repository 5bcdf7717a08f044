"""RemovePurityChecking: pure functions are marked relax.force_pure and the purity wrappers
(call_pure_packed, invoke_pure_closure) become the plain calls they wrap, as the VM needs."""

from __future__ import annotations

from .lowering_utils import BindingRewriter, call, is_op_call, relax_function_pass

_UNWRAP = {
    "relax.call_pure_packed": "relax.call_packed",
    "relax.invoke_pure_closure": "relax.invoke_closure",
    "relax.call_inplace_packed": "relax.call_packed",
}


class _RemovePurity(BindingRewriter):
    def rewrite_function(self, func):
        new = super().rewrite_function(func)
        if new.is_pure and not new.attrs.get("relax.force_pure", False):
            new = new.with_attr("relax.force_pure", True)
        return new

    def rewrite_binding(self, binding, emit):
        value = binding.value
        for name, plain in _UNWRAP.items():
            if is_op_call(value, name):
                new_value = call(plain, value.args, value.struct_info, value.sinfo_args)
                emit(binding.with_fields(value=new_value))
                return
        emit(binding)


def RemovePurityChecking():  # noqa: N802
    """Mark pure functions relax.force_pure and unwrap the purity wrappers."""

    @relax_function_pass("RemovePurityChecking")
    def remove_purity_checking(func, mod, ctx):
        return _RemovePurity().rewrite_function(func)

    return remove_purity_checking
