"""The native builtins (csrc/vm_builtins.c) that relax.vm_link compiles into an executable's
library, and which library function stands in for which vm.builtin.*."""

from __future__ import annotations

import functools
from pathlib import Path

# vm.builtin name -> the function the library exports for it (CPU devices only).
NATIVE_BUILTINS = {
    "vm.builtin.alloc_storage": "tvm_vm_alloc_storage_pooled",
    "vm.builtin.alloc_tensor": "tvm_vm_alloc_tensor",
    "vm.builtin.alloc_shape_heap": "tvm_vm_alloc_shape_heap",
    "vm.builtin.match_shape": "tvm_vm_match_shape",
    "vm.builtin.make_shape": "tvm_vm_make_shape",
    "vm.builtin.check_tensor_info": "tvm_vm_check_tensor_info",
    "vm.builtin.null_value": "tvm_vm_null_value",
}
# memory_cfg "naive": every storage is a fresh allocation, freed when its last tensor goes.
NAIVE_ALLOC_STORAGE = "tvm_vm_alloc_storage"


def native_symbol(name: str, memory_cfg: str) -> str | None:
    """The library function for builtin `name` under memory_cfg, or None when it has none."""
    if name == "vm.builtin.alloc_storage" and memory_cfg == "naive":
        return NAIVE_ALLOC_STORAGE
    return NATIVE_BUILTINS.get(name)


@functools.cache
def native_source() -> str:
    """The C source of the native builtins (compiled by the compiler's vm_link, never here)."""
    return (Path(__file__).parent / "csrc" / "vm_builtins.c").read_text()
