"""Struct info analysis: base checks, least common ancestors, erasing undefined symbolic
dimensions, and deriving a call's result from the callee's signature."""

from __future__ import annotations

from tvm.ir.expr import PrimExpr
from tvm.tir import expr as E

from ..struct_info import (
    FuncStructInfo,
    ObjectStructInfo,
    PrimStructInfo,
    ShapeStructInfo,
    StructInfo,
    TensorStructInfo,
    TupleStructInfo,
)


def _prove_equal(a, b) -> bool:
    if a is b:
        return True
    if isinstance(a, E.IntImm) and isinstance(b, E.IntImm):
        return a.value == b.value
    from tvm.arith import Analyzer

    return Analyzer().can_prove_equal(a, b)


def _dims(sinfo):
    """The shape values of tensor struct info (a tuple of PrimExprs) or None."""
    from ..expr import ShapeExpr

    shape = sinfo.shape
    if shape is None:
        return None
    if isinstance(shape, ShapeExpr):
        return shape.values
    inner = shape.__dict__.get("struct_info_")
    return inner.values if isinstance(inner, ShapeStructInfo) else None


def _same_values(a, b) -> bool:
    return len(a) == len(b) and all(_prove_equal(x, y) for x, y in zip(a, b))


def struct_info_base_check(base: StructInfo, derived: StructInfo) -> bool:
    """Whether every value `derived` describes is one `base` describes (provably)."""
    if isinstance(base, ObjectStructInfo):
        return True
    if type(base) is not type(derived):
        return False
    if isinstance(base, PrimStructInfo):
        if base.dtype != derived.dtype:
            return False
        return base.value is None or (
            derived.value is not None and _prove_equal(base.value, derived.value)
        )
    if isinstance(base, ShapeStructInfo):
        if base.ndim != -1 and base.ndim != derived.ndim:
            return False
        return base.values is None or (
            derived.values is not None and _same_values(base.values, derived.values)
        )
    if isinstance(base, TensorStructInfo):
        if base.dtype != "void" and base.dtype != derived.dtype:
            return False
        if base.ndim != -1 and base.ndim != derived.ndim:
            return False
        if base.vdevice is not None and base.vdevice != derived.vdevice:
            return False
        base_dims = _dims(base)
        if base_dims is None:
            return True
        derived_dims = _dims(derived)
        return derived_dims is not None and _same_values(base_dims, derived_dims)
    if isinstance(base, TupleStructInfo):
        return len(base.fields) == len(derived.fields) and all(
            struct_info_base_check(b, d) for b, d in zip(base.fields, derived.fields)
        )
    if isinstance(base, FuncStructInfo):
        if base.purity and not derived.purity:
            return False
        if base.is_opaque():
            return True
        if derived.is_opaque() or len(base.params) != len(derived.params):
            return False
        return all(
            struct_info_base_check(d, b) for b, d in zip(base.params, derived.params)
        ) and struct_info_base_check(base.ret, derived.ret)
    return False


def struct_info_lca(lhs: StructInfo, rhs: StructInfo) -> StructInfo:
    """The most specific struct info describing every value either side describes."""
    if lhs is rhs:
        return lhs
    if type(lhs) is not type(rhs) or isinstance(lhs, ObjectStructInfo):
        return ObjectStructInfo()
    if isinstance(lhs, PrimStructInfo):
        if lhs.dtype != rhs.dtype:
            return ObjectStructInfo()
        if lhs.value is not None and rhs.value is not None and _prove_equal(lhs.value, rhs.value):
            return lhs
        return PrimStructInfo(lhs.dtype)
    if isinstance(lhs, ShapeStructInfo):
        if lhs.ndim != rhs.ndim:
            return ShapeStructInfo(ndim=-1)
        if lhs.values is not None and rhs.values is not None:
            if _same_values(lhs.values, rhs.values):
                return lhs
        return ShapeStructInfo(ndim=lhs.ndim)
    if isinstance(lhs, TensorStructInfo):
        dtype = lhs.dtype if lhs.dtype == rhs.dtype else "void"
        vdevice = lhs.vdevice if lhs.vdevice == rhs.vdevice else None
        if lhs.ndim != rhs.ndim:
            return TensorStructInfo(dtype=dtype, vdevice=vdevice, ndim=-1)
        a, b = _dims(lhs), _dims(rhs)
        if a is not None and b is not None and _same_values(a, b):
            if dtype == lhs.dtype and vdevice is lhs.vdevice:
                return lhs
            return TensorStructInfo(lhs.shape, dtype, vdevice)
        return TensorStructInfo(dtype=dtype, vdevice=vdevice, ndim=lhs.ndim)
    if isinstance(lhs, TupleStructInfo):
        if len(lhs.fields) != len(rhs.fields):
            return ObjectStructInfo()
        fields = [struct_info_lca(a, b) for a, b in zip(lhs.fields, rhs.fields)]
        if all(f is a for f, a in zip(fields, lhs.fields)):
            return lhs
        return TupleStructInfo(fields)
    if isinstance(lhs, FuncStructInfo):
        purity = lhs.purity and rhs.purity
        if struct_info_base_check(lhs, rhs) and struct_info_base_check(rhs, lhs):
            return lhs
        if lhs.is_opaque() or rhs.is_opaque() or len(lhs.params) != len(rhs.params):
            return FuncStructInfo.opaque_func(purity=purity)
        return FuncStructInfo.opaque_func(ret=struct_info_lca(lhs.ret, rhs.ret), purity=purity)
    return ObjectStructInfo()


