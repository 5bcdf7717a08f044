"""LowerRuntimeBuiltin: the memory, closure and shape ops become the VM's own ops and builtin
calls (relax.vm.alloc_storage, vm.builtin.make_closure, relax.run.assert_op, ...)."""

from __future__ import annotations

from .lowering_utils import (
    BindingRewriter,
    call,
    call_packed,
    dtype_imm,
    relax_function_pass,
    string,
    void_sinfo,
)


def _with_ctx(name, args, sinfo):
    from tvm.relax.expr import ExternFunc, Tuple

    return call(
        "relax.call_builtin_with_ctx", [ExternFunc(name), Tuple(list(args))], sinfo, [sinfo]
    )


def _lower(value):
    from tvm.ir.op import Op
    from tvm.relax.expr import Call, Tuple

    if not isinstance(value, Call) or not isinstance(value.op, Op):
        return None
    name = value.op.name
    args = list(value.args)
    sinfo = value.__dict__.get("struct_info_")
    if name == "relax.memory.alloc_storage":
        size, device_index, scope, _dtype = args[:4]
        return call(
            "relax.vm.alloc_storage", [size, device_index, dtype_imm("uint8"), scope], sinfo
        )
    if name == "relax.memory.alloc_tensor":
        storage, offset, shape, dtype = args[:4]
        return call("relax.vm.alloc_tensor", [storage, offset, shape, dtype], sinfo)
    if name in ("relax.memory.kill_storage", "relax.memory.kill_tensor"):
        return call("relax.vm.kill_object", args[:1], void_sinfo())
    if name == "relax.make_closure":
        func, captured = args
        fields = list(captured.fields) if isinstance(captured, Tuple) else [captured]
        # The VM binds the captured values as the function's last arguments (no VM state).
        return call_packed("vm.builtin.make_closure", [func, *fields], sinfo)
    if name in ("relax.invoke_closure", "relax.invoke_pure_closure"):
        closure, call_args = args
        fields = list(call_args.fields) if isinstance(call_args, Tuple) else [call_args]
        ret = value.sinfo_args[0] if value.sinfo_args else sinfo
        return _with_ctx("vm.builtin.invoke_closure", [closure, *fields], ret)
    if name == "relax.shape_of":
        return call_packed("vm.builtin.shape_of", args, sinfo)
    if name == "relax.reshape":
        # left by RewriteDataflowReshape: a view of the same data, no copy (as upstream)
        return call_packed("vm.builtin.reshape", args, sinfo)
    if name == "relax.tensor_to_shape":
        return call_packed("vm.builtin.tensor_to_shape", args, sinfo)
    if name == "relax.assert_op":
        cond, fmt_args, fmt = _assert_parts(value)
        return call_packed("relax.run.assert_op", [cond, fmt, *fmt_args], void_sinfo())
    if name == "relax.print":
        fmt = _format_of(value)
        return call_packed("relax.run.print", [fmt, *args], void_sinfo())
    return None


def _format_of(value):
    fmt = getattr(value.attrs, "format", None) if value.attrs is not None else None
    if fmt is None and isinstance(value.attrs, dict):
        fmt = value.attrs.get("format")
    return string(fmt if isinstance(fmt, str) else getattr(fmt, "value", "") or "")


def _assert_parts(value):
    """(condition, format arguments, format string) of an assert_op call, whichever way the
    op keeps its format (as an attribute, upstream's, or as a StringImm argument)."""
    from tvm.relax.expr import StringImm, Tuple

    args = list(value.args)
    cond = args[0]
    rest = args[1:]
    fmt = None
    if rest and isinstance(rest[-1], StringImm):
        fmt = rest.pop()
    if fmt is None:
        fmt = _format_of(value)
    fmt_args = []
    for arg in rest:
        fmt_args.extend(arg.fields if isinstance(arg, Tuple) else [arg])
    return cond, fmt_args, fmt


class _LowerRuntimeBuiltin(BindingRewriter):
    def rewrite_binding(self, binding, emit):
        new = _lower(binding.value)
        emit(binding if new is None else binding.with_fields(value=new))


def LowerRuntimeBuiltin():  # noqa: N802
    """Lower memory/closure/shape ops to what the VM runs (relax.transform.LowerRuntimeBuiltin)."""

    @relax_function_pass("LowerRuntimeBuiltin")
    def lower_runtime_builtin(func, mod, ctx):
        return _LowerRuntimeBuiltin().rewrite_function(func)

    return lower_runtime_builtin
