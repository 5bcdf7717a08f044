"""The legalisation registry (FLegalize on each op: (bb, call) -> Expr) and helpers shared by
the op families' legalisations."""

from __future__ import annotations

from tvm.ir.op import register_op_attr
from tvm.tir import expr as E

LegalizeFunc = object  # (BlockBuilder, Call) -> Expr


def register_legalize(op_name: str, legal_func=None, level: int = 10):
    """Register legal_func as op_name's legalisation (a decorator when legal_func is None);
    a higher level replaces an existing one."""
    return register_op_attr(op_name, "FLegalize", legal_func, level)


def call_topi(te_func, name: str | None = None):
    """A legalisation calling te_func on the call's arguments (no attributes)."""

    def legalize(bb, call):
        return bb.call_te(te_func, *call.args, primfunc_name_hint=name or te_func.__name__)

    return legalize


def scalar(value, dtype):
    """value as a TIR constant of dtype (a float for float dtypes, an int otherwise)."""
    dtype = str(dtype)
    if dtype.startswith(("float", "bfloat")):
        return E.const(float(value), dtype)
    if dtype == "bool":
        return E.const(bool(value), "bool")
    return E.const(int(value), dtype)


def index_at(tensor, out_index):
    """tensor's element for out_index of a result it broadcasts to (NumPy's rules)."""
    offset = len(out_index) - len(tensor.shape)
    idx = [
        0 if isinstance(extent, E.IntImm) and extent.value == 1 else out_index[offset + k]
        for k, extent in enumerate(tensor.shape)
    ]
    return tensor[tuple(idx)] if idx else tensor[()]


def scale_shift(value, gamma, beta, index, scale: bool, center: bool):
    """value * gamma[index] + beta[index], each part only when asked (the norms' affine step)."""
    if scale:
        value = value * gamma[index]
    if center:
        value = value + beta[index]
    return value


def shape_from_tensor(bb, tensor, names):
    """A 1-D int64 tensor's values (known at run time) as a Shape matched to fresh symbolic
    dims named names: how a data-dependent result gets its extents."""
    from tvm import tir

    from ...expr import ExternFunc
    from ...op import call_pure_packed
    from ...struct_info import ShapeStructInfo

    shape = bb.emit(
        call_pure_packed(
            ExternFunc("vm.builtin.tensor_to_shape"),
            tensor,
            sinfo_args=[ShapeStructInfo(ndim=len(names))],
        )
    )
    return bb.match_cast(shape, ShapeStructInfo([tir.Var(n, "int64") for n in names]))


def assert_in_kernel(bb, call_tir, condition, message: str):
    """Make the PrimFunc that call_tir (from bb.call_te) calls assert condition (over the
    symbolic dims of its buffers) before it runs: a run-time ValueError with message."""
    from tvm.tir.leading_checks import leading_checks, with_leading_checks

    gv = call_tir.args[0]
    func = bb.get()[gv]
    checks, unchecked = leading_checks(func)
    if checks and checks[0][1] == message:
        return  # an identical call reused the function
    bb.update_func(gv, with_leading_checks(unchecked, [(condition, message), *checks]))


def assert_dims_agree(bb, call_tir, conditions, message: str):
    """assert_in_kernel of the conjunction of conditions (bool PrimExprs over symbolic dims)
    that the analyzer cannot prove; nothing when it proves them all."""
    from tvm.arith import Analyzer

    analyzer = Analyzer()
    left = [c for c in conditions if not analyzer.can_prove(c)]
    if not left:
        return
    condition = left[0]
    for c in left[1:]:
        condition = E.And(condition, c)
    assert_in_kernel(bb, call_tir, condition, message)


def fmt_dims(dims) -> str:
    """(2, n) for a message: constant dims as plain ints."""
    return "(" + ", ".join(str(d.value) if isinstance(d, E.IntImm) else str(d) for d in dims) + ")"
