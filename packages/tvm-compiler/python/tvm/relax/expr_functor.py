"""Relax's visitor and mutator on the shared traversal layer: dispatch visit_<Name> on
"relax.<Name>" keys; the mutator re-emits bindings through a BlockBuilder, so what it returns
is normalised, and an unchanged subtree comes back as itself."""

from __future__ import annotations

from tvm.ir.functor import NodeFunctor, find_method
from tvm.ir.module import GlobalVar
from tvm.ir.op import Op

from .block_builder import BlockBuilder
from .expr import (
    BindingBlock,
    Call,
    DataflowBlock,
    DataflowVar,
    Function,
    If,
    MatchCast,
    SeqExpr,
    Tuple,
    TupleGetItem,
    Var,
    VarBinding,
    _sinfo_of,
)


class ExprVisitor(NodeFunctor):
    """Visits every expression, binding and block of a Relax program once per occurrence.
    Override visit_<Name> (visit_Call, visit_VarBinding, ...) and call generic_visit."""

    namespace = "relax"

    def visit_expr(self, expr) -> None:
        self.visit(expr)

    def visit_binding(self, binding) -> None:
        self.visit(binding)

    def visit_binding_block(self, block) -> None:
        self.visit(block)

    def visit_var_def(self, var) -> None:
        """Called where a variable is bound (params, bindings)."""

    def generic_visit(self, node):
        if isinstance(node, (Op, GlobalVar)):
            return None
        if isinstance(node, Function):
            for p in node.params:
                self.visit_var_def(p)
            self.visit_expr(node.body)
            return None
        if isinstance(node, SeqExpr):
            for block in node.blocks:
                self.visit_binding_block(block)
            self.visit_expr(node.body)
            return None
        if isinstance(node, BindingBlock):
            for b in node.bindings:
                self.visit_binding(b)
            return None
        if isinstance(node, (VarBinding, MatchCast)):
            self.visit_expr(node.value)
            self.visit_var_def(node.var)
            return None
        for name in node._visit_fields():
            value = getattr(node, name)
            for item in value if isinstance(value, (list, tuple)) else (value,):
                if getattr(type(item), "_key_namespace", None) == "relax" or isinstance(
                    item, (GlobalVar, Op)
                ):
                    self.visit_expr(item)
        return None


