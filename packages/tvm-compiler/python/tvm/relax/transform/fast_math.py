"""FastMathTransform: exp, erf, tanh and nn.softmax calls become call_tir of topi's fast
approximations (topi.fast_exp, fast_erf, fast_tanh, nn.fast_softmax), as upstream's pass does:
it lowers those ops itself, so LegalizeOps leaves them alone afterwards."""

from __future__ import annotations

from tvm.ir.module import IRModule
from tvm.ir.op import Op
from tvm.transform import PassContext, module_pass

from ..expr_functor import ExprMutator
from .lowering_utils import rewrite_relax_functions


def _fast_softmax(bb, call):
    from tvm import topi

    return bb.call_te(topi.nn.fast_softmax, call.args[0], call.attrs.axis)


def _unary(name):
    def lower(bb, call):
        from tvm import topi

        return bb.call_te(getattr(topi, name), call.args[0])

    return lower


_FAST = {
    "relax.nn.softmax": _fast_softmax,
    "relax.exp": _unary("fast_exp"),
    "relax.erf": _unary("fast_erf"),
    "relax.tanh": _unary("fast_tanh"),
}


class _FastMathCodeGenerator(ExprMutator):
    """Replaces the expensive non-linear functions by their fast approximate counterparts."""

    def visit_Call(self, call):  # noqa: N802  (dispatch names follow the node class)
        call = super().visit_Call(call)
        if isinstance(call.op, Op) and call.op.name in _FAST:
            return _FAST[call.op.name](self.builder_, call)
        return call


def FastMathTransform():  # noqa: N802
    """The pass converting exp, erf, tanh and softmax to their fast but approximate
    counterparts (relax.transform.FastMathTransform). A module without them comes back as
    itself."""

    @module_pass(opt_level=0, name="FastMathTransform")
    def fast_math(mod: IRModule, ctx: PassContext) -> IRModule:
        mutator = _FastMathCodeGenerator(mod)
        return rewrite_relax_functions(mod, mutator.builder_, mutator.visit_expr)

    return fast_math
