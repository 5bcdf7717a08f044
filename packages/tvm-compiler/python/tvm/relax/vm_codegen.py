"""CodeGenVM: lowered Relax functions -> relax.ExecBuilder instructions (one VM function per
Relax function; registers for bindings, constants in the pool, If as If/Goto)."""

from __future__ import annotations

from tvm.ir.module import GlobalVar, IRModule
from tvm.ir.op import Op


class CodegenError(ValueError):
    """A construct the VM code generator cannot emit (the lowering pipeline did not run)."""


def _is_register(builder, arg) -> bool:
    from tvm.runtime.vm.bytecode import ArgKind, SpecialReg, decode_arg

    if arg in (SpecialReg.VOID_ARG, SpecialReg.VM_STATE):
        return False
    return decode_arg(arg)[0] == ArgKind.Register


class _FunctionCodegen:
    def __init__(self, builder, mod: IRModule, func_name: str):
        self.builder = builder
        self.mod = mod
        self.func_name = func_name
        self.arg_of: dict = {}  # relax Var -> bytecode argument (register, constant, imm)
        self.num_regs = 0
        self.void_value = None
        self.used: set = set()

    def new_register(self) -> int:
        reg = self.builder.r(self.num_regs)
        self.num_regs += 1
        return reg

    def run(self, func) -> None:
        b = self.builder
        names = [p.name_hint for p in func.params]
        with b.function(self.func_name, num_inputs=len(func.params), param_names=names):
            for param in func.params:
                self.arg_of[param] = self.new_register()
            from tvm.relax.transform.lowering_utils import free_relax_uses

            self.used = set(free_relax_uses(func.body))
            result = self.visit(func.body)
            b.emit_ret(self.as_register(result))

    def as_register(self, arg) -> int:
        if _is_register(self.builder, arg):
            return arg
        reg = self.new_register()
        self.builder.emit_call("vm.builtin.copy", [arg], reg)
        return reg

    # -- expressions ------------------------------------------------------------------------
    def visit(self, expr):
        from tvm.relax import expr as rx

        if isinstance(expr, rx.SeqExpr):
            for block in expr.blocks:
                for binding in block.bindings:
                    discarded = self._is_discarded(binding.var)
                    self.void_value = binding.value if discarded else None
                    self.arg_of[binding.var] = self.visit(binding.value)
            return self.visit(expr.body)
        if isinstance(expr, rx.Var):
            arg = self.arg_of.get(expr)
            if arg is None:
                raise CodegenError(
                    f"CodeGenVM: {self.func_name}: variable {expr.name_hint!r} is used before it "
                    "is bound"
                )
            return arg
        if isinstance(expr, rx.Call):
            return self.visit_call(expr)
        if isinstance(expr, rx.If):
            return self.visit_if(expr)
        if isinstance(expr, rx.Constant):
            return self.builder.convert_constant(expr.data)
        if isinstance(expr, rx.PrimValue):
            return self.prim_arg(expr)
        if isinstance(expr, rx.ShapeExpr):
            return self.shape_arg(expr)
        if isinstance(expr, rx.StringImm):
            return self.builder.convert_constant(expr.value)
        if isinstance(expr, rx.DataTypeImm):
            import tvm_ffi

            return self.builder.convert_constant(tvm_ffi.dtype(expr.value))
        if isinstance(expr, rx.Tuple):
            args = [self.visit(f) for f in expr.fields]
            return self.call_into("vm.builtin.make_tuple", args)
        if isinstance(expr, rx.TupleGetItem):
            tup = self.visit(expr.tuple_value)
            return self.call_into("vm.builtin.tuple_getitem", [tup, self.builder.imm(expr.index)])
        if isinstance(expr, GlobalVar):
            return self.builder.f(self._declare(expr))
        if isinstance(expr, rx.ExternFunc):
            self.builder.declare_function(expr.global_symbol)
            return self.builder.f(expr.global_symbol)
        raise CodegenError(
            f"CodeGenVM: {self.func_name}: cannot emit a {type(expr).__name__} (run the lowering "
            "pipeline, relax.get_pipeline('default'), first)"
        )

    def prim_arg(self, pv):
        from tvm.runtime.vm.bytecode import IMM_MAX, IMM_MIN
        from tvm.tir.expr import FloatImm, IntImm

        value = pv.value
        if isinstance(value, IntImm):
            if str(value.dtype) == "bool":
                return self.builder.convert_constant(bool(value.value))
            if not IMM_MIN <= value.value <= IMM_MAX:
                # Past the 56-bit immediates (a huge static dim): the constant pool, as upstream.
                return self.builder.convert_constant(int(value.value))
            return self.builder.imm(value.value)
        if isinstance(value, FloatImm):
            return self.builder.convert_constant(float(value.value))
        raise CodegenError(
            f"CodeGenVM: {self.func_name}: the PrimValue {value} is symbolic (run VMShapeLower)"
        )

    def shape_arg(self, shape):
        import tvm_ffi
        from tvm.tir.expr import IntImm

        dims = []
        for v in shape.values:
            if not isinstance(v, IntImm):
                raise CodegenError(
                    f"CodeGenVM: {self.func_name}: the shape {list(shape.values)} is symbolic "
                    "(run VMShapeLower)"
                )
            dims.append(int(v.value))
        return self.builder.convert_constant(tvm_ffi.Shape(dims))

    def _is_discarded(self, var) -> bool:
        """A binding nobody reads that returns nothing (a kernel call, a check) writes into
        the void register, as upstream's bytecode does."""
        from tvm.relax.struct_info import TupleStructInfo

        sinfo = var.__dict__.get("struct_info_")
        return isinstance(sinfo, TupleStructInfo) and not sinfo.fields and var not in self.used

    def call_into(self, name, args, dst=None, expr=None):
        if dst is None:
            discard = expr is not None and expr is self.void_value
            dst = self.builder.void_arg() if discard else self.new_register()
        self.builder.emit_call(name, args, dst)
        return dst

    def _declare(self, gv: GlobalVar) -> str:
        from tvm.relax.expr import Function
        from tvm.runtime.vm import VMFuncKind

        func = self.mod[gv] if gv in self.mod else None
        name = gv.name_hint
        if isinstance(func, Function):
            self.builder.declare_function(name, VMFuncKind.VM_FUNC)
        else:
            self.builder.declare_function(name)
        return name

    def visit_call(self, call):
        from tvm.relax import expr as rx

        b = self.builder
        op = call.op
        if isinstance(op, Op):
            return self.visit_op_call(call)
        args = [self.visit(a) for a in call.args]
        if isinstance(op, GlobalVar):
            return self.call_into(self._declare(op), args, expr=call)
        if isinstance(op, rx.ExternFunc):
            return self.call_into(op.global_symbol, args, expr=call)
        closure = self.visit(op)  # a closure value held in a register
        return self.call_into(
            "vm.builtin.invoke_closure", [b.vm_state(), closure, *args], expr=call
        )

    def visit_op_call(self, call):
        from tvm.relax import expr as rx

        b = self.builder
        name = call.op.name
        if name in ("relax.call_packed", "relax.call_pure_packed"):
            func = call.args[0]
            symbol = func.global_symbol if isinstance(func, rx.ExternFunc) else str(func)
            return self.call_into(symbol, [self.visit(a) for a in call.args[1:]], expr=call)
        if name == "relax.call_builtin_with_ctx":
            func, packed = call.args
            fields = packed.fields if isinstance(packed, rx.Tuple) else [packed]
            args = [b.vm_state(), *[self.visit(a) for a in fields]]
            return self.call_into(func.global_symbol, args, expr=call)
        if name == "relax.vm.alloc_storage":
            size, device_index, dtype, scope = (self.visit(a) for a in call.args[:4])
            return self.call_into(
                "vm.builtin.alloc_storage",
                [b.vm_state(), size, device_index, dtype, scope],
                expr=call,
            )
        if name == "relax.vm.alloc_tensor":
            args = [self.visit(a) for a in call.args[:4]]
            return self.call_into("vm.builtin.alloc_tensor", args, expr=call)
        if name == "relax.vm.kill_object":
            target = self.visit(call.args[0])
            if _is_register(b, target):
                b.emit_call("vm.builtin.null_value", [], target)
            return b.void_arg()
        if name == "relax.null_value":
            return self.call_into("vm.builtin.null_value", [], expr=call)
        if name == "relax.vm.call_tir_dyn":
            func, packed = call.args
            fields = list(packed.fields)
            args = [self.visit(a) for a in fields]
            return self.call_into("vm.builtin.call_tir_dyn", [self.visit(func), *args], expr=call)
        if call.op.get_attr("FLegalize") is not None:
            # LegalizeOps ran but left the call: a shape it needs is known only at run time.
            raise CodegenError(
                f"CodeGenVM: {self.func_name}: the op {name!r} was not legalised because a shape "
                f"it needs is not known at compile time (its result is {call.struct_info}, its "
                f"arguments {[str(a.struct_info) for a in call.args]}); bind such shapes to "
                "symbolic variables with R.match_cast first"
            )
        raise CodegenError(
            f"CodeGenVM: {self.func_name}: the op {name!r} has no VM lowering (run "
            "relax.get_pipeline('default') first: LegalizeOps turns ops into call_tir)"
        )

    def visit_if(self, node):
        b = self.builder
        cond = self.visit(node.cond)
        flag = self.call_into("vm.builtin.read_if_cond", [cond])
        merge = self.new_register()
        if_index = len(b._instructions)
        b.emit_if(flag, 0)
        then = self.visit(node.true_branch)
        b.emit_call("vm.builtin.copy", [then], merge)
        goto_index = len(b._instructions)
        b.emit_goto(0)
        else_start = len(b._instructions)
        other = self.visit(node.false_branch)
        b.emit_call("vm.builtin.copy", [other], merge)
        end = len(b._instructions)
        # The jumps are relative and known only once both branches are emitted.
        b._instructions[if_index].offset = else_start - if_index
        b._instructions[goto_index].offset = end - goto_index
        return merge


def codegen(builder, mod: IRModule) -> IRModule:
    """Emit every Relax function of mod into builder; return the module of what is left (the
    PrimFuncs and other functions the kernels' library provides)."""
    from tvm.relax.expr import Function
    from tvm.runtime.vm import VMFuncKind

    relax_funcs = [(gv, f) for gv, f in mod.functions.items() if isinstance(f, Function)]
    for gv, _ in relax_funcs:
        builder.declare_function(gv.name_hint, VMFuncKind.VM_FUNC)
    for gv, func in relax_funcs:
        _FunctionCodegen(builder, mod, gv.name_hint).run(func)
    return IRModule({gv: f for gv, f in mod.functions.items() if not isinstance(f, Function)})
