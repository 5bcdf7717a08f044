"""LazyTransformParams: each *transform_params function loads its weights one at a time through
a get_item callback, hands each result to a set_item callback as soon as it is computed and
frees each loaded weight after its last use, so the whole parameter set is never live at once."""

from __future__ import annotations

from tvm.ir.module import IRModule
from tvm.transform import PassContext, module_pass

from .lowering_utils import call, free_relax_uses, op, prim, void_sinfo, with_sinfo
from .to_non_dataflow import _ToNonDataflow

_KILL = "relax.vm.kill_object"


def _register_kill_object():
    """relax.vm.kill_object as upstream registers it: impure, returning void. Done at import
    (not at first lowering) so that scripts spelling R.vm.kill_object(x) parse and normalise."""
    kill = op(_KILL)
    if kill.get_attr("FInferStructInfo") is None:
        kill.set_attr("FInferStructInfo", lambda call, ctx: void_sinfo())
        kill.set_attr("FPurity", False)


_register_kill_object()

_PASS = "relax.transform.LazyTransformParams"


def num_input_of(func, who: str) -> int | None:
    """func's "num_input" attribute checked against its parameter count (None when absent)."""
    if "num_input" not in func.attrs:
        return None
    value = func.attrs["num_input"]
    count = int(getattr(value, "value", value))
    name = func.attrs.get("global_symbol", "<anonymous>")
    if not 0 <= count <= len(func.params):
        raise ValueError(
            f"{who}: function {str(name)!r} has num_input={count}, expected a value from 0 to "
            f"its parameter count {len(func.params)}"
        )
    return count


def packed_object_call(name: str, args):
    """call_packed(name, *args) returning an Object, as R.call_packed(..., sinfo_args=R.Object)."""
    from tvm.relax.expr import Call, ExternFunc
    from tvm.relax.struct_info import ObjectStructInfo

    return with_sinfo(
        Call(ExternFunc(name), list(args), None, [ObjectStructInfo()]), ObjectStructInfo()
    )


def _flat_sinfo(sinfo):
    from tvm.relax.struct_info import TupleStructInfo

    if isinstance(sinfo, TupleStructInfo):
        for field in sinfo.fields:
            yield from _flat_sinfo(field)
    else:
        yield sinfo


