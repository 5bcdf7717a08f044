"""exec_mode="compiled": each VM function's bytecode becomes a C function of the executable's
library (``__vmtir__<name>``), so running it costs no interpretation at all.

Registers are a local array of TVMFFIAny; a call of a kernel compiled into the same library or
of a native builtin (tvm/runtime/vm/csrc/vm_builtins.c) is a direct C call, anything else goes
through the global function registry (the Python builtins register themselves there). The
function takes (vm, memory_cfg_pooled, constants, *params): the VirtualMachine passes the first
three.
"""

from __future__ import annotations

import dataclasses
import re

from tvm.runtime.vm import Executable, Opcode, SpecialReg, VirtualMachine, VMFuncKind
from tvm.runtime.vm.bytecode import ArgKind, decode_arg
from tvm.runtime.vm.native import NAIVE_ALLOC_STORAGE, NATIVE_BUILTINS

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# Arguments before a compiled function's own parameters: vm, pooled flag, constants.
PREFIX = 3


def _check_name(name: str, what: str) -> str:
    if not _IDENT.match(name):
        raise ValueError(
            f"relax.build(exec_mode='compiled'): {what} {name!r} is not a C identifier, which "
            "a compiled VM function must be named by; use exec_mode='bytecode'"
        )
    return name


class _FunctionWriter:
    """The C text of one VM function."""

    def __init__(self, ex: Executable, info, kernels: set, statics: list):
        self.ex, self.info, self.kernels, self.statics = ex, info, kernels, statics
        self.names = [f.name for f in ex.functions]
        self.nregs = max(info.register_file_size, 1)
        self.nbound = 0  # VM functions used as values: fv[i], owned, released on return
        self.lines: list[str] = []

    # -- arguments --------------------------------------------------------------------------
    def value(self, arg: int) -> str:
        """A C expression of type TVMFFIAny for one instruction argument (borrowed)."""
        if arg == SpecialReg.VOID_ARG:
            return "tvmvm_imm_none"
        if arg == SpecialReg.VM_STATE:
            return "args[0]"
        kind, value = decode_arg(arg)
        if kind == ArgKind.Register:
            return f"r[{value}]"
        if kind == ArgKind.Immediate:
            return f"tvmvm_imm({value}LL)"
        if kind == ArgKind.ConstIdx:
            if value >= len(self.ex.constants):
                raise ValueError(
                    f"relax.build(exec_mode='compiled'): function {self.info.name!r} uses "
                    f"constant c[{value}] but the pool holds {len(self.ex.constants)}"
                )
            return f"consts[{value}]"
        return self.function_value(value)

    def function_value(self, index: int) -> str:
        """A Function object for a function table entry passed as a value (call_tir_dyn's
        kernel, make_closure's function, a Relax function passed to another)."""
        name = self.names[index]
        info = self.ex.functions[index]
        if info.kind == VMFuncKind.PACKED_FUNC and name in self.kernels:
            cache = self.static(f"fv_{index}")
            make = f"tvmvm_symbol_function(__tvm_ffi_{name}, &{cache})"
        elif info.kind == VMFuncKind.PACKED_FUNC:
            cache = self.static(f"fv_{index}")
            make = f"tvmvm_global({_c_string(name)}, &{cache})"
        else:
            # A VM function as a value (make_closure's, or an argument): a Function bound to
            # this call's vm, pooled flag and constants, made anew as each may differ.
            slot = self.nbound
            self.nbound += 1
            callee = f"__tvm_ffi___vmtir__{_check_name(name, 'VM function')}"
            self.lines.append(
                f"  if (tvmvm_bound_function({callee}, args, &fv[{slot}]) != 0) goto fail;"
            )
            return f"fv[{slot}]"
        self.lines.append(f"  if ({make} != 0) goto fail;")
        return f"tvmvm_obj({cache}, kTVMFFIFunction)"

    def static(self, key: str) -> str:
        name = f"tvmvm_{self.info.name}_{key}"
        if name not in self.statics:
            self.statics.append(name)
        return name

    # -- instructions -----------------------------------------------------------------------
    def call(self, pc: int, ins) -> None:
        name = self.names[ins.func_idx]
        info = self.ex.functions[ins.func_idx]
        out = self.lines
        dst = ins.dst
        void = dst == SpecialReg.VOID_ARG
        if dst != SpecialReg.VOID_ARG:
            kind, reg = decode_arg(dst)
            if kind != ArgKind.Register or reg >= self.nregs:
                raise ValueError(
                    f"relax.build(exec_mode='compiled'): function {self.info.name!r} "
                    f"instruction {pc} writes {dst:#x}, not one of its registers"
                )
            target = f"r[{reg}]"
        values = [self.value(a) for a in ins.args]
        if name == "vm.builtin.null_value" and not values:
            if not void:
                out.append(f"  tvmvm_release(&{target});")
            return
        if name == "vm.builtin.copy" and len(values) == 1:
            if not void:
                out.append(f"  tvmvm_copy(&{target}, &{_lvalue(out, values[0])});")
            return
        prefix = []
        if info.kind != VMFuncKind.PACKED_FUNC:
            prefix = ["args[0]", "args[1]", "args[2]"]
        all_values = prefix + values
        for i, v in enumerate(all_values):
            out.append(f"  a[{i}] = {v};")
        n = len(all_values)
        call = self.callee(name, info, n)
        out.append("  t.type_index = kTVMFFINone; t.v_int64 = 0;")
        out.append(f"  if ({call} != 0) goto fail;")
        if void:
            out.append("  tvmvm_release(&t);")
        else:
            out.append(f"  tvmvm_move(&{target}, &t);")

    def callee(self, name: str, info, n: int) -> str:
        if info.kind != VMFuncKind.PACKED_FUNC:
            _check_name(name, "VM function")
            return f"__tvm_ffi___vmtir__{name}(NULL, a, {n}, &t)"
        if name == "vm.builtin.alloc_storage":
            return (
                f"(args[1].v_int64 ? __tvm_ffi_{NATIVE_BUILTINS[name]}(NULL, a, {n}, &t) : "
                f"__tvm_ffi_{NAIVE_ALLOC_STORAGE}(NULL, a, {n}, &t))"
            )
        if name in NATIVE_BUILTINS:
            return f"__tvm_ffi_{NATIVE_BUILTINS[name]}(NULL, a, {n}, &t)"
        if name in self.kernels:
            return f"__tvm_ffi_{name}(NULL, a, {n}, &t)"
        cache = self.static(f"g_{self.names.index(name)}")
        return (
            f"(tvmvm_global({_c_string(name)}, &{cache}) != 0 || "
            f"TVMFFIFunctionCall({cache}, a, {n}, &t) != 0)"
        )

    def write(self) -> str:
        info = self.info
        _check_name(info.name, "VM function")
        code = self.ex.instructions[info.start_instr : info.end_instr]
        nargs = info.num_args
        width = max([len(ins.args) for ins in code if ins.op == Opcode.Call] + [0]) + PREFIX
        out = self.lines
        for pc, ins in enumerate(code):
            out.append(f" L{pc}:;")
            if ins.op == Opcode.Call:
                self.call(pc, ins)
            elif ins.op == Opcode.Ret:
                out.append(f"  tvmvm_copy(result, &{_lvalue(out, self.value(ins.result))});")
                out.append("  goto done;")
            elif ins.op == Opcode.Goto:
                out.append(f"  goto L{self._jump(pc, ins.offset, len(code))};")
            else:
                cond = _lvalue(out, self.value(ins.cond))
                out.append(f"  if (tvmvm_truth(&{cond}, &flag) != 0) goto fail;")
                out.append(f"  if (!flag) goto L{self._jump(pc, ins.offset, len(code))};")
        body = "\n".join(out)
        nbound = max(self.nbound, 1)
        # The bytecode runner's words (VirtualMachine._arity_message), with the count given:
        # a closure called natively (make_closure's Function) meets only this check.
        message = VirtualMachine._arity_message(info.name, nargs, info.param_names, "\0")
        fmt = _c_string(message.replace("%", "%%").replace("\0", "%d"))
        arity = (
            "    char msg[512];\n"
            f"    snprintf(msg, sizeof msg, {fmt}, (int)num_args - {PREFIX});\n"
            '    return tvmvm_raise("TypeError", msg);'
        )
        return f"""
TVM_FFI_DLL_EXPORT int __tvm_ffi___vmtir__{info.name}(void* self, const TVMFFIAny* args,
                                                   int32_t num_args, TVMFFIAny* result) {{
  (void)self;
  if (num_args != {PREFIX + nargs} || args[2].type_index != kTVMFFIArray) {{
{arity}
  }}
  const TVMFFIAny* consts = TVMFFIArrayGetCell(args[2].v_obj)->data;
  (void)consts;
  const TVMFFIAny tvmvm_imm_none = {{0}};
  (void)tvmvm_imm_none;
  TVMFFIAny r[{self.nregs}];
  TVMFFIAny fv[{nbound}];
  memset(fv, 0, sizeof fv);
  TVMFFIAny a[{width}];
  TVMFFIAny t = {{0}}, tmp = {{0}};
  int flag = 0;
  (void)a; (void)t; (void)tmp; (void)flag;
  memset(r, 0, sizeof r);
  for (int i = 0; i < {nargs}; ++i) tvmvm_copy(&r[i], &args[{PREFIX} + i]);
{body}
  goto done;
 done:
  tvmvm_release_all(r, {self.nregs});
  tvmvm_release_all(fv, {nbound});
  return 0;
 fail:
  tvmvm_release_all(r, {self.nregs});
  tvmvm_release_all(fv, {nbound});
  return -1;
}}
"""

    def _jump(self, pc: int, offset: int, size: int) -> int:
        target = pc + offset
        if not 0 <= target < size:
            raise ValueError(
                f"relax.build(exec_mode='compiled'): function {self.info.name!r} jumps from "
                f"instruction {pc} to {target}, outside its {size} instructions"
            )
        return target


