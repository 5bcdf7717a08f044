"""What the Relax lowering passes share: a binding-list rewriter, typed call construction and
the function-pass decorator that picks out Relax functions."""

from __future__ import annotations

from tvm.ir.op import Op, register_op
from tvm.transform import FunctionPass, PassInfo


def relax_function_pass(name: str, opt_level: int = 0):
    """Decorate fn(func, mod, ctx) -> func as a pass over the module's Relax functions."""

    def wrap(fn):
        from tvm.relax.expr import Function

        return FunctionPass(fn, PassInfo(opt_level, name), Function)

    return wrap


def rewrite_relax_functions(mod, builder, rewrite, only=lambda gv, func: True):
    """Run rewrite(func) on each Relax function of mod that only(gv, func) accepts, storing what
    changed in builder (a BlockBuilder on mod); mod itself when nothing changed."""
    from tvm.relax.expr import Function

    changed = False
    for gv, func in list(mod.functions.items()):
        if not isinstance(func, Function) or not only(gv, func):
            continue
        new = rewrite(func)
        if new is not func:
            builder.update_func(gv, new)
            changed = True
    return builder.get() if changed else mod


def op(name: str) -> Op:
    """The operator called name, registering it when no op family has (lowering-only ops such
    as relax.memory.* and relax.vm.* have no user-facing constructor of their own)."""
    return register_op(name)


def with_sinfo(expr, sinfo):
    """expr with its struct info filled in (lowering builds already-normalised calls)."""
    if expr.__dict__.get("struct_info_") is None and sinfo is not None:
        expr._fill_late_field("struct_info_", sinfo)
    return expr


def call(op_name: str, args, sinfo, sinfo_args=(), attrs=None):
    """A call to a registered (or lowering-only) op, its struct info given."""
    from tvm.relax.expr import Call

    return with_sinfo(Call(op(op_name), list(args), attrs, list(sinfo_args)), sinfo)


def call_packed(name: str, args, sinfo):
    """call_packed of the VM builtin name; sinfo is what it returns (an empty tuple: nothing)."""
    from tvm.relax.expr import ExternFunc

    return call("relax.call_packed", [ExternFunc(name), *args], sinfo, [sinfo])


def void_sinfo():
    from tvm.relax.struct_info import TupleStructInfo

    return TupleStructInfo([])


def object_sinfo():
    from tvm.relax.struct_info import ObjectStructInfo

    return ObjectStructInfo()


def prim(value, dtype="int64"):
    """PrimValue of a Python int / PrimExpr."""
    from tvm.relax.expr import PrimValue
    from tvm.relax.struct_info import PrimStructInfo
    from tvm.tir.expr import IntImm, PrimExpr

    if not isinstance(value, PrimExpr):
        value = IntImm(dtype, int(value))
    return with_sinfo(PrimValue(value), PrimStructInfo(value=value))


def string(value: str):
    from tvm.relax.expr import StringImm
    from tvm.relax.struct_info import ObjectStructInfo

    return with_sinfo(StringImm(value), ObjectStructInfo())


def dtype_imm(dtype):
    from tvm.relax.expr import DataTypeImm
    from tvm.relax.struct_info import ObjectStructInfo

    return with_sinfo(DataTypeImm(str(dtype)), ObjectStructInfo())


def shape_expr(values):
    from tvm.relax.expr import ShapeExpr
    from tvm.relax.struct_info import ShapeStructInfo

    values = [_as_index(v) for v in values]
    return with_sinfo(ShapeExpr(values), ShapeStructInfo(values))


def _as_index(value):
    from tvm.tir.expr import IntImm, PrimExpr

    return value if isinstance(value, PrimExpr) else IntImm("int64", int(value))


def is_op_call(expr, name: str) -> bool:
    from tvm.relax.expr import Call

    return isinstance(expr, Call) and isinstance(expr.op, Op) and expr.op.name == name


def dtype_bytes(dtype) -> int:
    from tvm.ir.dtype import DataType

    dt = DataType(str(dtype))
    return (dt.bits * dt.lanes + 7) // 8


