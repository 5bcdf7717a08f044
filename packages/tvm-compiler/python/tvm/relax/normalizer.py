"""Normalisation of Relax expressions: struct info filled in, nested calls bound to variables
(A-normal form), If branches and function bodies made SeqExprs. The BlockBuilder uses it."""

from __future__ import annotations

from tvm.ir.module import GlobalVar
from tvm.ir.op import Op

from .analysis.struct_info_analysis import (
    derive_call_ret_struct_info,
    erase_to_well_defined,
    struct_info_lca,
    tir_vars_in,
)
from .expr import (
    Call,
    Constant,
    DataflowBlock,
    DataTypeImm,
    Expr,
    ExternFunc,
    Function,
    If,
    MatchCast,
    PrimValue,
    SeqExpr,
    ShapeExpr,
    StringImm,
    Tuple,
    TupleGetItem,
    Var,
    VarBinding,
    _sinfo_of,
)
from .struct_info import (
    FuncStructInfo,
    ObjectStructInfo,
    PrimStructInfo,
    TensorStructInfo,
    TupleStructInfo,
)

_LEAVES = (Var, GlobalVar, Constant, ShapeExpr, PrimValue, StringImm, DataTypeImm, ExternFunc)


def is_leaf(expr) -> bool:
    """Whether expr may appear as an argument in normal form (no binding needed)."""
    if isinstance(expr, (_LEAVES, Op)):
        return True
    return isinstance(expr, Tuple) and all(is_leaf(f) for f in expr.fields)


def function_defined_tir_vars(params) -> list:
    """The symbolic dimensions a function's parameters define."""
    return tir_vars_in([_sinfo_of(p) for p in params])


