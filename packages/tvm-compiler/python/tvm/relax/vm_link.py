"""vm_link: join VM bytecode and its compiled TIR kernels into one Executable (one library).

The kernels' C source, the runtime's native builtins (tvm/runtime/vm/csrc/vm_builtins.c) and
the serialised bytecode are compiled into a single shared library:
the bytecode is embedded as read-only data (.incbin of a content-named file) and handed out by
two exported functions, so tvm.runtime.load_module(path) in a process with only tvm-runtime
finds both the kernels and the program.
"""

from __future__ import annotations

import hashlib
import os

from tvm.runtime.vm import Executable, register_linker
from tvm.runtime.vm.const_loader import (
    PARAMS_SIZE_SYMBOL,
    PARAMS_SYMBOL,
    check_params,
    init_submodules,
    save_params,
)
from tvm.runtime.vm.executable import BYTECODE_SIZE_SYMBOL, BYTECODE_SYMBOL
from tvm.runtime.vm.native import native_source

_MINIMAL_PRELUDE = "#include <tvm_ffi/c_api.h>\n\nTVM_FFI_LIBRARY_ABI_TAG();\n"

_BLOB_TEMPLATE = r"""
/* Data embedded by vm_link (the VM bytecode, or its params; tvm.runtime.vm serialisation). */
__asm__(".pushsection .rodata\n"
        ".balign 16\n"
        ".globl @LABEL@_start\n.hidden @LABEL@_start\n"
        "@LABEL@_start:\n"
        ".incbin \"@PATH@\"\n"
        ".globl @LABEL@_end\n.hidden @LABEL@_end\n"
        "@LABEL@_end:\n"
        ".popsection\n");
extern const unsigned char @LABEL@_start[] __attribute__((visibility("hidden")));
extern const unsigned char @LABEL@_end[] __attribute__((visibility("hidden")));

TVM_FFI_DLL_EXPORT int __tvm_ffi_@ADDR@(void* self, const TVMFFIAny* args,
                                          int32_t num_args, TVMFFIAny* result) {
  (void)self; (void)args; (void)num_args;
  result->type_index = kTVMFFIOpaquePtr;
  result->zero_padding = 0;
  result->v_ptr = (void*)@LABEL@_start;
  return 0;
}

TVM_FFI_DLL_EXPORT int __tvm_ffi_@SIZE@(void* self, const TVMFFIAny* args,
                                          int32_t num_args, TVMFFIAny* result) {
  (void)self; (void)args; (void)num_args;
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = (int64_t)(@LABEL@_end - @LABEL@_start);
  return 0;
}
"""


def _blob_source(blob: bytes, label="tvm_vm_blob", symbols=None) -> str:
    """C text embedding blob, handed out by the exported functions symbols (address, size)."""
    addr, size = symbols or (BYTECODE_SYMBOL, BYTECODE_SIZE_SYMBOL)
    from tvm.codegen.c.compiler import cache_dir

    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"vm-{hashlib.sha256(blob).hexdigest()[:32]}.bin"
    if not path.exists():
        partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        partial.write_bytes(blob)
        os.replace(partial, path)
    if any(ch in str(path) for ch in '"\\\n'):
        raise ValueError(
            f"vm_link: the kernel cache folder {str(folder)!r} has a quote, backslash or newline "
            "in its name, which the assembler's .incbin cannot take; set TVM_STACK_KERNEL_CACHE"
        )
    return (
        _BLOB_TEMPLATE.replace("@PATH@", str(path))
        .replace("@LABEL@", label)
        .replace("@ADDR@", addr)
        .replace("@SIZE@", size)
    )


def _kernel_source(tir_mod, target):
    """(C text, uses OpenMP) of the module's PrimFuncs, lowered as tvm.compile lowers them."""
    from tvm.codegen.c import generate_c_source
    from tvm.driver import lower
    from tvm.tir.function import PrimFunc

    funcs = {gv: f for gv, f in tir_mod.functions.items() if isinstance(f, PrimFunc)}
    if not funcs:
        return _MINIMAL_PRELUDE, False
    from tvm.ir.module import IRModule

    with target:
        lowered = lower(IRModule(funcs) if len(funcs) != len(tir_mod.functions) else tir_mod)
    source = generate_c_source(lowered)
    return source.text, source.uses_openmp