def tir_vars_in(value) -> list:
    """The TIR variables value (a PrimExpr, struct info, or a sequence of them) uses, in order."""
    from tvm.ir.node import Node
    from tvm.tir.functor import post_order_visit

    found: list = []

    def record(node):
        if isinstance(node, E.Var) and all(node is not f for f in found):
            found.append(node)

    def walk(v):
        if isinstance(v, PrimExpr):
            post_order_visit(v, record)
        elif isinstance(v, StructInfo):
            for name in v._fields:
                walk(getattr(v, name))
        elif isinstance(v, (list, tuple)):
            for item in v:
                walk(item)
        elif isinstance(v, Node):
            from ..expr import ShapeExpr

            if isinstance(v, ShapeExpr):
                walk(v.values)

    walk(value)
    return found


def map_struct_info_dims(sinfo: StructInfo, fmap, fshape_var=None) -> StructInfo | None:
    """sinfo with each PrimExpr p in it replaced by fmap(p); fmap returns None to erase the
    value (the dims become unknown, the ndim stays). A tensor shape held by a Relax variable
    is kept, or with fshape_var replaced by fshape_var(var) (None erases it, keeping the
    ndim). Returns sinfo itself when unchanged."""
    from ..expr import ShapeExpr, Var

    if isinstance(sinfo, PrimStructInfo):
        if sinfo.value is None:
            return sinfo
        new = fmap(sinfo.value)
        if new is sinfo.value:
            return sinfo
        return PrimStructInfo(sinfo.dtype) if new is None else PrimStructInfo(value=new)
    if isinstance(sinfo, ShapeStructInfo):
        if sinfo.values is None:
            return sinfo
        new = [fmap(v) for v in sinfo.values]
        if all(a is b for a, b in zip(new, sinfo.values)):
            return sinfo
        if any(v is None for v in new):
            return ShapeStructInfo(ndim=sinfo.ndim)
        return ShapeStructInfo(new)
    if isinstance(sinfo, TensorStructInfo):
        if sinfo.shape is None:
            return sinfo
        if isinstance(sinfo.shape, Var):
            # A shape held by a variable: known only where that variable is.
            new = sinfo.shape if fshape_var is None else fshape_var(sinfo.shape)
            if new is sinfo.shape:
                return sinfo
            if new is None:
                return TensorStructInfo(dtype=sinfo.dtype, vdevice=sinfo.vdevice, ndim=sinfo.ndim)
            return TensorStructInfo(new, sinfo.dtype, sinfo.vdevice)
        if not isinstance(sinfo.shape, ShapeExpr):
            return sinfo
        new = [fmap(v) for v in sinfo.shape.values]
        if all(a is b for a, b in zip(new, sinfo.shape.values)):
            return sinfo
        if any(v is None for v in new):
            return TensorStructInfo(dtype=sinfo.dtype, vdevice=sinfo.vdevice, ndim=sinfo.ndim)
        return TensorStructInfo(new, sinfo.dtype, sinfo.vdevice)
    if isinstance(sinfo, TupleStructInfo):
        fields = [map_struct_info_dims(f, fmap, fshape_var) for f in sinfo.fields]
        if all(a is b for a, b in zip(fields, sinfo.fields)):
            return sinfo
        return TupleStructInfo(fields)
    if isinstance(sinfo, FuncStructInfo):
        if sinfo.is_opaque():
            return sinfo
        # The parameters define their own dims; only the result can change.
        ret = map_struct_info_dims(sinfo.ret, fmap, fshape_var)
        return sinfo if ret is sinfo.ret else FuncStructInfo(sinfo.params, ret, sinfo.purity)
    return sinfo