def is_nested_tensor(sinfo) -> bool:
    """A tensor, or a tuple (of tuples) of tensors only."""
    from ..struct_info import TensorStructInfo, TupleStructInfo

    if isinstance(sinfo, TensorStructInfo):
        return True
    if isinstance(sinfo, TupleStructInfo):
        return all(is_nested_tensor(f) for f in sinfo.fields)
    return False


def new_var(name: str, sinfo):
    from tvm.relax.expr import Var

    return Var(name, sinfo)


class BindingRewriter:
    """Walks a Relax function's binding blocks in order (into If branches and inner functions),
    letting a subclass replace each binding by a list of bindings; variables it renames are
    substituted in every later use. Copy-on-write: an untouched function comes back as is."""

    def __init__(self):
        self.var_map: dict = {}

    # -- hooks ------------------------------------------------------------------------------
    def rewrite_binding(self, binding, emit) -> None:
        """Emit the binding's replacement(s) through emit(binding); default: keep it."""
        emit(binding)

    def rewrite_block(self, block):
        out: list = []
        changed = False
        for binding in block.bindings:
            new_binding = self.visit_binding_value(binding)
            before = len(out)
            self.rewrite_binding(new_binding, out.append)
            if new_binding is not binding or len(out) != before + 1 or out[-1] is not binding:
                changed = True
        if not changed:
            return block
        return type(block)(out)

    # -- traversal ----------------------------------------------------------------------------
    def rewrite_function(self, func):
        body = self.rewrite_expr(func.body)
        if body is func.body:
            return func
        return func.with_fields(body=body)

    def rewrite_seq(self, seq):
        blocks = [self.rewrite_block(b) for b in seq.blocks]
        body = self.rewrite_expr(seq.body)
        if body is seq.body and all(a is b for a, b in zip(blocks, seq.blocks)):
            if len(blocks) == len(seq.blocks):
                return seq
        blocks = [b for b in blocks if b.bindings]
        return with_sinfo(type(seq)(blocks, body), seq.__dict__.get("struct_info_"))

    def visit_binding_value(self, binding):
        value = self.rewrite_expr(binding.value)
        var = self.var_map.get(binding.var, binding.var)
        if value is binding.value and var is binding.var:
            return binding
        return binding.with_fields(value=value, var=var)

    def rewrite_expr(self, expr):
        from tvm.relax.expr import Function, If, SeqExpr

        if isinstance(expr, SeqExpr):
            return self.rewrite_seq(expr)
        if isinstance(expr, If):
            return self.rewrite_if(expr, self.substitute(expr.cond))
        if isinstance(expr, Function):
            return self.rewrite_function(expr)
        return self.substitute(expr)

    def rewrite_if(self, expr, cond):
        """expr with condition cond and both branches rewritten (itself when unchanged)."""
        then = self.rewrite_expr(expr.true_branch)
        other = self.rewrite_expr(expr.false_branch)
        if cond is expr.cond and then is expr.true_branch and other is expr.false_branch:
            return expr
        return expr.with_fields(cond=cond, true_branch=then, false_branch=other)

    def substitute(self, expr):
        if not self.var_map:
            return expr
        return substitute_vars(expr, self.var_map)


def substitute_vars(expr, var_map: dict):
    """expr with the Relax variables in var_map replaced (copy-on-write)."""
    from tvm.ir.functor import NodeMutator

    class _Subst(NodeMutator):
        namespace = "relax"

        def visit_Var(self, node):  # noqa: N802  (dispatch names follow the node class)
            return var_map.get(node, node)

        def visit_Function(self, node):  # noqa: N802
            return BindingRewriterWithMap(var_map).rewrite_function(node)

        def visit_SeqExpr(self, node):  # noqa: N802
            return BindingRewriterWithMap(var_map).rewrite_seq(node)

        def generic_visit(self, node):
            new = super().generic_visit(node)
            if new is not node:  # renaming variables keeps what the expression is
                with_sinfo(new, node.__dict__.get("struct_info_"))
            return new

    return _Subst().visit(expr)