def _compile(source: str, uses_openmp: bool, target):
    from tvm.codegen.c import compile_shared_library
    from tvm.runtime import load_module
    from tvm.target.simd import mattr_compiler_flags

    march = target.attrs.get("mcpu") if target is not None else None
    path = compile_shared_library(
        source,
        uses_openmp,
        march=None if march in (None, "native") else march,
        extra_flags=mattr_compiler_flags(target) if target is not None else (),
    )
    return load_module(path)


def _resolve_target(target):
    from tvm.target.target import Target

    target = Target(target if target is not None else "llvm")
    if target.kind.codegen != "c":
        raise ValueError(
            f"vm_link: argument 'target' {str(target)!r} needs the {target.kind.codegen!r} "
            "code generator; only C-backed targets (c, llvm) can be linked with VM bytecode"
        )
    return target


def link_executable(
    ex: Executable,
    target=None,
    tir_mod=None,
    ext_libs=None,
    exec_mode: str = "bytecode",
    params=None,
) -> Executable:
    """ex with its kernels (tir_mod) and bytecode compiled into one loaded library; with
    exec_mode="compiled" its VM functions are compiled into it too (relax.vm_compiled); params
    ({name: Tensor}) are embedded beside the bytecode."""
    target = _resolve_target(target)
    if tir_mod is not None:
        text, uses_openmp = _kernel_source(tir_mod, target)
    else:
        text, uses_openmp = _MINIMAL_PRELUDE, False
    text += "\n" + native_source()
    if exec_mode == "compiled":
        from tvm.relax.vm_compiled import compile_vm_functions

        kernels = [gv.name_hint for gv in tir_mod.functions] if tir_mod is not None else []
        ex, functions = compile_vm_functions(ex, kernels)
        text += functions
    blob = ex.save_to_bytes()
    text += _blob_source(blob)
    if params:
        symbols = (PARAMS_SYMBOL, PARAMS_SIZE_SYMBOL)
        text += _blob_source(save_params(params), "tvm_vm_params", symbols)
    lib = _compile(text, uses_openmp, target)
    for ext in ext_libs or ():
        lib.import_module(ext)
    init_submodules("vm_link", ext_libs or (), params or {})
    return Executable(
        ex.functions, ex.constants, ex.instructions, lib, lib_has_bytecode=True, params=params
    )


def vm_link(
    builder, target, tir_mod=None, ext_libs=None, params=None, exec_mode: str = "bytecode"
) -> Executable:
    """The Executable of builder's bytecode with tir_mod's PrimFuncs compiled for target.

    Kernels are looked up by name in the one library that also embeds the bytecode, so
    ``ex.export_library(path)`` writes everything to a single file. params ({name: tensor})
    are embedded too: ``ex.get_const_var_tensor()`` returns them, after loading as well, and
    an ext_libs module naming constants (get_symbol / get_const_vars) is initialised with
    them through its ``__init_<symbol>``, as apache-tvm's const loader does."""
    params = check_params("vm_link", params)
    ex = builder.get() if hasattr(builder, "get") else builder
    if not isinstance(ex, Executable):
        raise TypeError(
            f"vm_link: argument 'builder' must be an ExecBuilder, got {type(builder).__name__}"
        )
    _check_exec_mode("vm_link", exec_mode)
    return link_executable(ex, target, tir_mod, ext_libs, exec_mode, params)


def _check_exec_mode(func: str, exec_mode) -> None:
    if exec_mode not in ("bytecode", "compiled"):
        raise ValueError(
            f"{func}: argument 'exec_mode' must be 'bytecode' or 'compiled', got {exec_mode!r}"
        )


def _export_unlinked(ex: Executable, file_name: str, **kwargs) -> str:
    # An executable straight from ExecBuilder.get(): its packed functions come from the
    # registry (or the library it was given), so only the bytecode goes into the file.
    if ex.lib is not None:
        raise ValueError(
            "Executable.export_library: this executable's library was not linked with its "
            "bytecode; build it with relax.vm_link to export kernels and bytecode together"
        )
    linked = link_executable(ex)
    return linked.export_library(file_name, **kwargs)


register_linker(_export_unlinked)