class _Lazify:
    """The rewrite of one function; see LazyTransformParams for what it produces."""

    def __init__(self, func, fget_item, fset_item, extra_get, extra_set):
        from tvm.relax.struct_info import TupleStructInfo

        self.func = _ToNonDataflow().rewrite_function(func)
        self.fget_item, self.fset_item = fget_item, fset_item
        self.extra_get, self.extra_set = list(extra_get), list(extra_set)
        self.num_input = num_input_of(self.func, _PASS) or 0
        weights = list(self.func.params[self.num_input :])
        if len(weights) == 1 and isinstance(weights[0].struct_info, TupleStructInfo):
            self.tuple_param, self.param_index = weights[0], {}
        else:
            self.tuple_param, self.param_index = None, {w: i for i, w in enumerate(weights)}
        self.weights = weights
        self.out = []

    # -- emission -----------------------------------------------------------------------------
    def emit(self, binding):
        self.out.append(binding)

    def emit_get(self, index, name):
        from tvm.relax.expr import Var, VarBinding
        from tvm.relax.struct_info import ObjectStructInfo

        var = Var(name, ObjectStructInfo())
        value = packed_object_call(self.fget_item, [*self.extra_get, prim(index)])
        self.emit(VarBinding(var, value))
        return var

    def emit_end_of(self, var):
        """What follows the last use of var: set_item for each output slot it fills, and the
        kill of a loaded weight."""
        from tvm.relax.expr import Var, VarBinding
        from tvm.relax.struct_info import ObjectStructInfo

        for index in self.out_index.get(var, ()):
            value = packed_object_call(self.fset_item, [*self.extra_set, prim(index), var])
            self.emit(VarBinding(Var("_", ObjectStructInfo()), value))
        if var in self.kill:
            self.emit(VarBinding(Var("_", void_sinfo()), call(_KILL, [var], void_sinfo())))

    def load_params_used_by(self, expr):
        """Load (non-tuple mode) each weight parameter expr uses that is not loaded yet."""
        from tvm.relax.expr import MatchCast

        for use in free_relax_uses(expr):
            index = self.param_index.pop(use, None)
            if index is None:
                continue
            untyped = self.emit_get(index, use.name_hint)
            self.emit(MatchCast(use, untyped, use.struct_info))
            if self.fset_item is not None and use not in self.used:
                self.emit_end_of(use)  # no binding reads it: it is only an output

    # -- analysis -----------------------------------------------------------------------------
    def find_outputs(self, body, bindings):
        """The out-tuple binding's var (or None) and the output fields."""
        from tvm.relax.expr import Tuple, Var, VarBinding

        result = body.body
        if isinstance(result, Tuple):
            return None, list(result.fields)
        if isinstance(result, Var):
            for b in bindings:
                if b.var is result and isinstance(b, VarBinding) and isinstance(b.value, Tuple):
                    return result, list(b.value.fields)
        return None, [result]

    def liveness(self, bindings, out_var):
        """For each binding index, the variables whose last use is there (in order of first
        use in the value, then the bound variable itself when nothing reads it)."""
        ends, self.used = {}, set()
        for k in range(len(bindings) - 1, -1, -1):
            b = bindings[k]
            if b.var is out_var:
                continue
            ended = []
            for use in free_relax_uses(b.value):
                if use not in self.used:
                    self.used.add(use)
                    ended.append(use)
            if b.var not in self.used:
                self.used.add(b.var)
                ended.append(b.var)
            ends[k] = ended
        return ends

    def check_tuple_param_uses(self, bindings, result):
        """The parameter tuple can only be read item by item (each item is fetched alone)."""
        from tvm.relax.expr import TupleGetItem

        param = self.tuple_param
        if param is None:
            return
        for b in bindings:
            value = b.value
            if isinstance(value, TupleGetItem) and value.tuple_value is param:
                continue
            if param in free_relax_uses(value):
                raise ValueError(
                    f"{_PASS}: the parameter tuple {param.name_hint!r} may only be read by "
                    f"indexing it (params[i]), but binding {b.var.name_hint!r} uses it whole"
                )
        if param in free_relax_uses(result):
            raise ValueError(
                f"{_PASS}: the parameter tuple {param.name_hint!r} is returned whole; only "
                f"its items (params[i]) can be loaded lazily"
            )

    # -- the rewrite --------------------------------------------------------------------------
    def run(self):
        from tvm.relax.analysis import defined_symbolic_vars
        from tvm.relax.expr import (
            BindingBlock,
            Function,
            MatchCast,
            SeqExpr,
            Tuple,
            TupleGetItem,
            Var,
            VarBinding,
        )
        from tvm.relax.struct_info import PrimStructInfo, ShapeStructInfo, TupleStructInfo

        func = self.func
        body = func.body
        bindings = [b for block in body.blocks for b in block.bindings]
        self.check_tuple_param_uses(bindings, body.body)
        out_var, fields, ends = None, [], {}
        self.out_index, self.kill, self.used = {}, set(), set()
        leaves = {}
        if self.fset_item is not None:
            out_var, fields = self.find_outputs(body, bindings)
            for i, field in enumerate(fields):
                if isinstance(field, Var):
                    self.out_index.setdefault(field, []).append(i)
                else:
                    leaves.setdefault(id(field), (field, []))[1].append(i)
            ends = self.liveness(bindings, out_var)
            if self.tuple_param is None:
                self.kill = set(self.param_index)
        empty = with_sinfo(Tuple([]), TupleStructInfo([]))
        new_out_var = None
        for k, b in enumerate(bindings):
            if b.var is out_var:
                self.load_params_used_by(b.value)
                new_out_var = Var(out_var.name_hint, TupleStructInfo([]))
                self.emit(VarBinding(new_out_var, empty))
                continue
            value = b.value
            if (
                self.tuple_param is not None
                and isinstance(value, TupleGetItem)
                and value.tuple_value is self.tuple_param
            ):
                untyped = self.emit_get(value.index, b.var.name_hint)
                typed = Var(b.var.name_hint, b.var.struct_info)
                self.emit(MatchCast(typed, untyped, b.var.struct_info))
                b = VarBinding(b.var, typed)
                self.kill.add(b.var)
            else:
                self.load_params_used_by(value)
            self.emit(b)
            for var in ends.get(k, ()):
                self.emit_end_of(var)
        if self.fset_item is None:
            self.load_params_used_by(body.body)
            result = body.body
        else:
            if out_var is None:
                self.load_params_used_by(Tuple(fields) if fields else empty)
            for field, indices in leaves.values():
                for index in indices:
                    args = [*self.extra_set, prim(index), field]
                    value = packed_object_call(self.fset_item, args)
                    self.emit(VarBinding(Var("_", value.struct_info), value))
            result = new_out_var if new_out_var is not None else empty
        new_body = with_sinfo(SeqExpr([BindingBlock(self.out)], result), result.struct_info)

        params = [*func.params[: self.num_input], *self.extra_get, *self.extra_set]
        if defined_symbolic_vars(func):
            # a weight's shape or prim value may define a symbolic variable the body uses: the
            # caller passes those in (the tensors themselves come from get_item)
            for weight in self.weights:
                for sinfo in _flat_sinfo(weight.struct_info):
                    if isinstance(sinfo, (PrimStructInfo, ShapeStructInfo)):
                        params.append(Var("symbolic_var_holder", sinfo))
        attrs = {k: v for k, v in func.attrs.items() if k != "relax.force_pure"}
        return Function(params, new_body, None, False, attrs, func.span)


