"""RemoveRedundantReshape: a reshape to the shape its input already has is dropped, and a
reshape of a reshape reshapes the original input directly (relax.transform.
RemoveRedundantReshape); bindings left unread go."""

from __future__ import annotations

from tvm.ir.structural import structural_equal

from .dead_code_elimination import remove_unused_bindings
from .lowering_utils import ValueTrackingRewriter


def _shape_of(expr):
    sinfo = expr.__dict__.get("struct_info_")
    return getattr(sinfo, "shape", None)


def _reparent(inner, target):
    """reshape(inner, target) when target means the same for inner (a 0 or -1 in it is
    resolved against the input, so it must come back unchanged), else None."""
    from .. import op

    try:
        call = op.reshape(inner, target)
    except (TypeError, ValueError):
        return None
    if not structural_equal(call.args[1], target):
        return None
    from ..block_builder import BlockBuilder

    return BlockBuilder().normalize(call)


class _Rewriter(ValueTrackingRewriter):
    # self.values: var -> its (rewritten) value

    def rewrite_binding(self, binding, emit):
        from ..expr import DataflowVar

        value = self.tracked_call(binding, "relax.reshape")
        if value is None:
            emit(binding)
            return
        arg, target = value.args
        if not _is_noop(arg, target):
            inner = self.bound_call(arg, "relax.reshape")
            if inner is not None:
                new = _reparent(inner.args[0], target)
                if new is not None:
                    value, arg = new, inner.args[0]
        if _is_noop(arg, target):
            if isinstance(arg, DataflowVar) and not isinstance(binding.var, DataflowVar):
                value = arg  # an output may not become a dataflow variable: alias it
            else:
                self.var_map[binding.var] = arg
                self.values[binding.var] = self.values.get(arg, arg)
                return
        if value is not binding.value:
            binding = binding.with_fields(value=value)
            self.values[binding.var] = value
        emit(binding)


def _is_noop(arg, target) -> bool:
    shape = _shape_of(arg)
    return shape is not None and structural_equal(shape, target)


def RemoveRedundantReshape():  # noqa: N802  (pass constructors are capitalised)
    """The pass; functions marked "Primitive" are left alone, as upstream."""
    from .transform import function_pass

    @function_pass(opt_level=0, name="RemoveRedundantReshape")
    def remove_redundant_reshape(func, mod, ctx):
        if int((func.attrs or {}).get("Primitive", 0) or 0):
            return func
        new = _Rewriter().rewrite_function(func)
        if new is func:
            return func
        return remove_unused_bindings(new, mod)

    return remove_redundant_reshape
