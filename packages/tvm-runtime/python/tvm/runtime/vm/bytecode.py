"""The VM's instructions and how their arguments are encoded in one 64-bit integer."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class ArgKind(enum.IntEnum):
    """What an instruction argument refers to (the top 8 bits of its encoding, as upstream)."""

    Register = 0
    Immediate = 1
    ConstIdx = 2
    FuncIdx = 3


KIND_SHIFT = 56
VALUE_MASK = (1 << KIND_SHIFT) - 1
# Immediates are signed: the 56 value bits hold two's complement, so this is their range.
IMM_MIN = -(1 << (KIND_SHIFT - 1))
IMM_MAX = (1 << (KIND_SHIFT - 1)) - 1


class SpecialReg(enum.IntEnum):
    """Registers that are no frame slot: the void argument and the VM itself (upstream values)."""

    VOID_ARG = 1 << 54
    VM_STATE = (1 << 54) + 1


class Opcode(enum.IntEnum):
    Call = 1
    Ret = 2
    Goto = 3
    If = 4


class VMFuncKind(enum.IntEnum):
    """A function table entry: a packed function found by name, bytecode, or a compiled VM
    function (looked up as ``__vmtir__<name>`` in the executable's library)."""

    PACKED_FUNC = 0
    VM_FUNC = 1
    VM_TIR_FUNC = 2


def encode_arg(kind: ArgKind, value: int) -> int:
    if kind == ArgKind.Immediate:
        if not IMM_MIN <= value <= IMM_MAX:
            raise ValueError(
                f"ExecBuilder.imm: argument 'value' {value} does not fit the 56-bit immediate "
                f"range [{IMM_MIN}, {IMM_MAX}]"
            )
        value &= VALUE_MASK
    elif not 0 <= value <= VALUE_MASK:
        raise ValueError(
            f"bytecode: a {kind.name} argument must be in [0, {VALUE_MASK}], got {value}"
        )
    return (int(kind) << KIND_SHIFT) | value


def decode_arg(arg: int) -> tuple[ArgKind, int]:
    kind = arg >> KIND_SHIFT
    value = arg & VALUE_MASK
    try:
        kind = ArgKind(kind)
    except ValueError:
        raise ValueError(f"bytecode: argument {arg:#x} has unknown kind {kind}") from None
    if kind == ArgKind.Immediate and value > IMM_MAX:
        value -= 1 << KIND_SHIFT
    return kind, value


@dataclass
class Instruction:
    """One instruction. Call: func_idx, args, dst; Ret: result; Goto: offset;
    If: cond (a register), offset (the jump taken when cond is false)."""

    op: Opcode
    func_idx: int = 0
    args: list[int] = field(default_factory=list)
    dst: int = 0
    result: int = 0
    cond: int = 0
    offset: int = 0


@dataclass
class VMFuncInfo:
    """A function table entry; VM functions own the instructions [start_instr, end_instr)."""

    kind: VMFuncKind
    name: str
    start_instr: int = 0
    end_instr: int = 0
    num_args: int = -1
    register_file_size: int = 0
    param_names: list[str] = field(default_factory=list)


def describe_arg(arg: int, constants=None, func_names=None) -> str:
    """The text form of an argument: %3, i7, c[0], f[name], %void, %vm."""
    if arg == SpecialReg.VOID_ARG:
        return "%void"
    if arg == SpecialReg.VM_STATE:
        return "%vm"
    kind, value = decode_arg(arg)
    if kind == ArgKind.Register:
        return f"%{value}"
    if kind == ArgKind.Immediate:
        return f"i{value}"
    if kind == ArgKind.ConstIdx:
        return f"c[{value}]"
    name = func_names[value] if func_names and value < len(func_names) else value
    return f"f[{name}]"