class ExprMutator(NodeFunctor):
    """Rewrites Relax expressions. visit_expr(expr) returns the normalised new expression;
    bindings are re-emitted into self.builder_; variables whose struct info changes are
    replaced by fresh ones (see var_remap)."""

    namespace = "relax"

    def __init__(self, mod=None):
        self.builder_ = BlockBuilder(mod)
        self.var_remap_: dict = {}

    # -- entry points -----------------------------------------------------------------------
    def visit_expr(self, expr):
        return self.builder_.normalize(self.visit(expr))

    def visit_binding(self, binding) -> None:
        method = find_method(type(self), type(binding), "visit_", self.namespace)
        if method is None:
            self.generic_visit(binding)
        else:
            method(self, binding)

    def visit_binding_block(self, block):
        method = find_method(type(self), type(block), "visit_", self.namespace)
        return method(self, block)

    def visit_BindingBlock(self, block):  # DataflowBlock too
        bb = self.builder_
        bb._begin_frame(isinstance(block, DataflowBlock))
        for binding in block.bindings:
            self.visit_binding(binding)
        return bb.end_block()

    def visit_var_def(self, var):
        return self.var_remap_.get(var, var)

    def visit_with_new_scope(self, expr):
        bb = self.builder_
        saved = bb._begin_scope()
        try:
            bb._begin_frame(False)
            out = self.visit_expr(expr)
            prologue = bb.end_block()
        finally:
            bb._end_scope(saved)
        if prologue.bindings:
            out = SeqExpr([prologue], out)
        return out

    def lookup_binding(self, var):
        return self.builder_.lookup_binding(var)

    def set_var_remap(self, old, new) -> None:
        self.var_remap_[old] = new

    def get_var_remap(self) -> dict:
        return dict(self.var_remap_)

    # -- nodes ------------------------------------------------------------------------------
    def visit_Var(self, var):  # DataflowVar too
        return self.var_remap_.get(var, var)

    def visit_Call(self, call):
        op = call.op if isinstance(call.op, Op) else self.visit_expr(call.op)
        args = [self.visit_expr(a) for a in call.args]
        if op is call.op and all(a is b for a, b in zip(args, call.args)):
            return call
        return Call(op, args, call.attrs, call.sinfo_args, call.span)

    def visit_Tuple(self, node):
        fields = [self.visit_expr(f) for f in node.fields]
        if all(a is b for a, b in zip(fields, node.fields)):
            return node
        return Tuple(fields, node.span)

    def visit_TupleGetItem(self, node):
        value = self.visit_expr(node.tuple_value)
        return node if value is node.tuple_value else TupleGetItem(value, node.index, node.span)

    def visit_If(self, node):
        cond = self.visit_expr(node.cond)
        t = self.visit_with_new_scope(node.true_branch)
        f = self.visit_with_new_scope(node.false_branch)
        if cond is node.cond and t is node.true_branch and f is node.false_branch:
            return node
        return If(cond, t, f, node.span)

    def visit_SeqExpr(self, seq):
        bb = self.builder_
        saved = bb._begin_scope()
        try:
            blocks = []
            for block in seq.blocks:
                new = self.visit_binding_block(block)
                if new.bindings:
                    blocks.append(new)
            bb._begin_frame(False)
            body = self.visit_expr(seq.body)
            prologue = bb.end_block()
            if prologue.bindings:
                blocks.append(prologue)
        finally:
            bb._end_scope(saved)
        unchanged = body is seq.body and len(blocks) == len(seq.blocks)
        unchanged = unchanged and all(
            type(a) is type(b)
            and len(a.bindings) == len(b.bindings)
            and all(x is y for x, y in zip(a.bindings, b.bindings))
            for a, b in zip(blocks, seq.blocks)
        )
        if unchanged:
            return seq
        # Keep the original block objects where their bindings did not change.
        blocks = [
            old
            if type(old) is type(new)
            and len(old.bindings) == len(new.bindings)
            and all(x is y for x, y in zip(old.bindings, new.bindings))
            else new
            for new, old in zip(blocks, [*seq.blocks, *([None] * len(blocks))])
        ]
        return SeqExpr(blocks, body, seq.span)

    def visit_Function(self, func):
        params = [self.visit_var_def(p) for p in func.params]
        body = self.visit_with_new_scope(func.body)
        if body is func.body and all(a is b for a, b in zip(params, func.params)):
            return func
        ret = func.ret_struct_info
        return Function(params, body, ret, func.is_pure, func.attrs, func.span)

    def visit_VarBinding(self, binding):
        value = self.visit_expr(binding.value)
        self._reemit(binding, value)

    def visit_MatchCast(self, binding):
        value = self.visit_expr(binding.value)
        bb = self.builder_
        if value is binding.value:
            bb.emit_normalized(binding)
        else:
            bb.emit_normalized(MatchCast(binding.var, value, binding.struct_info, binding.span))

    def _reemit(self, binding, value):
        bb = self.builder_
        var = binding.var
        new_var = self.visit_var_def(var)
        if value is binding.value and new_var is var:
            bb.emit_normalized(binding)
            return
        old_sinfo, new_sinfo = _sinfo_of(new_var), value.struct_info
        if old_sinfo is not new_sinfo:
            from tvm.ir.structural import structural_equal

            if not structural_equal(old_sinfo, new_sinfo, map_free_vars=False):
                cls = DataflowVar if isinstance(var, DataflowVar) else Var
                new_var = cls(var.name_hint, new_sinfo, var.span)
                self.var_remap_[var] = new_var
        bb.emit_normalized(VarBinding(new_var, value, binding.span))

    def generic_visit(self, node):
        return node  # leaves: constants, shapes, prim values, extern functions, GlobalVars