def _check_callback_params(value, arg):
    from tvm.relax.expr import Var

    if value is None:
        return []
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, Var) for v in value):
        raise TypeError(
            f"{_PASS}: {arg} must be a list of relax.Var (the callback's arguments before the "
            f"index), got {value!r}"
        )
    return list(value)


def LazyTransformParams(  # noqa: N802  (pass constructors are capitalised, as upstream)
    fget_item="get_item",
    fset_item="set_item",
    extra_get_item_params=None,
    extra_set_item_params=None,
):
    """Make each function whose name ends in "transform_params" lazy
    (relax.transform.LazyTransformParams): its weights (the parameters after "num_input", or the
    items of its single tuple parameter) are fetched with call_packed(fget_item,
    *extra_get_item_params, index) where first needed and freed after their last use; with
    fset_item, each output is handed over with call_packed(fset_item, *extra_set_item_params,
    index, value) once computed, and the function returns an empty tuple. The new function
    takes the run-time inputs, then extra_get_item_params, then extra_set_item_params (and
    holders for weight shapes that define symbolic variables). Run ToNonDataflow and
    RemovePurityChecking first, as upstream says; dataflow blocks left are made plain here."""
    if not isinstance(fget_item, str) or not fget_item:
        raise ValueError(
            f"{_PASS}: fget_item must be the name of the get_item function (a non-empty str); "
            f"transforming set_item only is not supported, got {fget_item!r}"
        )
    if fset_item is not None and (not isinstance(fset_item, str) or not fset_item):
        raise ValueError(
            f"{_PASS}: fset_item must be the name of the set_item function (a non-empty str) "
            f"or None, got {fset_item!r}"
        )
    extra_get = _check_callback_params(extra_get_item_params, "extra_get_item_params")
    extra_set = _check_callback_params(extra_set_item_params, "extra_set_item_params")

    @module_pass(opt_level=0, name="LazyTransformParams")
    def lazy_transform_params(mod: IRModule, ctx: PassContext) -> IRModule:
        from tvm.relax.block_builder import BlockBuilder
        from tvm.relax.expr import Function

        builder, changed = BlockBuilder(mod), False
        for gv, func in list(mod.functions.items()):
            if not gv.name_hint.endswith("transform_params") or not isinstance(func, Function):
                continue
            new = _Lazify(func, fget_item, fset_item, extra_get, extra_set).run()
            builder.update_func(gv, new)
            changed = True
        return builder.get() if changed else mod

    return lazy_transform_params