def _lvalue(out: list, value: str) -> str:
    """value as something whose address can be taken (an immediate goes through tmp)."""
    if value.startswith(("r[", "consts[", "args[", "fv[")):
        return value
    out.append(f"  tmp = {value};")
    return "tmp"


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def compile_vm_functions(ex: Executable, kernels) -> tuple[Executable, str]:
    """(ex with every VM function marked VM_TIR_FUNC, the C source of those functions).

    kernels: names of the PrimFuncs compiled into the same library (called directly)."""
    kernels = {k for k in kernels if _IDENT.match(k)}
    statics: list[str] = []
    vm_funcs = [f for f in ex.functions if f.kind == VMFuncKind.VM_FUNC]
    decls = [
        f"TVM_FFI_DLL_EXPORT int __tvm_ffi___vmtir__{_check_name(f.name, 'VM function')}"
        "(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);"
        for f in vm_funcs
    ]
    bodies = [_FunctionWriter(ex, f, kernels, statics).write() for f in vm_funcs]
    kernel_decls = [
        f"TVM_FFI_DLL_EXPORT int __tvm_ffi_{k}(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);"
        for k in sorted(kernels)
    ]
    head = [
        "/* The VM functions, compiled (relax.build(exec_mode='compiled')). */",
        *kernel_decls,
        *decls,
        *(f"static TVMFFIObjectHandle {s};" for s in statics),
    ]
    functions = [
        dataclasses.replace(f, kind=VMFuncKind.VM_TIR_FUNC) if f.kind == VMFuncKind.VM_FUNC else f
        for f in ex.functions
    ]
    compiled = Executable(functions, ex.constants, ex.instructions, ex.lib)
    return compiled, "\n".join(head) + "\n" + "".join(bodies)
