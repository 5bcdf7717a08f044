"""tvm.relax.analysis: struct info analysis and well-formedness checks."""

from .struct_info_analysis import (
    derive_call_ret_struct_info,
    erase_to_well_defined,
    struct_info_base_check,
    struct_info_lca,
)

__all__ = [
    "derive_call_ret_struct_info",
    "erase_to_well_defined",
    "struct_info_base_check",
    "struct_info_lca",
]
