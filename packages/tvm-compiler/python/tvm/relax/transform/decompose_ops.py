"""DecomposeOpsForInference: composite ops become the simple ops they stand for at inference
time, so that legalisation and fusion see elementwise arithmetic (batch_norm: (x - mean) /
sqrt(var + eps) * gamma + beta, with the moving statistics passed through)."""

from __future__ import annotations

from tvm.ir.module import IRModule
from tvm.ir.op import Op
from tvm.transform import PassContext, module_pass

from ..expr import Tuple
from ..expr_functor import ExprMutator
from .lowering_utils import rewrite_relax_functions


def _expand_to_input(expr, ndim: int, axis: int):
    """expr (one value per channel of axis) with unit dims everywhere else, to broadcast."""
    from .. import op as R

    return R.expand_dims(expr, [i for i in range(ndim) if i != axis])


def _decompose_batch_norm(call):
    from .. import op as R
    from ..expr import const
    from ..op._utils import normalize_axis

    data, gamma, beta, mean, var = call.args
    sinfo = data.struct_info
    ndim = sinfo.ndim
    axis = normalize_axis("nn.batch_norm", call.attrs.axis, ndim)
    eps = const(call.attrs.epsilon, sinfo.dtype)
    out = R.divide(
        R.subtract(data, _expand_to_input(mean, ndim, axis)),
        R.sqrt(R.add(_expand_to_input(var, ndim, axis), eps)),
    )
    if call.attrs.scale:
        out = R.multiply(out, _expand_to_input(gamma, ndim, axis))
    if call.attrs.center:
        out = R.add(out, _expand_to_input(beta, ndim, axis))
    return Tuple([out, mean, var])


_DECOMPOSE = {"relax.nn.batch_norm": _decompose_batch_norm}


class _Decomposer(ExprMutator):
    def visit_Call(self, call):  # noqa: N802  (dispatch names follow the node class)
        call = super().visit_Call(call)
        if not isinstance(call.op, Op) or call.op.name not in _DECOMPOSE:
            return call
        call = self.builder_.normalize(call)
        if call.args[0].struct_info.ndim < 0:
            return call  # rank unknown: which axes to expand is not known
        return _DECOMPOSE[call.op.name](call)


def decompose_pass(pass_name: str, decomposer, func_name):
    """The module pass running decomposer (an ExprMutator class taking the module) over the
    module's Relax functions, or only the one named func_name."""
    who = f"relax.transform.{pass_name}"
    if func_name is not None and not isinstance(func_name, str):
        raise TypeError(f"{who}: func_name must be a str or None, got {type(func_name).__name__}")

    @module_pass(opt_level=0, name=pass_name)
    def decompose(mod: IRModule, ctx: PassContext) -> IRModule:
        names = [gv.name_hint for gv in mod.get_global_vars()]
        if func_name is not None and func_name not in names:
            raise ValueError(
                f"{who}: no function {func_name!r} in the module (it has {sorted(names)})"
            )
        mutator = decomposer(mod)
        return rewrite_relax_functions(
            mod,
            mutator.builder_,
            mutator.visit_expr,
            lambda gv, f: func_name in (None, gv.name_hint),
        )

    return decompose


def DecomposeOpsForInference(func_name: str | None = None):  # noqa: N802
    """Decompose composite ops as inference computes them (relax.transform
    .DecomposeOpsForInference); func_name limits it to one function. A module without such
    ops comes back as itself."""
    return decompose_pass("DecomposeOpsForInference", _Decomposer, func_name)
