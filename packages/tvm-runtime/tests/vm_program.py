"""A tiny bytecode writer for the runtime's VM tests (ExecBuilder lives in the compiler)."""

from __future__ import annotations

from tvm.runtime.vm import (
    ArgKind,
    Executable,
    Instruction,
    Opcode,
    SpecialReg,
    VMFuncInfo,
    VMFuncKind,
)
from tvm.runtime.vm.bytecode import encode_arg

VOID = int(SpecialReg.VOID_ARG)
VM = int(SpecialReg.VM_STATE)


def r(i):
    return encode_arg(ArgKind.Register, i)


def imm(v):
    return encode_arg(ArgKind.Immediate, v)


def c(i):
    return encode_arg(ArgKind.ConstIdx, i)


def f(i):
    return encode_arg(ArgKind.FuncIdx, i)


class Program:
    """funcs: name -> kind; add VM functions with body(name, nargs, regs, instructions)."""

    def __init__(self):
        self.functions: list[VMFuncInfo] = []
        self.constants: list = []
        self.instructions: list[Instruction] = []

    def index(self, name, kind=VMFuncKind.PACKED_FUNC):
        for i, info in enumerate(self.functions):
            if info.name == name:
                return i
        self.functions.append(VMFuncInfo(kind, name))
        return len(self.functions) - 1

    def const(self, value):
        self.constants.append(value)
        return c(len(self.constants) - 1)

    def function(self, name, params, nregs, body):
        """body: a list of ("call", func_name, args, dst) / ("ret", reg) / ("goto", off) /
        ("if", cond, off)."""
        info = self.functions[self.index(name, VMFuncKind.VM_FUNC)]
        info.kind = VMFuncKind.VM_FUNC
        info.start_instr = len(self.instructions)
        info.num_args = len(params)
        info.param_names = list(params)
        info.register_file_size = nregs
        for op, *rest in body:
            if op == "call":
                callee, args, dst = rest
                self.instructions.append(
                    Instruction(Opcode.Call, func_idx=self.index(callee), args=args, dst=dst)
                )
            elif op == "ret":
                self.instructions.append(Instruction(Opcode.Ret, result=rest[0]))
            elif op == "goto":
                self.instructions.append(Instruction(Opcode.Goto, offset=rest[0]))
            else:
                self.instructions.append(Instruction(Opcode.If, cond=rest[0], offset=rest[1]))
        info.end_instr = len(self.instructions)
        return self

    def executable(self) -> Executable:
        return Executable(self.functions, self.constants, self.instructions)
