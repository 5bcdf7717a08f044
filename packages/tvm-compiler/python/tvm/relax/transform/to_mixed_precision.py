"""ToMixedPrecision: float32 dataflow blocks rewritten so that gemm and conv run on float16
operands (accumulating in out_dtype), elementwise and data-movement ops follow their inputs,
and the rest stays float32; the function signatures keep their dtypes.

Two walks per function, as upstream's: a backward one finds the variables whose every use is a
float16 operand (those are stored in float16 right where they are defined), and a forward one
rewrites each call by its op's policy (mixed_precision_policy), casting an argument where the
dtype it has is not the one its use needs."""

from __future__ import annotations

from tvm.ir.op import Op

from ..expr import (
    Call,
    Constant,
    DataflowBlock,
    DataflowVar,
    Function,
    If,
    SeqExpr,
    Tuple,
    TupleGetItem,
    Var,
    VarBinding,
)
from ..expr_functor import ExprMutator
from ..struct_info import TensorStructInfo, TupleStructInfo
from .lowering_utils import is_nested_tensor, relax_function_pass
from .mixed_precision_policy import kAlways, kFollow, kNever, policy_of

_FP16, _FP32 = "float16", "float32"
_UNKNOWN = ""  # a variable none of whose uses was seen yet
_RANK = {_UNKNOWN: 0, _FP16: 1, _FP32: 2}  # merging two needs keeps the wider one
_FP16_MAX = 65504.0


# -- nested dtypes: a str per tensor leaf, tuples for tuples, None for anything else ----------
def _sinfo(expr):
    try:
        return expr.struct_info
    except (AttributeError, ValueError):
        return None


def _ntype(sinfo, dtype: str | None = None):
    """sinfo's nested dtypes, each tensor's own or dtype when given."""
    if isinstance(sinfo, TensorStructInfo):
        return str(sinfo.dtype) if dtype is None else dtype
    if isinstance(sinfo, TupleStructInfo):
        return tuple(_ntype(f, dtype) for f in sinfo.fields)
    return None


def _merge(a, b):
    if isinstance(a, tuple) and isinstance(b, tuple):
        return tuple(_merge(x, y) for x, y in zip(a, b))
    if a is None or b is None:
        return a if b is None else b
    return a if _RANK.get(a, 2) >= _RANK.get(b, 2) else b


def _cast_needed(sinfo, to) -> bool:
    """Whether some float16/float32 tensor leaf of sinfo has another dtype in to."""
    if isinstance(sinfo, TupleStructInfo) and isinstance(to, tuple):
        return any(_cast_needed(f, t) for f, t in zip(sinfo.fields, to))
    if not isinstance(sinfo, TensorStructInfo) or to is None:
        return False
    return str(sinfo.dtype) in (_FP16, _FP32) and str(sinfo.dtype) != to


def _all_float(args) -> bool:
    """Whether every tensor leaf among args is float16 or float32."""

    def leaves_float(sinfo):
        if isinstance(sinfo, TupleStructInfo):
            return all(leaves_float(f) for f in sinfo.fields)
        return not isinstance(sinfo, TensorStructInfo) or str(sinfo.dtype) in (_FP16, _FP32)

    return all(leaves_float(_sinfo(a)) for a in args)


def _fp16_if_required(have, required):
    """have, with float16 where required says the variable is only ever a float16 operand."""
    if isinstance(have, tuple):
        return tuple(_fp16_if_required(h, r) for h, r in zip(have, required))
    return _FP16 if required == _FP16 else have


