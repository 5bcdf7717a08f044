"""LambdaLift: every function bound inside a Relax function becomes a private module function
(relax.transform.LambdaLift).

A local function named f inside the module function main becomes `main_f` (made unique). The
variables it captures become extra trailing parameters; where it captures nothing, its calls
call the new function directly, otherwise its binding becomes `relax.make_closure(main_f,
captured)` and its calls `invoke_(pure_)closure`, as apache-tvm does. A call through any other
variable of function type becomes invoke_(pure_)closure too, since the VM runs only those. A
local function calling itself calls the lifted function directly, passing its captures on.
"""

from __future__ import annotations

from tvm.ir.module import GlobalVar, IRModule
from tvm.transform import module_pass

from ..analysis import free_vars, struct_info_base_check
from ..expr import Call, Function, Tuple, Var
from ..expr_functor import ExprMutator
from ..struct_info import FuncStructInfo, ObjectStructInfo


def _sinfo_of(expr):
    return expr.__dict__.get("struct_info_")


class _LambdaLifter(ExprMutator):
    def __init__(self, mod: IRModule):
        super().__init__(mod)
        self.mod = mod
        self.taken = {gv.name_hint for gv in mod.functions}
        self.lifted: dict = {}  # GlobalVar -> Function
        self.global_name = ""
        # local function var -> (GlobalVar, trailing args to pass) for direct calls
        self.direct: dict = {}

    def unique_name(self, base: str) -> str:
        name, i = base, 0
        while name in self.taken:
            name, i = f"{base}_{i}", i + 1
        self.taken.add(name)
        return name

    # -- calls --------------------------------------------------------------------------------
    def visit_Call(self, call):  # noqa: N802  (dispatch names follow the node class)
        op = call.op
        if isinstance(op, Var) and op in self.direct:
            gv, extra = self.direct[op]
            args = [self.visit_expr(a) for a in call.args]
            return Call(gv, [*args, *extra], call.attrs, call.sinfo_args, call.span)
        if isinstance(op, Var):
            return self._invoke(call)
        return super().visit_Call(call)

    def _invoke(self, call):
        """A call through a variable holding a function value: invoke_(pure_)closure."""
        from .. import op as relax_op

        callee = _sinfo_of(call.op)
        closure = self.visit_expr(call.op)
        args = [self.visit_expr(a) for a in call.args]
        if isinstance(callee, FuncStructInfo) and callee.ret is not None:
            ret, pure = callee.ret, callee.purity
        else:
            sinfo = _sinfo_of(call)
            ret, pure = (sinfo if sinfo is not None else ObjectStructInfo()), False
        make = relax_op.invoke_pure_closure if pure else relax_op.invoke_closure
        return make(closure, Tuple(args), sinfo_args=[ret])

    def visit_Var(self, var):  # noqa: N802
        if var in self.direct:
            gv, extra = self.direct[var]
            if not extra:
                return gv
            from .. import op as relax_op

            return self.builder_.emit(relax_op.make_closure(gv, Tuple(list(extra))))
        return super().visit_Var(var)

    # -- local functions ---------------------------------------------------------------------
    def visit_VarBinding(self, binding):  # noqa: N802
        if isinstance(binding.value, Function):
            self._lift(binding.var, binding.value)
            return
        super().visit_VarBinding(binding)

    def _lift(self, var, func):
        from .. import op as relax_op

        gv = GlobalVar(self.unique_name(f"{self.global_name}_{var.name_hint}"))
        # A local function lifted without captures is a module function now, not a capture.
        captured = [
            v
            for v in free_vars(func)
            if v is not var and not (v in self.direct and not self.direct[v][1])
        ]
        outer_values = [self.visit_Var(v) for v in captured]
        cap_params = [Var(v.name_hint, _sinfo_of(o)) for v, o in zip(captured, outer_values)]
        sinfo = _sinfo_of(func)
        gv._fill_late_field(
            "struct_info_",
            FuncStructInfo(
                [*sinfo.params, *(_sinfo_of(p) for p in cap_params)], sinfo.ret, sinfo.purity
            ),
        )
        saved_remap, saved_direct = dict(self.var_remap_), dict(self.direct)
        try:
            for v, p in zip(captured, cap_params):
                self.var_remap_[v] = p
                self.direct.pop(v, None)
            self.direct[var] = (gv, tuple(cap_params))
            lifted = self._lifted_function(func, cap_params)
        finally:
            self.var_remap_, self.direct = saved_remap, saved_direct
        self.lifted[gv] = lifted
        if not captured:
            self.direct[var] = (gv, ())
            return
        closure = self.builder_.emit(relax_op.make_closure(gv, Tuple(outer_values)), var.name_hint)
        self.var_remap_[var] = closure

    def _lifted_function(self, func, cap_params):
        new = self.visit_Function(func)
        attrs = {k: v for k, v in new.attrs.items() if k != "global_symbol"}
        return Function(
            [*new.params, *cap_params], new.body, new.ret_struct_info, new.is_pure, attrs, func.span
        )

    def visit_Function(self, func):  # noqa: N802
        new = super().visit_Function(func)
        if new is func:
            return func
        body_sinfo = _sinfo_of(new.body)
        if body_sinfo is not None and not struct_info_base_check(new.ret_struct_info, body_sinfo):
            # a returned local function is a closure object now
            return Function(new.params, new.body, body_sinfo, new.is_pure, new.attrs, new.span)
        return new

    # -- the module ----------------------------------------------------------------------------
    def run(self) -> IRModule:
        changed = {}
        for gv, func in list(self.mod.functions.items()):
            if not isinstance(func, Function):
                continue
            self.global_name = gv.name_hint
            self.direct, self.var_remap_ = {}, {}
            new = self.visit_expr(func)
            if new is not func:
                changed[gv] = new
        if not changed and not self.lifted:
            return self.mod
        functions = {**dict(self.mod.functions.items()), **changed, **self.lifted}
        return self.mod._with_functions(functions)


def LambdaLift():  # noqa: N802
    """Lift local functions to private module functions (relax.transform.LambdaLift)."""

    @module_pass(opt_level=0, name="LambdaLift")
    def lambda_lift(mod, ctx):
        return _LambdaLifter(mod).run()

    return lambda_lift
