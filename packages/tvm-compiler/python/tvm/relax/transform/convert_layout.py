"""ConvertLayout (relax.transform.ConvertLayout): conv2d (and the ops given in desired_layouts)
run in the desired layout, the ops between them follow the layout their inputs are in, and
permute_dims converts only where a value meets an op that cannot follow it or leaves the
dataflow block."""

from __future__ import annotations

from ..expr import Call, DataflowBlock, DataflowVar, MatchCast, Tuple, TupleGetItem, Var
from ..expr_functor import ExprMutator
from ..struct_info import TensorStructInfo, TupleStructInfo
from .layout_inference import LETTERS, RULES, initial
from .lowering_utils import is_nested_tensor


def _has_unknown_rank(sinfo) -> bool:
    if isinstance(sinfo, TensorStructInfo):
        return sinfo.ndim < 0
    if isinstance(sinfo, TupleStructInfo):
        return any(_has_unknown_rank(f) for f in sinfo.fields)
    return False


class _LayoutConverter(ExprMutator):
    def __init__(self, mod, desired, layout_cb):
        super().__init__(mod)
        self.desired = desired
        self.layout_cb = layout_cb
        self.layouts: dict = {}  # id(new var) -> its layout
        self.in_dataflow = False

    # -- layouts ------------------------------------------------------------------------
    def layout_of(self, expr):
        if isinstance(expr, Var) and id(expr) in self.layouts:
            return self.layouts[id(expr)][1]
        if isinstance(expr, Tuple):
            return [self.layout_of(f) for f in expr.fields]
        return initial(expr.struct_info)

    def set_layout(self, var, layout) -> None:
        self.layouts[id(var)] = (var, layout)  # the var kept alive: ids stay unique

    def rewrite(self, expr, to, emit=True):
        """expr (already visited) converted to layout to, emitting what that takes (the
        outermost conversion too unless emit is False: it is then bound by the caller)."""
        src = self.layout_of(expr)
        if to is None or src is None or src == to:
            return expr
        if isinstance(to, str):
            from ..op import permute_dims

            axes = [src.index(c) for c in to]
            call = self.builder_.normalize(permute_dims(expr, axes))
            return self.builder_.emit(call) if emit else call
        if isinstance(expr, Tuple):
            return Tuple([self.rewrite(f, t) for f, t in zip(expr.fields, to)])
        fields = []
        for k, t in enumerate(to):
            item = self.builder_.emit(TupleGetItem(expr, k))
            self.set_layout(item, src[k])
            fields.append(self.rewrite(item, t))
        return Tuple(fields)

    # -- bindings -----------------------------------------------------------------------
    def visit_BindingBlock(self, block):
        # upstream's pass rewrites dataflow blocks only; other blocks are kept as they are
        saved, self.in_dataflow = self.in_dataflow, isinstance(block, DataflowBlock)
        try:
            return super().visit_BindingBlock(block)
        finally:
            self.in_dataflow = saved

    def visit_VarBinding(self, binding):
        value = binding.value
        if not self.in_dataflow:
            super().visit_VarBinding(binding)
        elif isinstance(value, Call):
            self._call(binding, value)
        elif isinstance(value, Tuple):
            self._tuple(binding, value)
        elif isinstance(value, TupleGetItem):
            self._get_item(binding, value)
        elif isinstance(value, Var):
            self._alias(binding, value)
        else:
            super().visit_VarBinding(binding)

    def _emit_as(self, binding, value, layout):
        self._reemit(binding, self.builder_.normalize(value))
        new_var = self.var_remap_.get(binding.var, binding.var)
        if layout is not None:
            self.set_layout(new_var, layout)

    def _call(self, binding, call):
        args = [self.visit_expr(a) for a in call.args]
        found = self._infer(call, args)
        var = binding.var
        is_df = isinstance(var, DataflowVar)
        if found is None or (not is_df and not is_nested_tensor(var.struct_info)):
            new_args = [self.rewrite(a, initial(a.struct_info)) for a in args]
            self._emit_as(binding, Call(call.op, new_args, call.attrs, call.sinfo_args), None)
            return
        wanted, out_layout, attrs = found
        new_args = [a if w is None else self.rewrite(a, w) for a, w in zip(args, wanted)]
        new_call = self.builder_.normalize(Call(call.op, new_args, attrs, call.sinfo_args))
        if is_df:
            self._emit_as(binding, new_call, out_layout)
            return
        first = initial(var.struct_info)
        if out_layout != first:
            tmp = self.builder_.emit(new_call)
            self.set_layout(tmp, out_layout)
            new_call = self.builder_.normalize(self.rewrite(tmp, first, emit=False))
        self._emit_as(binding, new_call, None)

    def _infer(self, call, args):
        from tvm.ir.op import Op

        if not isinstance(call.op, Op) or call.op.name not in RULES:
            return None
        if any(_has_unknown_rank(a.struct_info) for a in args):
            return None
        desired = self.desired
        if self.layout_cb is not None:
            desired = _check_desired(self.layout_cb(call), "layout_cb's result")
        ins = [self.layout_of(a) for a in args]
        # the rule reads the original call: its arguments' shapes in their initial layouts
        return RULES[call.op.name](call, desired, ins)

    def _tuple(self, binding, value):
        fields = [self.visit_expr(f) for f in value.fields]
        if isinstance(binding.var, DataflowVar):
            layout = [self.layout_of(f) for f in fields]
            self._emit_as(binding, Tuple(fields), layout)
            return
        new = [self.rewrite(f, initial(f.struct_info)) for f in fields]
        self._emit_as(binding, Tuple(new), None)

    def _get_item(self, binding, value):
        tup = self.visit_expr(value.tuple_value)
        layout = self.layout_of(tup)
        if not isinstance(binding.var, DataflowVar) or not isinstance(layout, list):
            tup = self.rewrite(tup, initial(tup.struct_info))
            self._emit_as(binding, TupleGetItem(tup, value.index), None)
            return
        self._emit_as(binding, TupleGetItem(tup, value.index), layout[value.index])

    def _alias(self, binding, value):
        var = self.visit_expr(value)
        if isinstance(binding.var, DataflowVar):
            self._emit_as(binding, var, self.layout_of(var))
            return
        self._emit_as(binding, self.rewrite(var, initial(var.struct_info), emit=False), None)

    def visit_MatchCast(self, binding):
        if not self.in_dataflow:
            super().visit_MatchCast(binding)
            return
        value = self.visit_expr(binding.value)
        layout = self.layout_of(value)
        sinfo = binding.struct_info
        if (
            not isinstance(binding.var, DataflowVar)
            or not isinstance(layout, str)
            or layout == LETTERS[: len(layout)]
            or not isinstance(sinfo, TensorStructInfo)
        ):
            if value is not binding.value:
                binding = MatchCast(binding.var, value, sinfo, binding.span)
            self.builder_.emit_normalized(binding)
            return
        from ..op._utils import dims_of

        dims = dims_of(sinfo)
        if dims is not None:
            sinfo = TensorStructInfo(
                [dims[LETTERS.index(c)] for c in layout], sinfo.dtype, sinfo.vdevice
            )
        new_var = self.builder_.match_cast(value, sinfo, binding.var.name_hint)
        self.var_remap_[binding.var] = new_var
        self.set_layout(new_var, layout)