class ValueTrackingRewriter(BindingRewriter):
    """A BindingRewriter that also knows each bound variable's value (self.values, filled by
    the subclass as it meets bindings) and whether the block it rewrites is a dataflow block
    (self.in_dataflow): what the graph rewrites that look one binding back need."""

    def __init__(self):
        super().__init__()
        self.values: dict = {}
        self.in_dataflow = False

    def rewrite_block(self, block):
        from ..expr import DataflowBlock

        saved, self.in_dataflow = self.in_dataflow, isinstance(block, DataflowBlock)
        try:
            return super().rewrite_block(block)
        finally:
            self.in_dataflow = saved

    def tracked_call(self, binding, op_name: str):
        """Record binding's value; that value when the binding is a VarBinding of a call to
        op_name (the call a rewrite looks at), else None."""
        from ..expr import VarBinding

        value = binding.value
        self.values[binding.var] = value
        return value if isinstance(binding, VarBinding) and is_op_call(value, op_name) else None

    def bound_call(self, expr, op_name: str):
        """The call to op_name that the variable expr was bound to earlier, else None."""
        value = self.values.get(expr)
        return value if value is not None and is_op_call(value, op_name) else None


class BindingRewriterWithMap(BindingRewriter):
    def __init__(self, var_map):
        super().__init__()
        self.var_map = var_map


def free_relax_uses(expr) -> list:
    """Every relax Var used (not bound) inside expr, in order of appearance, with repeats."""
    from tvm.ir.functor import NodeVisitor

    found: list = []

    class _Uses(NodeVisitor):
        namespace = "relax"

        def visit_Var(self, node):  # noqa: N802
            found.append(node)

        def visit_VarBinding(self, node):  # noqa: N802  (the bound var is no use)
            self.visit(node.value)

        def visit_MatchCast(self, node):  # noqa: N802
            self.visit(node.value)

        def visit_Function(self, node):  # noqa: N802
            self.visit(node.body)

    _Uses().visit(expr)
    return found


def rewrite_dataflow_blocks(func, rewrite_block):
    """func with each dataflow block of its body replaced by rewrite_block(block, uses), uses
    being free_relax_uses of the whole body (what a block's vars are read by, inside and
    after it); func itself when every block comes back unchanged."""
    from tvm.relax.expr import DataflowBlock, SeqExpr

    body = func.body
    if not isinstance(body, SeqExpr):
        return func
    uses = free_relax_uses(body)
    blocks = [
        rewrite_block(block, uses) if isinstance(block, DataflowBlock) else block
        for block in body.blocks
    ]
    if all(a is b for a, b in zip(blocks, body.blocks)):
        return func
    return func.with_fields(
        body=with_sinfo(SeqExpr(blocks, body.body, body.span), body.struct_info)
    )


def relax_leaves(expr) -> list:
    """The relax Vars and Constants expr reads, in order of appearance, with repeats (a local
    function's own variables excluded)."""
    from tvm.ir.functor import NodeVisitor

    found: list = []

    class _Leaves(NodeVisitor):
        namespace = "relax"

        def visit_Var(self, node):  # noqa: N802  (dispatch on the class name)
            found.append(node)

        def visit_DataflowVar(self, node):  # noqa: N802
            found.append(node)

        def visit_Constant(self, node):  # noqa: N802
            found.append(node)

        def visit_VarBinding(self, node):  # noqa: N802  (the bound var is no read)
            self.visit(node.value)

        def visit_MatchCast(self, node):  # noqa: N802
            self.visit(node.value)

        def visit_Function(self, node):  # noqa: N802
            return None

    _Leaves().visit(expr)
    return found


def replace_constants(expr, const_map: dict):
    """expr with each Constant whose id is in const_map replaced by its value there."""
    from tvm.ir.functor import NodeMutator

    class _Consts(NodeMutator):
        namespace = "relax"

        def visit_Constant(self, node):  # noqa: N802  (dispatch on the class name)
            return const_map.get(id(node), node)

        def generic_visit(self, node):
            new = super().generic_visit(node)
            if new is not node:
                with_sinfo(new, node.__dict__.get("struct_info_"))
            return new

    return _Consts().visit(expr)