class Normalizer:
    """Normalisation; the class using it provides emit(expr) and the scope methods."""

    # -- entry points ---------------------------------------------------------------------
    def normalize(self, expr):
        """expr with its struct info (and its children's) filled in; nested non-leaf
        arguments are bound to fresh variables in the current block when one is open."""
        if not isinstance(expr, (Expr, GlobalVar)):
            raise TypeError(f"normalize: expected a relax Expr, got {type(expr).__name__}")
        return self._normalize(expr)

    def _normalize_arg(self, expr):
        out = self._normalize(expr)
        if not is_leaf(out) and self._frame is not None:
            return self.emit(out)
        return out

    # -- per node kind --------------------------------------------------------------------
    def _normalize(self, expr):
        if isinstance(expr, Var):
            if _sinfo_of(expr) is None:
                raise ValueError(
                    f"normalize: variable {expr.name_hint!r} has no struct info; give it one "
                    "(relax.Var(name, struct_info)) or bind it with the BlockBuilder"
                )
            return expr
        if isinstance(expr, GlobalVar):
            self._global_var_sinfo(expr)
            return expr
        if isinstance(expr, _LEAVES):
            return expr
        if isinstance(expr, Tuple):
            fields = [self._normalize_arg(f) for f in expr.fields]
            if all(a is b for a, b in zip(fields, expr.fields)) and _sinfo_of(expr) is not None:
                return expr
            return Tuple(fields, expr.span)
        if isinstance(expr, TupleGetItem):
            value = self._normalize_arg(expr.tuple_value)
            if value is expr.tuple_value and _sinfo_of(expr) is not None:
                return expr
            out = TupleGetItem(value, expr.index, expr.span)
            if _sinfo_of(out) is None:
                out._fill_late_field("struct_info_", ObjectStructInfo())
            return out
        if isinstance(expr, Call):
            return self._normalize_call(expr)
        if isinstance(expr, If):
            return self._normalize_if(expr)
        if isinstance(expr, SeqExpr):
            return self._normalize_seq(expr)
        if isinstance(expr, Function):
            return self._normalize_function(expr)
        raise TypeError(f"normalize: cannot normalise a {type(expr).__name__}")

    def _global_var_sinfo(self, gv):
        sinfo = _sinfo_of(gv)
        if sinfo is not None:
            return sinfo
        func = self._lookup_function(gv)
        sinfo = None if func is None else _sinfo_of(func)
        if sinfo is None:
            sinfo = FuncStructInfo.opaque_func()
        gv._fill_late_field("struct_info_", sinfo)
        return sinfo

    def _lookup_function(self, gv):  # the BlockBuilder knows its module
        return None

    def _normalize_call(self, call):
        op = call.op
        new_op = op if isinstance(op, Op) else self._normalize_arg(op)
        args = [self._normalize_arg(a) for a in call.args]
        if new_op is op and all(a is b for a, b in zip(args, call.args)):
            if _sinfo_of(call) is not None:
                return call
            out = call
        else:
            out = Call(new_op, args, call.attrs, call.sinfo_args, call.span)
        out._fill_late_field("struct_info_", self.infer_call_struct_info(out))
        return out

    def infer_call_struct_info(self, call):
        """The struct info of a call whose arguments are normalised."""
        op = call.op
        if isinstance(op, Op):
            infer = op.get_attr("FInferStructInfo")
            if infer is None:
                raise ValueError(
                    f"normalize: op {op.name!r} has no struct info inference (FInferStructInfo)"
                )
            sinfo = infer(call, self)
            if not hasattr(sinfo, "_type_key"):
                raise TypeError(f"{op.name}: struct info inference returned {sinfo!r}")
            return sinfo
        callee = self._global_var_sinfo(op) if isinstance(op, GlobalVar) else _sinfo_of(op)
        if not isinstance(callee, FuncStructInfo):
            raise TypeError(
                f"normalize: the callee of a call must be a function, got struct info {callee}"
            )
        if callee.is_opaque() and call.sinfo_args:
            items = list(call.sinfo_args)
            return items[0] if len(items) == 1 else TupleStructInfo(items)
        return derive_call_ret_struct_info(callee, call, self)

    def _normalize_if(self, node):
        cond = self._normalize_arg(node.cond)
        csinfo = _sinfo_of(cond)
        ok = (isinstance(csinfo, PrimStructInfo) and csinfo.dtype == "bool") or (
            isinstance(csinfo, TensorStructInfo) and csinfo.ndim in (0, -1)
        )
        if not ok:
            raise TypeError(
                f"If: cond must be a scalar bool tensor or a bool PrimValue, got struct info "
                f"{csinfo}"
            )
        true_branch = self._normalize_branch(node.true_branch)
        false_branch = self._normalize_branch(node.false_branch)
        if (
            cond is node.cond
            and true_branch is node.true_branch
            and false_branch is node.false_branch
            and _sinfo_of(node) is not None
        ):
            return node
        out = If(cond, true_branch, false_branch, node.span)
        sinfo = struct_info_lca(true_branch.struct_info, false_branch.struct_info)
        out._fill_late_field("struct_info_", sinfo)
        return out

    def _normalize_branch(self, expr):
        """expr as a SeqExpr in a scope of its own (an If branch, a function body)."""
        if not isinstance(expr, SeqExpr):
            expr = SeqExpr([], expr)
        return self._normalize_seq(expr)

    def _normalize_seq(self, seq):
        saved = self._begin_scope()
        try:
            blocks_changed = False
            for block in seq.blocks:
                self._begin_frame(isinstance(block, DataflowBlock))
                for binding in block.bindings:
                    new = self._normalize_binding(binding)
                    blocks_changed |= new is not binding
                    self._frame.append(new)
                self._end_frame()
            self._begin_frame(False)
            body = self._normalize_arg(seq.body)
            self._end_frame()
            blocks = self._blocks
        finally:
            self._end_scope(saved)
        if (
            not blocks_changed
            and body is seq.body
            and len(blocks) == len(seq.blocks)
            and _sinfo_of(seq) is not None
        ):
            return seq
        return SeqExpr(blocks, body, seq.span)

    def _normalize_binding(self, binding):
        value = self._normalize(binding.value)
        var = binding.var
        if isinstance(binding, MatchCast):
            if _sinfo_of(var) is None:
                var._fill_late_field("struct_info_", binding.struct_info)
            self._record_binding(var, value)
            if value is binding.value:
                return binding
            return MatchCast(var, value, binding.struct_info, binding.span)
        if _sinfo_of(var) is None:
            var._fill_late_field("struct_info_", value.struct_info)
        self._record_binding(var, value)
        if value is binding.value:
            return binding
        return VarBinding(var, value, binding.span)

    def _normalize_function(self, func):
        body = self._normalize_branch(func.body)
        if body is func.body and _sinfo_of(func) is not None:
            return func
        ret = func.ret_struct_info
        if ret is None:
            defined = function_defined_tir_vars(func.params)
            ret = erase_to_well_defined(
                body.struct_info, {v: v for v in defined}, {p: p for p in func.params}
            )
        return Function(func.params, body, ret, func.is_pure, func.attrs, func.span)

    def _record_binding(self, var, value):  # the BlockBuilder keeps a table
        pass