def _check_desired(desired, arg):
    who = "ConvertLayout"
    if not isinstance(desired, dict) and not hasattr(desired, "items"):
        raise TypeError(f"{who}: {arg} must map op names to lists of layouts, got {desired!r}")
    out = {}
    for name, layouts in desired.items():
        if not isinstance(name, str):
            raise TypeError(f"{who}: {arg} has op name {name!r}; op names are str")
        if isinstance(layouts, str) or not all(isinstance(x, str) for x in layouts):
            raise TypeError(
                f"{who}: {arg}[{name!r}] must be a list of layout strings, got {layouts!r}"
            )
        out[str(name)] = [str(x) for x in layouts]
    return out


def ConvertLayout(desired_layouts, layout_cb=None):  # noqa: N802  (upstream's name)
    """The pass: desired_layouts maps an op's name to its layouts, e.g.
    {"relax.nn.conv2d": ["NHWC", "OHWI"]} (data, kernel, optionally output); layout_cb, when
    given, is called with each call and returns such a map for it instead."""
    from tvm.relax.expr import Function

    from .transform import function_pass

    desired = _check_desired(desired_layouts, "desired_layouts")
    if layout_cb is not None and not callable(layout_cb):
        raise TypeError(f"ConvertLayout: layout_cb must be callable or None, got {layout_cb!r}")

    @function_pass(opt_level=0, name="ConvertLayout")
    def convert_layout(func, mod, ctx):
        if not isinstance(func, Function):
            return func
        return _LayoutConverter(mod, desired, layout_cb).visit_expr(func)

    return convert_layout