def erase_to_well_defined(sinfo: StructInfo, shape_var_map=None, var_map=None) -> StructInfo:
    """sinfo with every symbolic dimension that uses a TIR variable not in shape_var_map
    erased (tensor and shape dims become unknown, keeping the ndim); variables in the map are
    replaced by their values. A tensor shape held by a Relax variable is replaced by its
    value in var_map, or erased (keeping the ndim) when the variable is not in it, as upstream:
    outside its scope the variable means nothing."""
    from tvm.arith import Analyzer
    from tvm.tir.functor import substitute

    shape_var_map = dict(shape_var_map or {})
    if isinstance(sinfo, FuncStructInfo) and not sinfo.is_opaque():
        # a signature binds the variables its parameters define: its result may use them
        for param in sinfo.params:
            for var in _definable_vars(param):
                shape_var_map.setdefault(var, var)

    def fmap(value):
        used = tir_vars_in(value)
        if not used:
            return value
        if all(any(v is k for k in shape_var_map) for v in used):
            if all(shape_var_map[v] is v for v in used):
                return value
            return Analyzer().simplify(substitute(value, shape_var_map))  # n + 1 at n=2: 3
        return None

    def fshape_var(var):
        return next((value for key, value in (var_map or {}).items() if key is var), None)

    return map_struct_info_dims(sinfo, fmap, fshape_var)


def _definable_vars(sinfo) -> list:
    from .symbolic_vars import definable_tir_vars_in_struct_info

    return definable_tir_vars_in_struct_info(sinfo)


def _bind_params(param: StructInfo, arg: StructInfo, binding: dict) -> None:
    """Bind the bare TIR variables in param's dims to arg's matching dims."""

    def bind_dims(p_dims, a_dims):
        if p_dims is None or a_dims is None or len(p_dims) != len(a_dims):
            return
        for p, a in zip(p_dims, a_dims):
            if isinstance(p, E.Var) and not any(p is k for k in binding):
                binding[p] = a

    if isinstance(param, TensorStructInfo) and isinstance(arg, TensorStructInfo):
        bind_dims(_dims(param), _dims(arg))
    elif isinstance(param, ShapeStructInfo) and isinstance(arg, ShapeStructInfo):
        bind_dims(param.values, arg.values)
    elif isinstance(param, PrimStructInfo) and isinstance(arg, PrimStructInfo):
        bind_dims(
            None if param.value is None else [param.value],
            None if arg.value is None else [arg.value],
        )
    elif isinstance(param, TupleStructInfo) and isinstance(arg, TupleStructInfo):
        for p, a in zip(param.fields, arg.fields):
            _bind_params(p, a, binding)


def derive_call_ret_struct_info(func_sinfo: FuncStructInfo, call, ctx=None) -> StructInfo:
    """The struct info of call's result when it calls a function of func_sinfo: the callee's
    symbolic dims are bound to the arguments' and substituted into its result."""
    if func_sinfo.is_opaque():
        if func_sinfo.derive_func is not None:
            return func_sinfo.derive_func(call, ctx)
        return func_sinfo.ret
    name = getattr(call.op, "name_hint", type(call.op).__name__)
    if len(call.args) != len(func_sinfo.params):
        raise TypeError(
            f"call to {name}: expected {len(func_sinfo.params)} arguments, got {len(call.args)}"
        )
    binding: dict = {}
    for i, (param, arg) in enumerate(zip(func_sinfo.params, call.args)):
        arg_sinfo = arg.struct_info
        _bind_params(param, arg_sinfo, binding)
        expected = erase_to_well_defined(param, binding)
        if not struct_info_base_check(expected, arg_sinfo) and not struct_info_base_check(
            arg_sinfo, expected
        ):
            raise TypeError(
                f"call to {name}: argument {i} has struct info {arg_sinfo}, which cannot be {param}"
            )
    return erase_to_well_defined(func_sinfo.ret, binding)