# -- the backward walk ------------------------------------------------------------------------
class _DTypeDecisionCollector:
    """For each variable of a function: float16 when every use seen is a kAlways operand,
    float32 when some use is not, unknown when it has no use inside a dataflow block."""

    def __init__(self):
        self.only_fp16: dict = {}

    def _get(self, var):
        if var not in self.only_fp16:
            self.only_fp16[var] = _ntype(var.struct_info, _UNKNOWN)
        return self.only_fp16[var]

    def _require(self, expr, need) -> None:
        if need is None:
            return
        if isinstance(expr, Var):
            old = self.only_fp16.get(expr)
            self.only_fp16[expr] = need if old is None else _merge(old, need)
        elif isinstance(expr, Tuple) and isinstance(need, tuple):
            for field, sub in zip(expr.fields, need):
                self._require(field, sub)
        # a constant can be cast whatever its uses are

    def _require_args(self, args, dtype: str) -> None:
        for arg in args:
            sinfo = _sinfo(arg)
            if is_nested_tensor(sinfo):
                self._require(arg, _ntype(sinfo, dtype))

    def visit(self, expr) -> None:
        if isinstance(expr, Function):
            self.visit(expr.body)
        elif isinstance(expr, SeqExpr):
            self.visit(expr.body)
            for block in reversed(expr.blocks):
                if isinstance(block, DataflowBlock):
                    for binding in reversed(block.bindings):
                        self._visit_binding(binding)
        elif isinstance(expr, If):
            self.visit(expr.true_branch)
            self.visit(expr.false_branch)
            self.visit(expr.cond)
        elif isinstance(expr, Var):
            if is_nested_tensor(_sinfo(expr)):
                self._require(expr, _ntype(expr.struct_info, _FP32))
        elif isinstance(expr, Call):
            if not isinstance(expr.op, Op):
                self.visit(expr.op)
            for arg in expr.args:
                self.visit(arg)
        elif isinstance(expr, Tuple):
            for field in expr.fields:
                self.visit(field)
        elif isinstance(expr, TupleGetItem):
            self.visit(expr.tuple_value)

    def _visit_binding(self, binding) -> None:
        value = binding.value
        if not isinstance(binding, VarBinding):
            self.visit(value)  # match_cast
        elif isinstance(value, Call) and policy_of(value) != -1:
            self._require_args(value.args, _FP16 if policy_of(value) == kAlways else _FP32)
        elif isinstance(value, Tuple):
            need = self._get(binding.var)
            for field, sub in zip(value.fields, need if isinstance(need, tuple) else ()):
                self._require(field, sub)
        elif isinstance(value, TupleGetItem):
            need = self._get(binding.var)
            fields = value.tuple_value.struct_info.fields
            whole = tuple(
                need if i == value.index else _ntype(f, _UNKNOWN) for i, f in enumerate(fields)
            )
            self._require(value.tuple_value, whole)
        else:
            self.visit(value)


# -- the forward walk -------------------------------------------------------------------------
def _in_fp16_range(const: Constant) -> bool:
    import numpy as np  # reading a constant's values needs it (as FoldConstant does)

    data = const.data.numpy()
    if data.dtype == np.float16:
        return True
    if data.dtype.kind not in "fi" or data.dtype.itemsize > 8:
        return False
    return not bool(np.any(np.abs(data.astype(np.float64)) > _FP16_MAX))


