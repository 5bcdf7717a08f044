"""Executable: VM bytecode (function table, constants, instructions) plus its kernel library."""

from __future__ import annotations

import ctypes
import os

from .bytecode import Opcode, VMFuncKind, describe_arg
from .serialize import load_program, save_program

# The library functions through which a linked shared library hands out its embedded bytecode.
BYTECODE_SYMBOL = "__tvm_vm_bytecode"
BYTECODE_SIZE_SYMBOL = "__tvm_vm_bytecode_size"

# function(executable, file_name, **kwargs) writing a library that embeds the bytecode; the
# compiler registers it (linking needs a C compiler, which the runtime does not have).
_LINKERS: list = []


def register_linker(linker) -> None:
    """Let export_library link executables whose bytecode is not yet inside a library."""
    if not callable(linker):
        raise TypeError(
            f"register_linker: argument 'linker' must be callable, got {type(linker).__name__}"
        )
    _LINKERS[:] = [linker]


# How as_text and as_python write Call, Ret, Goto and If (in Opcode order).
_TEXT_FORMS = (
    "call  {func:<16} in: {args:<12} dst: {dst}",
    "ret   {result}",
    "goto  {offset}",
    "If    {cond}, {offset}",
)
_PYTHON_FORMS = (
    "ib.emit_call({func!r}, args=[{args}], dst={dst})",
    "ib.emit_ret({result})",
    "ib.emit_goto({offset})",
    "ib.emit_if({cond}, {offset})",
)


def _render(ins, names, arg, forms) -> str:
    call = ins.op == Opcode.Call
    return forms[int(ins.op) - 1].format(
        func=names[ins.func_idx] if call else "",
        args=", ".join(arg(a) for a in ins.args),
        dst=arg(ins.dst) if call else "",
        result=arg(ins.result),
        cond=arg(ins.cond),
        offset=ins.offset,
    )


