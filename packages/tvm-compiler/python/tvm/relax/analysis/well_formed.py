"""well_formed: the rules a Relax module must keep (scoping of Vars and DataflowVars, defined
symbolic dimensions, purity of dataflow blocks, normal form, known GlobalVars)."""

from __future__ import annotations

import logging

from tvm.ir.module import GlobalVar, IRModule
from tvm.ir.op import Op

from ..expr import DataflowVar, ExternFunc, Function, SeqExpr, _sinfo_of
from ..expr_functor import ExprVisitor
from ..normalizer import is_leaf
from ..struct_info import FuncStructInfo
from .struct_info_analysis import tir_vars_in

_LOG = logging.getLogger("tvm.relax.analysis")


class _Checker(ExprVisitor):
    def __init__(self, mod, check_struct_info):
        self.mod = mod
        self.check_struct_info = check_struct_info
        self.errors: list[str] = []
        self.func_name = "?"
        self.scopes: list[set] = []  # visible Vars (ids) per scope
        self.dataflow_vars: set | None = None  # DataflowVars of the open dataflow block
        self.tir_scopes: list[set] = []
        self.defined_ever: set = set()
        self.in_dataflow = False
        self.keep: list = []
        # id(tir Var) -> the module function whose code mentions it (upstream: a symbolic var
        # belongs to one function; a callee's struct info at a call site does not count)
        self.tir_owner: dict = {}

    def error(self, message):
        self.errors.append(f"{self.func_name}: {message}")

    # -- scopes ---------------------------------------------------------------------------
    def _visible(self, var) -> bool:
        return any(id(var) in s for s in self.scopes)

    def _define(self, var):
        if id(var) in self.defined_ever:
            self.error(f"variable {var.name_hint!r} is bound more than once")
        self.defined_ever.add(id(var))
        self.keep.append(var)
        self.scopes[-1].add(id(var))
        if isinstance(var, DataflowVar) and self.dataflow_vars is not None:
            self.dataflow_vars.add(id(var))

    def _claim_tir(self, v):
        owner = self.tir_owner.setdefault(id(v), (self.func_name, v))[0]  # v kept alive
        if owner != self.func_name:
            self.error(
                f"symbolic variable {v.name!r} is also used in function {owner}; each function "
                "must define its own symbolic variables"
            )

    def _define_tir(self, sinfo):
        for v in tir_vars_in(sinfo):
            self._claim_tir(v)
            if not any(id(v) in s for s in self.tir_scopes):
                self.tir_scopes[-1].add(id(v))
                self.keep.append(v)

    def _check_tir_defined(self, value, where):
        for v in tir_vars_in(value):
            self._claim_tir(v)
            if not any(id(v) in s for s in self.tir_scopes):
                self.error(f"symbolic variable {v.name!r} used in {where} is not defined")

    # -- visitor --------------------------------------------------------------------------
    def visit_Function(self, func):
        self.scopes.append(set())
        self.tir_scopes.append(set())
        saved_df = (self.dataflow_vars, self.in_dataflow)
        self.dataflow_vars, self.in_dataflow = None, False
        for p in func.params:
            if isinstance(p, DataflowVar):
                self.error(f"parameter {p.name_hint!r} is a DataflowVar")
            self._define(p)
            self._define_tir(_sinfo_of(p))
        if not isinstance(func.body, SeqExpr):
            self.error("the body is not a SeqExpr (normalise the function)")
        self.visit_expr(func.body)
        if func.ret_struct_info is not None:
            self._check_tir_defined(func.ret_struct_info, "the return struct info")
        self.dataflow_vars, self.in_dataflow = saved_df
        self.tir_scopes.pop()
        self.scopes.pop()

    def visit_SeqExpr(self, seq):
        self.scopes.append(set())
        for block in seq.blocks:
            self.visit_binding_block(block)
        if not is_leaf(seq.body):
            self.error(
                f"the body of a SeqExpr is a {type(seq.body).__name__}, not a leaf (bind it to a "
                "variable: normal form)"
            )
        self.visit_expr(seq.body)
        self.scopes.pop()

    def visit_TupleGetItem(self, node):
        if not is_leaf(node.tuple_value):
            self.error(
                f"the tuple of a TupleGetItem is a {type(node.tuple_value).__name__}, not a leaf "
                "(bind it to a variable: normal form)"
            )
        self.visit_expr(node.tuple_value)

    def visit_If(self, node):
        if not is_leaf(node.cond):
            self.error(
                f"the condition of an If is a {type(node.cond).__name__}, not a leaf (bind it to "
                "a variable: normal form)"
            )
        self.visit_expr(node.cond)
        for branch in (node.true_branch, node.false_branch):
            if not isinstance(branch, SeqExpr):
                self.error("an If branch is not a SeqExpr (normalise the function)")
            self.tir_scopes.append(set())
            self.visit_expr(branch)
            self.tir_scopes.pop()

    def visit_DataflowBlock(self, block):
        self.dataflow_vars, self.in_dataflow = set(), True
        dataflow_scope = set()
        self.scopes.append(dataflow_scope)
        for b in block.bindings:
            self.visit_binding(b)
        self.scopes.pop()
        # Only the block's non-dataflow variables stay visible after it.
        self.scopes[-1].update(i for i in dataflow_scope if i not in self.dataflow_vars)
        self.dataflow_vars, self.in_dataflow = None, False

    def visit_BindingBlock(self, block):
        for b in block.bindings:
            self.visit_binding(b)

    def visit_VarBinding(self, binding):
        self.visit_expr(binding.value)
        var = binding.var
        if isinstance(var, DataflowVar) and not self.in_dataflow:
            self.error(f"DataflowVar {var.name_hint!r} is bound outside a dataflow block")
        if self.check_struct_info and _sinfo_of(var) is None:
            self.error(f"variable {var.name_hint!r} has no struct info")
        self._define(var)
        if isinstance(binding.value, Function):
            return
        if _sinfo_of(var) is not None:
            self._check_tir_defined(_sinfo_of(var), f"the struct info of {var.name_hint!r}")

    def visit_MatchCast(self, binding):
        self.visit_expr(binding.value)
        var = binding.var
        if isinstance(var, DataflowVar) and not self.in_dataflow:
            self.error(f"DataflowVar {var.name_hint!r} is bound outside a dataflow block")
        self._define_tir(binding.struct_info)
        self._define(var)

    def visit_Var(self, var):
        if not self._visible(var):
            if isinstance(var, DataflowVar) and id(var) in self.defined_ever:
                self.error(f"DataflowVar {var.name_hint!r} is used outside its dataflow block")
            else:
                self.error(
                    f"variable {var.name_hint!r} is used out of its scope (not defined "
                    "before this use)"
                )

    def visit_GlobalVar(self, gv):
        if self.mod is not None and gv.name_hint not in self.mod:
            self.error(f"GlobalVar @{gv.name_hint} is not a function of the module")

    def visit_ShapeExpr(self, shape):
        self._check_tir_defined(shape.values, "a shape")

    def visit_PrimValue(self, value):
        self._check_tir_defined(value.value, "a PrimValue")

    def visit_Call(self, call):
        if not isinstance(call.op, Op):
            self.visit_expr(call.op)
        for a in call.args:
            if not is_leaf(a):
                self.error(f"argument {type(a).__name__} of a call is not a leaf (normalise it)")
            self.visit_expr(a)
        if self.in_dataflow and not self._is_pure(call):
            name = (
                call.op.name
                if isinstance(call.op, Op)
                else getattr(call.op, "name_hint", getattr(call.op, "global_symbol", "?"))
            )
            self.error(f"impure call of {name} inside a dataflow block")

    def _is_pure(self, call) -> bool:
        op = call.op
        if isinstance(op, Op):
            return bool(op.get_attr("FPurity", True))
        sinfo = _sinfo_of(op)
        if isinstance(op, GlobalVar) and self.mod is not None and op.name_hint in self.mod:
            sinfo = _sinfo_of(self.mod[op.name_hint]) or sinfo
        if isinstance(op, ExternFunc) and sinfo is None:
            return False
        return not isinstance(sinfo, FuncStructInfo) or sinfo.purity

    def generic_visit(self, node):
        if isinstance(node, GlobalVar):  # an "ir" node: relax dispatch does not reach it
            return self.visit_GlobalVar(node)
        return super().generic_visit(node)


def _errors(obj, check_struct_info=True) -> list[str]:
    if isinstance(obj, IRModule):
        mod, funcs = obj, list(obj.functions.items())
    elif isinstance(obj, Function):
        mod, funcs = None, [(None, obj)]
    else:
        raise TypeError(
            f"well_formed: expected an IRModule or a relax Function, got {type(obj).__name__}"
        )
    checker = _Checker(mod, check_struct_info)
    for gv, func in funcs:
        if not isinstance(func, Function):
            continue
        checker.func_name = gv.name_hint if gv is not None else "function"
        checker.defined_ever = set()
        checker.visit(func)
    return checker.errors


def well_formed(obj, check_struct_info: bool = True) -> bool:
    """Whether obj (an IRModule or a Function) keeps Relax's rules; each violation found is
    logged (logger "tvm.relax.analysis") with the function it is in."""
    errors = _errors(obj, check_struct_info)
    for message in errors:
        _LOG.warning("well_formed: %s", message)
    return not errors


__all__ = ["well_formed"]
