"""tvm.relax.analysis: struct info analysis, well-formedness checks and what passes ask of a
function (its bindings, symbolic variables, purity, recursion, memory use)."""

from .base_check import BaseCheckResult, type_base_check
from .bindings import (
    all_global_vars,
    get_var2val,
    name_to_binding,
    post_order_visit,
    udchain,
    used_vars,
)
from .compile_time import computable_at_compile_time
from .memory_usage import estimate_memory_usage
from .purity import contains_impure_call
from .recursion import detect_recursion
from .remove_unused import remove_all_unused
from .reshape_pattern import has_reshape_pattern
from .static_type import get_static_type
from .struct_info_analysis import (
    derive_call_ret_struct_info,
    erase_to_well_defined,
    struct_info_base_check,
    struct_info_lca,
)
from .symbolic_vars import (
    collect_non_negative_expressions,
    definable_tir_vars_in_struct_info,
    defined_symbolic_vars,
    free_symbolic_vars,
    tir_vars_in_struct_info,
)
from .tir_op_pattern import OpPatternKind, analyze_op_pattern
from .var_analysis import all_vars, bound_vars, free_vars
from .well_formed import well_formed

# The 0.26+ names (StructInfo was renamed Type there) where the meaning is the same.
type_lca = struct_info_lca
derive_call_ret_type = derive_call_ret_struct_info
tir_vars_in_type = tir_vars_in_struct_info
definable_tir_vars_in_type = definable_tir_vars_in_struct_info


def check_well_formed(obj, check_ty: bool = True) -> bool:
    """Whether obj (an IRModule or Function) is well formed; 0.26+'s name for what
    well_formed returns here (0.26+'s well_formed raises instead)."""
    return well_formed(obj, check_ty)


__all__ = [
    "BaseCheckResult",
    "OpPatternKind",
    "all_global_vars",
    "all_vars",
    "analyze_op_pattern",
    "bound_vars",
    "check_well_formed",
    "collect_non_negative_expressions",
    "computable_at_compile_time",
    "contains_impure_call",
    "definable_tir_vars_in_struct_info",
    "definable_tir_vars_in_type",
    "defined_symbolic_vars",
    "derive_call_ret_struct_info",
    "derive_call_ret_type",
    "detect_recursion",
    "erase_to_well_defined",
    "estimate_memory_usage",
    "free_symbolic_vars",
    "free_vars",
    "get_static_type",
    "get_var2val",
    "has_reshape_pattern",
    "name_to_binding",
    "post_order_visit",
    "remove_all_unused",
    "struct_info_base_check",
    "struct_info_lca",
    "tir_vars_in_struct_info",
    "tir_vars_in_type",
    "type_base_check",
    "type_lca",
    "udchain",
    "used_vars",
    "well_formed",
]