class Executable:
    """A VM program: functions, constants and instructions, and the library of its kernels.

    `lib` is the runtime Module the program's packed functions are looked up in first (the
    compiled TIR kernels); when that library embeds this very bytecode (vm_link's output, or a
    loaded file) export_library just writes it out."""

    def __init__(
        self, functions, constants, instructions, lib=None, *, lib_has_bytecode=False, params=None
    ):
        self.functions = list(functions)
        self.constants = list(constants)
        self.instructions = list(instructions)
        self.lib = lib
        self._lib_has_bytecode = lib_has_bytecode
        # Named constants vm_link(params=...) embedded beside the bytecode.
        self.params = dict(params or {})
        self.func_map = {f.name: i for i, f in enumerate(self.functions)}

    # ---- upstream's names -----------------------------------------------------------------

    @property
    def mod(self):
        """The library module (upstream's Executable.mod)."""
        return self.lib

    def jit(self, **_kwargs):
        """The runtime Module with the kernels (already compiled here: returned as is)."""
        return self.lib

    def __contains__(self, name) -> bool:
        return name in self.func_map

    def get_const_var_tensor(self) -> dict:
        """The named constants linked in with vm_link(params=...): {name: Tensor}."""
        return dict(self.params)

    # ---- serialisation --------------------------------------------------------------------

    def save_to_bytes(self) -> bytes:
        """The versioned binary form of the bytecode (not the kernels)."""
        return save_program(self.functions, self.constants, self.instructions)

    @classmethod
    def load_from_bytes(cls, data, lib=None) -> Executable:
        """An Executable from save_to_bytes' output; ValueError for data of another format."""
        functions, constants, instructions = load_program(data)
        return cls(functions, constants, instructions, lib)

    @classmethod
    def from_module(cls, mod) -> Executable:
        """The Executable embedded in a library written by export_library."""
        get = getattr(mod, "get_function", None)
        addr_fn = get(BYTECODE_SYMBOL, allow_missing=True) if get else None
        size_fn = get(BYTECODE_SIZE_SYMBOL, allow_missing=True) if get else None
        if addr_fn is None or size_fn is None:
            raise ValueError(
                f"Executable.from_module: module {getattr(mod, 'path', '') or mod!r} holds no VM "
                "bytecode (it was not written by Executable.export_library)"
            )
        address = addr_fn()
        address = (
            address if isinstance(address, int) else ctypes.cast(address, ctypes.c_void_p).value
        )
        data = ctypes.string_at(address, int(size_fn()))
        functions, constants, instructions = load_program(data)
        from .const_loader import embedded_params, init_submodules

        params = embedded_params(mod)
        if params:
            init_submodules("Executable.from_module", getattr(mod, "imports", ()), params)
        return cls(functions, constants, instructions, mod, lib_has_bytecode=True, params=params)

    def export_library(self, file_name, **kwargs) -> str:
        """Write one shared library holding the kernels and the bytecode; returns its path.

        tvm.runtime.load_module(path) opens it again (in any process with tvm-runtime)."""
        if not isinstance(file_name, (str, os.PathLike)):
            raise TypeError(
                "Executable.export_library: argument 'file_name' must be a path, got "
                f"{type(file_name).__name__}"
            )
        if self._lib_has_bytecode:
            return self.lib.export_library(file_name, **kwargs)
        if not _LINKERS:
            raise RuntimeError(
                "Executable.export_library: this executable's bytecode is not linked into a "
                "library yet, which needs tvm-compiler (import tvm.relax) and a C compiler"
            )
        return _LINKERS[0](self, os.fspath(file_name), **kwargs)

    # ---- text forms -----------------------------------------------------------------------

    def _func_names(self) -> list[str]:
        return [f.name for f in self.functions]

    def as_text(self) -> str:
        """The instructions of each VM function, and the packed functions it names."""
        names = self._func_names()
        lines = []
        for info in self.functions:
            if info.kind == VMFuncKind.PACKED_FUNC:
                continue
            params = ", ".join(info.param_names)
            lines.append(f"@{info.name}({params}):  # registers: {info.register_file_size}")
            for ins in self.instructions[info.start_instr : info.end_instr]:
                lines.append("  " + self._instruction_text(ins, names))
            lines.append("")
        for info in self.functions:
            if info.kind == VMFuncKind.PACKED_FUNC:
                lines.append(f"@{info.name} packed_func;")
        return "\n".join(lines) + "\n"

    def _instruction_text(self, ins, names) -> str:
        return _render(ins, names, lambda a: describe_arg(a, self.constants, names), _TEXT_FORMS)

    def as_python(self) -> str:
        """ExecBuilder code that rebuilds the VM functions (constants referred to by index)."""
        names = self._func_names()
        out = ["ib = relax.ExecBuilder()"]
        for info in self.functions:
            if info.kind == VMFuncKind.PACKED_FUNC:
                continue
            out.append(
                f"with ib.function({info.name!r}, num_inputs={info.num_args}, "
                f"param_names={info.param_names!r}):"
            )
            for ins in self.instructions[info.start_instr : info.end_instr]:
                out.append("    " + self._instruction_python(ins, names))
        return "\n".join(out) + "\n"

    @staticmethod
    def _arg_python(arg) -> str:
        from .bytecode import ArgKind, SpecialReg, decode_arg

        if arg == SpecialReg.VOID_ARG:
            return "ib.void_arg()"
        if arg == SpecialReg.VM_STATE:
            return "ib.vm_state()"
        kind, value = decode_arg(arg)
        return {
            ArgKind.Register: "ib.r({})",
            ArgKind.Immediate: "ib.imm({})",
            ArgKind.ConstIdx: "ib.c({})",
            ArgKind.FuncIdx: "ib.f({})",
        }[kind].format(value)

    def _instruction_python(self, ins, names) -> str:
        return _render(ins, names, self._arg_python, _PYTHON_FORMS)

    def stats(self) -> str:
        """The constant pool and the function table, in brief."""

        def brief(c):
            shape = getattr(c, "shape", None)
            return f"[{', '.join(str(d) for d in shape)}]" if shape is not None else repr(c)

        consts = ", ".join(brief(c) for c in self.constants)
        return (
            "Relax VM executable statistics:\n"
            f"  Constant pool (# {len(self.constants)}): [{consts}]\n"
            f"  Globals (#{len(self.functions)}): [{', '.join(self._func_names())}]\n"
        )

    def __repr__(self) -> str:
        return f"Executable(functions={self._func_names()})"