class _ToMixedPrecisionRewriter(ExprMutator):
    def __init__(self, mod, only_fp16: dict, out_dtype: str, fp16_input_names):
        super().__init__(mod)
        self.only_fp16 = only_fp16
        self.out_dtype = out_dtype
        self.fp16_input_names = set(fp16_input_names)
        self.params: list = []

    def _in_dataflow(self) -> bool:
        return self.builder_.current_block_is_dataflow()

    # -- casting ------------------------------------------------------------------------------
    def _cast(self, expr, to):
        """expr with each float16/float32 tensor leaf converted to to's dtype at that leaf."""
        from ..op import astype

        sinfo = _sinfo(expr)
        if isinstance(sinfo, TupleStructInfo) and isinstance(to, tuple):
            if not isinstance(expr, (Tuple, Var)) and _cast_needed(sinfo, to):
                expr = self.builder_.emit(expr)  # a call's tuple: computed once, read by field
            fields, same = [], True
            for i, sub in enumerate(to):
                field = expr.fields[i] if isinstance(expr, Tuple) else TupleGetItem(expr, i)
                new = self._cast(field, sub)
                fields.append(new)
                same = same and new is field
            return expr if same else Tuple(fields)
        if not isinstance(sinfo, TensorStructInfo) or to is None:
            return expr
        dtype = str(sinfo.dtype)
        if dtype == to or dtype not in (_FP16, _FP32):
            return expr
        return astype(expr, to)

    def _cast_args(self, args, dtype: str) -> list:
        return [
            self._cast(a, _ntype(a.struct_info, dtype)) if is_nested_tensor(_sinfo(a)) else a
            for a in args
        ]

    def _remap(self, expr):
        if isinstance(expr, Var):
            return self.var_remap_.get(expr, expr)
        if isinstance(expr, Tuple):
            fields = [self._remap(f) for f in expr.fields]
            if any(a is not b for a, b in zip(fields, expr.fields)):
                return Tuple(fields, expr.span)
        return expr

    def _cast_if_fp16_only(self, var) -> None:
        """Store var in float16 from here on when its every use is a float16 operand."""
        required = self.only_fp16.get(var)
        if required is None:
            return
        cur = self.var_remap_.get(var, var)
        new = self._cast(cur, _fp16_if_required(_ntype(cur.struct_info), required))
        if new is not cur:
            self.var_remap_[var] = self.builder_.emit(new)

    def _all_fp16_castable(self, args) -> bool:
        for arg in args:
            sinfo = _sinfo(arg)
            if not is_nested_tensor(sinfo):
                continue
            if isinstance(sinfo, TensorStructInfo) and str(sinfo.dtype) == _FP16:
                continue
            if isinstance(arg, Constant) and _in_fp16_range(arg):
                continue
            if isinstance(arg, Tuple) and self._all_fp16_castable(arg.fields):
                continue
            return False
        return True

    # -- functions, blocks, variables ---------------------------------------------------------
    def visit_Function(self, func):  # noqa: N802  (dispatch names follow the node class)
        saved = self.params
        self.params = list(func.params)
        for p in func.params:
            sinfo = p.struct_info
            if p.name_hint in self.fp16_input_names and isinstance(sinfo, TensorStructInfo):
                fp16 = TensorStructInfo(sinfo.shape, _FP16, sinfo.vdevice, ndim=sinfo.ndim)
                self.var_remap_[p] = Var(p.name_hint, fp16, p.span)
        try:
            new = super().visit_Function(func)
        finally:
            self.params = saved
        body_sinfo = _sinfo(new.body)
        if new is func or body_sinfo is None:
            return new
        # a rebuilt function returns what its body now gives (apache-tvm 0.27 does the same:
        # the declared return is replaced by the body's struct info)
        return Function(new.params, new.body, body_sinfo, new.is_pure, new.attrs, new.span)

    def visit_BindingBlock(self, block):  # noqa: N802
        if not isinstance(block, DataflowBlock):
            return super().visit_BindingBlock(block)
        self.builder_._begin_frame(True)
        # a parameter's float16 copy lives in this block only
        saved = {p: self.var_remap_.get(p) for p in self.params}
        for p in self.params:
            self._cast_if_fp16_only(p)
        for binding in block.bindings:
            self.visit_binding(binding)
        for p, old in saved.items():
            if old is None:
                self.var_remap_.pop(p, None)
            else:
                self.var_remap_[p] = old
        return self.builder_.end_block()

    def visit_Var(self, var):  # noqa: N802
        """A use not rewritten by a policy reads the variable in the dtype it had."""
        if not self._in_dataflow() or var not in self.var_remap_:
            return super().visit_Var(var)
        return self._cast(self.var_remap_[var], _ntype(var.struct_info))

    def visit_binding(self, binding) -> None:
        super().visit_binding(binding)
        if self._in_dataflow():
            self._cast_if_fp16_only(binding.var)

    def visit_VarBinding(self, binding):  # noqa: N802
        value = binding.value
        if self._in_dataflow():
            if isinstance(value, Call) and policy_of(value) != -1:
                return self._rewrite_call(binding, value)
            if isinstance(value, (Tuple, TupleGetItem)):
                return self._rewrite_tuple(binding, value)
        return super().visit_VarBinding(binding)

    # -- bindings -----------------------------------------------------------------------------
    def _to_var_dtype(self, binding, value):
        """A non-dataflow variable leaves the block: it keeps the dtype it had."""
        if isinstance(binding.var, DataflowVar):
            return value
        return self._cast(value, _ntype(binding.var.struct_info))

    def _rewrite_tuple(self, binding, value):
        bb = self.builder_
        if isinstance(value, Tuple):
            fields = [self._remap(f) for f in value.fields]
            if any(a is not b for a, b in zip(fields, value.fields)):
                value = bb.normalize(Tuple(fields, value.span))
        else:
            tup = self._remap(value.tuple_value)
            if tup is not value.tuple_value:
                value = bb.normalize(TupleGetItem(tup, value.index, value.span))
        self._reemit(binding, bb.normalize(self._to_var_dtype(binding, value)))

    def _rewrite_call(self, binding, call):
        bb = self.builder_
        if call.op.same_as(Op.get("relax.wrap_param")):
            # the parameter is used as it is (a float16 weight stays float16)
            self._reemit(binding, call.args[0])
            return
        policy = policy_of(call)
        args = [self._remap(a) for a in call.args]
        if policy == kAlways and not _all_float(args):
            policy = kNever  # an integer gemm/conv is not this pass's business
        new = call
        dtype = None
        if policy == kAlways:
            dtype = _FP16
            infer = call.op.get_attr("FInferMixedPrecision")
            new = infer(Call(call.op, args, call.attrs, call.sinfo_args, call.span), self.out_dtype)
            args = list(new.args)
        elif policy == kFollow:
            dtype = _FP16 if self._all_fp16_castable(args) else _FP32
        elif any(a is not b for a, b in zip(args, call.args)):
            # kNever: the op gets exactly the dtypes it had
            args = [
                self._cast(a, _ntype(old.struct_info)) if is_nested_tensor(_sinfo(old)) else a
                for a, old in zip(args, call.args)
            ]
            new = Call(call.op, args, call.attrs, call.sinfo_args, call.span)
        if dtype is None:
            value = bb.normalize(new) if new is not call else call
            self._reemit(binding, value)
            return
        args = self._cast_args(args, dtype)
        if new is call and all(a is b for a, b in zip(args, call.args)):
            value = call  # already in that dtype (or not a float): kept as it is
        else:
            value = bb.normalize(Call(new.op, args, new.attrs, new.sinfo_args, new.span))
        if not isinstance(binding.var, DataflowVar):
            value = self._to_var_dtype(binding, value)
        elif policy == kAlways:
            # the accumulator's result is stored in float16
            value = self._cast(value, _ntype(value.struct_info, dtype))
        self._reemit(binding, bb.normalize(value))


