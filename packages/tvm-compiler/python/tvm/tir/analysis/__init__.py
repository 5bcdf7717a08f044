"""tvm.tir.analysis: purity, well-formedness, free variables and block access regions."""

from .access import block_access_regions
from .purity import assert_pure_function, is_pure_function
from .well_formed import undefined_vars, verify_well_formed

__all__ = [
    "assert_pure_function",
    "block_access_regions",
    "is_pure_function",
    "undefined_vars",
    "verify_well_formed",
]