# -- upstream's Python-subclassable functors ------------------------------------------------
# Node kind -> upstream's method name; each PyExpr* method defaults to the base functor's.
_PY_NAMES = {
    "Var": "visit_var_",
    "DataflowVar": "visit_dataflow_var_",
    "Constant": "visit_constant_",
    "Tuple": "visit_tuple_",
    "ShapeExpr": "visit_shape_expr_",
    "ExternFunc": "visit_extern_func_",
    "Function": "visit_function_",
    "Call": "visit_call_",
    "SeqExpr": "visit_seq_expr_",
    "If": "visit_if_",
    "TupleGetItem": "visit_tuple_getitem_",
    "PrimValue": "visit_prim_value_",
    "StringImm": "visit_string_imm_",
    "DataTypeImm": "visit_data_type_imm_",
    "VarBinding": "visit_var_binding_",
    "MatchCast": "visit_match_cast_",
    "BindingBlock": "visit_binding_block_",
    "DataflowBlock": "visit_dataflow_block_",
}


def _py_functor(base):
    """A subclass of base whose visit_<Name> dispatch calls upstream's snake-case methods."""

    def default():
        def method(self, node):
            impl = find_method(base, type(node), "visit_", "relax")
            return impl(self, node) if impl is not None else base.generic_visit(self, node)

        return method

    def forward(snake):
        def method(self, node):
            return getattr(self, snake)(node)

        return method

    attrs = {}
    for kind, snake in _PY_NAMES.items():
        attrs[snake] = default()
        attrs[f"visit_{kind}"] = forward(snake)

    def visit_expr_post_order(self, expr):
        """expr with its children visited and the node rebuilt, as the base functor does."""
        impl = find_method(base, type(expr), "visit_", "relax")
        return impl(self, expr) if impl is not None else base.generic_visit(self, expr)

    def visit_global_var_(self, gv):
        return gv if base is ExprMutator else None

    def visit_op_(self, op):
        return op if base is ExprMutator else None

    def generic_visit(self, node):
        if isinstance(node, GlobalVar):
            return self.visit_global_var_(node)
        if isinstance(node, Op):
            return self.visit_op_(node)
        return base.generic_visit(self, node)

    attrs.update(
        visit_expr_post_order=visit_expr_post_order,
        visit_global_var_=visit_global_var_,
        visit_op_=visit_op_,
        generic_visit=generic_visit,
        visit_span=lambda self, span: span,
    )
    return attrs


class PyExprVisitor(ExprVisitor):
    """ExprVisitor with upstream's method names (visit_call_, visit_var_binding_, ...)."""

    def visit_var_def_(self, var):
        return None

    def visit_dataflow_var_def_(self, var):
        return self.visit_var_def_(var)

    def visit_var_def(self, var):
        if isinstance(var, DataflowVar):
            return self.visit_dataflow_var_def_(var)
        return self.visit_var_def_(var)


class PyExprMutator(ExprMutator):
    """ExprMutator with upstream's method names; self.builder_ is the BlockBuilder."""

    def visit_var_def_(self, var):
        return self.var_remap_.get(var, var)

    def visit_dataflow_var_def_(self, var):
        return self.visit_var_def_(var)

    def visit_var_def(self, var):
        if isinstance(var, DataflowVar):
            return self.visit_dataflow_var_def_(var)
        return self.visit_var_def_(var)

    def with_struct_info(self, var, struct_info):
        """var itself when it already has struct_info, else a fresh Var that has it."""
        from tvm.ir.structural import structural_equal

        if structural_equal(_sinfo_of(var), struct_info):
            return var
        cls = DataflowVar if isinstance(var, DataflowVar) else Var
        return cls(var.name_hint, struct_info, var.span)


for _cls, _base in ((PyExprVisitor, ExprVisitor), (PyExprMutator, ExprMutator)):
    for _name, _method in _py_functor(_base).items():
        setattr(_cls, _name, _method)


def _check_functor(cls, base, who):
    if not isinstance(cls, type) or not issubclass(cls, base):
        raise TypeError(f"relax.expr_functor.{who}: decorate a subclass of {base.__name__}")
    return cls


def visitor(visitor_cls):
    """Mark a PyExprVisitor subclass (upstream's decorator; the class is used as it is)."""
    return _check_functor(visitor_cls, PyExprVisitor, "visitor")


def mutator(mutator_cls):
    """Mark a PyExprMutator subclass (upstream's decorator; the class is used as it is)."""
    return _check_functor(mutator_cls, PyExprMutator, "mutator")


__all__ = ["ExprMutator", "ExprVisitor", "PyExprMutator", "PyExprVisitor", "mutator", "visitor"]