# -- the pass ---------------------------------------------------------------------------------
def _check_args(out_dtype, fp16_input_names):
    who = "relax.transform.ToMixedPrecision"
    from tvm.ir.dtype import DataType

    if isinstance(out_dtype, DataType):
        out_dtype = str(out_dtype)
    if not isinstance(out_dtype, str):
        raise TypeError(
            f"{who}: argument 'out_dtype' must be a str naming a dtype, "
            f"got {type(out_dtype).__name__}"
        )
    if out_dtype not in (_FP16, _FP32):
        raise ValueError(
            f"{who}: argument 'out_dtype' (the gemm/conv accumulator dtype) must be "
            f"'float16' or 'float32', got {out_dtype!r}"
        )
    if fp16_input_names is None:
        return out_dtype, ()
    if isinstance(fp16_input_names, str) or not hasattr(fp16_input_names, "__iter__"):
        raise TypeError(
            f"{who}: argument 'fp16_input_names' must be a list of parameter names or None, "
            f"got {type(fp16_input_names).__name__}"
        )
    names = list(fp16_input_names)
    for name in names:
        if not isinstance(name, str):
            raise TypeError(
                f"{who}: argument 'fp16_input_names' must hold str parameter names, "
                f"got {type(name).__name__} {name!r}"
            )
    return out_dtype, tuple(names)


def ToMixedPrecision(out_dtype="float32", fp16_input_names=None):  # noqa: N802
    """Automatic mixed precision (relax.transform.ToMixedPrecision). The module is assumed to
    be float32; inside dataflow blocks (ConvertToDataflow may need to run first) gemm and conv
    get float16 operands, accumulating in out_dtype, and ops that follow their inputs run in
    float16 where those are. fp16_input_names: parameters whose dtype becomes float16 (the
    function's signature changes accordingly)."""
    out_dtype, names = _check_args(out_dtype, fp16_input_names)

    @relax_function_pass("ToMixedPrecision")
    def to_mixed_precision(func, mod, ctx):
        collector = _DTypeDecisionCollector()
        collector.visit(func)
        rewriter = _ToMixedPrecisionRewriter(mod, collector.only_fp16, out_dtype, names)
        return rewriter.visit_expr(func)

    return to_mixed_precision
