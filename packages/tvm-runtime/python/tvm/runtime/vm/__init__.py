"""tvm.runtime.vm: the Relax virtual machine, its executable format and its builtins."""

from . import builtins, builtins_run  # noqa: F401  (registers relax.run.assert_op / print)
from .builtins import VMClosure
from .bytecode import ArgKind, Instruction, Opcode, SpecialReg, VMFuncInfo, VMFuncKind
from .executable import Executable, register_linker
from .profiler import ProfileReport
from .serialize import VERSION as BYTECODE_VERSION
from .shape_codes import MakeShapeCode, MatchShapeCode
from .storage import Storage
from .virtual_machine import VirtualMachine

__all__ = [
    "BYTECODE_VERSION",
    "ArgKind",
    "Executable",
    "Instruction",
    "MakeShapeCode",
    "MatchShapeCode",
    "Opcode",
    "ProfileReport",
    "SpecialReg",
    "Storage",
    "VMClosure",
    "VMFuncInfo",
    "VMFuncKind",
    "VirtualMachine",
    "builtins",
    "register_linker",
]
