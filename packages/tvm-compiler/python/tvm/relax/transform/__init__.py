"""tvm.relax.transform: Relax passes, one file per pass."""

from .. import op as _op  # noqa: F401,I001  (the ops exist before their legalisations register)
from . import legalize_ops  # noqa: E402,F401,I001  (registers every op family's legalisation)
from .adjust_matmul_order import AdjustMatmulOrder
from .annotate_tir_op_pattern import AnnotateTIROpPattern
from .attach_global_symbol import AttachGlobalSymbol
from .bind_params import BindParams
from .bind_symbolic_vars import BindSymbolicVars
from .bundle_model_params import BundleModelParams
from .call_tir_rewrite import CallTIRRewrite
from .canonicalize_bindings import CanonicalizeBindings
from .combine_parallel_matmul import CombineParallelMatmul
from .compute_prim_value import ComputePrimValue
from .convert_layout import ConvertLayout
from .convert_to_dataflow import ConvertToDataflow
from .dead_code_elimination import DeadCodeElimination
from .decompose_ops import DecomposeOpsForInference
from .decompose_ops_for_training import DecomposeOpsForTraining
from .eliminate_common_subexpr import EliminateCommonSubexpr
from .expand_matmul_of_sum import ExpandMatmulOfSum
from .expand_tuple_arguments import ExpandTupleArguments
from .fast_math import FastMathTransform
from .fold_batch_norm_to_conv2d_for_inference import FoldBatchnormToConv2D
from .fold_constant import FoldConstant
from .fuse_ops import FuseOps
from .fuse_ops_by_pattern import FuseOpsByPattern, FusionPattern, PatternCheckContext
from .fuse_tir import FuseTIR
from .fuse_transpose_matmul import FuseTransposeMatmul
from .inline_private_functions import InlinePrivateFunctions
from .kill_after_last_use import KillAfterLastUse
from .lambda_lift import LambdaLift
from .lazy_get_set import LazyGetInput, LazySetOutput
from .lazy_transform_params import LazyTransformParams
from .legalize_ops.common import register_legalize
from .legalize_ops.legalize import LegalizeOps
from .lift_transform_params import LiftTransformParams
from .merge_composite_functions import MergeCompositeFunctions
from .lower_alloc_tensor import LowerAllocTensor
from .lower_runtime_builtin import LowerRuntimeBuiltin
from .normalize import Normalize
from .normalize_global_var import NormalizeGlobalVar
from .remove_purity_checking import RemovePurityChecking
from .remove_redundant_reshape import RemoveRedundantReshape
from .remove_unused_outputs import RemoveUnusedOutputs
from .remove_unused_parameters import RemoveUnusedParameters
from .reorder_permute_dims_after_concat import ReorderPermuteDimsAfterConcat
from .reorder_take_after_matmul import ReorderTakeAfterMatmul
from .rewrite_dataflow_reshape import RewriteDataflowReshape
from .static_plan_block_memory import StaticPlanBlockMemory
from .to_non_dataflow import ToNonDataflow
from .to_mixed_precision import ToMixedPrecision
from .topological_sort import TopologicalSort
from .update_param_type import UpdateParamType
from .transform import DataflowBlockPass, FunctionPass, dataflowblock_pass, function_pass


def VMBuiltinLower():  # noqa: N802
    """The former name of LowerRuntimeBuiltin (upstream keeps it, with a warning)."""
    import warnings

    warnings.warn(
        "tvm.relax.transform.VMBuiltinLower has been renamed to 'LowerRuntimeBuiltin'.  "
        "This wrapper is for backwards compatibility, and will be removed in a later update.",
        stacklevel=2,
    )
    return LowerRuntimeBuiltin()


def VMShapeLower(*, emit_err_ctx: bool = True):  # noqa: N802
    """relax.transform.VMShapeLower (lives in relax.backend, as upstream's C++ does)."""
    from ..backend.vm_shape_lower import VMShapeLower as _make

    return _make(emit_err_ctx=emit_err_ctx)


__all__ = [
    "AdjustMatmulOrder",
    "AnnotateTIROpPattern",
    "AttachGlobalSymbol",
    "BindParams",
    "BindSymbolicVars",
    "BundleModelParams",
    "CallTIRRewrite",
    "CanonicalizeBindings",
    "CombineParallelMatmul",
    "ComputePrimValue",
    "ConvertLayout",
    "ConvertToDataflow",
    "DataflowBlockPass",
    "DeadCodeElimination",
    "DecomposeOpsForInference",
    "DecomposeOpsForTraining",
    "EliminateCommonSubexpr",
    "ExpandMatmulOfSum",
    "ExpandTupleArguments",
    "FastMathTransform",
    "FoldBatchnormToConv2D",
    "FoldConstant",
    "FunctionPass",
    "FuseOps",
    "FuseOpsByPattern",
    "FusionPattern",
    "FuseTIR",
    "FuseTransposeMatmul",
    "InlinePrivateFunctions",
    "KillAfterLastUse",
    "LambdaLift",
    "LazyGetInput",
    "LazySetOutput",
    "LazyTransformParams",
    "LegalizeOps",
    "LiftTransformParams",
    "LowerAllocTensor",
    "LowerRuntimeBuiltin",
    "MergeCompositeFunctions",
    "Normalize",
    "NormalizeGlobalVar",
    "PatternCheckContext",
    "RemovePurityChecking",
    "RemoveRedundantReshape",
    "RemoveUnusedOutputs",
    "RemoveUnusedParameters",
    "ReorderPermuteDimsAfterConcat",
    "ReorderTakeAfterMatmul",
    "RewriteDataflowReshape",
    "StaticPlanBlockMemory",
    "ToNonDataflow",
    "ToMixedPrecision",
    "TopologicalSort",
    "UpdateParamType",
    "VMBuiltinLower",
    "VMShapeLower",
    "dataflowblock_pass",
    "function_pass",
    "legalize_ops",
    "register_legalize",
]
