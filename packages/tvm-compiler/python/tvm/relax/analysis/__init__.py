"""tvm.relax.analysis: struct info analysis and well-formedness checks."""

from .struct_info_analysis import (
    derive_call_ret_struct_info,
    erase_to_well_defined,
    struct_info_base_check,
    struct_info_lca,
)
from .tir_op_pattern import OpPatternKind, analyze_op_pattern
from .var_analysis import all_vars, bound_vars, free_vars
from .well_formed import well_formed

__all__ = [
    "OpPatternKind",
    "all_vars",
    "analyze_op_pattern",
    "bound_vars",
    "derive_call_ret_struct_info",
    "erase_to_well_defined",
    "free_vars",
    "struct_info_base_check",
    "struct_info_lca",
    "well_formed",
]
