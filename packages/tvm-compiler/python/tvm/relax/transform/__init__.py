"""tvm.relax.transform: Relax passes (one file per pass)."""

from .bind_params import BindParams
from .call_tir_rewrite import CallTIRRewrite
from .canonicalize_bindings import CanonicalizeBindings
from .compute_prim_value import ComputePrimValue
from .dead_code_elimination import DeadCodeElimination
from .fold_constant import FoldConstant
from .kill_after_last_use import KillAfterLastUse
from .lower_alloc_tensor import LowerAllocTensor
from .lower_runtime_builtin import LowerRuntimeBuiltin
from .remove_purity_checking import RemovePurityChecking
from .static_plan_block_memory import StaticPlanBlockMemory
from .to_non_dataflow import ToNonDataflow


def VMShapeLower(*, emit_err_ctx: bool = True):  # noqa: N802
    """relax.transform.VMShapeLower (lives in relax.backend, as upstream's C++ does)."""
    from ..backend.vm_shape_lower import VMShapeLower as _make

    return _make(emit_err_ctx=emit_err_ctx)


__all__ = [
    "BindParams",
    "CallTIRRewrite",
    "CanonicalizeBindings",
    "ComputePrimValue",
    "DeadCodeElimination",
    "FoldConstant",
    "KillAfterLastUse",
    "LowerAllocTensor",
    "LowerRuntimeBuiltin",
    "RemovePurityChecking",
    "StaticPlanBlockMemory",
    "ToNonDataflow",
    "VMShapeLower",
]
