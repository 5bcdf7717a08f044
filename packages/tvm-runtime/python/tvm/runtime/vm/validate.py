"""Checks that a program read from bytes refers only to what it holds (a corrupt file is a
ValueError at load time, never a frame of billions of registers or an out-of-range index)."""

from __future__ import annotations

from .bytecode import ArgKind, Opcode, SpecialReg, VMFuncKind, decode_arg

WHERE = "Executable.load_from_bytes"


def _corrupt(message: str) -> ValueError:
    return ValueError(f"{WHERE}: corrupt data: {message}")


def _check_arg(arg: int, info, nconst: int, nfunc: int, what: str) -> int:
    """The register arg names (-1 for none), after checking what it refers to exists."""
    if arg in (SpecialReg.VOID_ARG, SpecialReg.VM_STATE):
        return -1
    try:
        kind, value = decode_arg(arg)
    except ValueError as err:
        raise _corrupt(f"function {info.name!r}: {what}: {err}") from None
    limits = {
        ArgKind.Register: (info.register_file_size, "registers"),
        ArgKind.ConstIdx: (nconst, "constants"),
        ArgKind.FuncIdx: (nfunc, "functions"),
    }
    if kind in limits and value >= limits[kind][0]:
        limit, things = limits[kind]
        raise _corrupt(
            f"function {info.name!r}: {what} names {kind.name} {value}, but there are "
            f"{limit} {things}"
        )
    return value if kind == ArgKind.Register else -1


def _check_function(info, instructions: list, nconst: int, nfunc: int) -> None:
    start, end = info.start_instr, info.end_instr
    if not 0 <= start <= end <= len(instructions):
        raise _corrupt(
            f"function {info.name!r} owns instructions [{start}, {end}) of {len(instructions)}"
        )
    if not 0 <= info.num_args <= info.register_file_size or info.num_args != len(info.param_names):
        raise _corrupt(
            f"function {info.name!r} takes {info.num_args} argument(s) with "
            f"{len(info.param_names)} parameter name(s) in {info.register_file_size} registers"
        )
    used = info.num_args
    for pc in range(start, end):
        ins = instructions[pc]
        what = f"instruction {pc - start}"
        regs = []
        if ins.op == Opcode.Call:
            if not 0 <= ins.func_idx < nfunc:
                raise _corrupt(
                    f"function {info.name!r}: {what} calls function {ins.func_idx}, but there "
                    f"are {nfunc}"
                )
            regs = [_check_arg(a, info, nconst, nfunc, what) for a in (*ins.args, ins.dst)]
        elif ins.op == Opcode.Ret:
            regs = [_check_arg(ins.result, info, nconst, nfunc, what)]
        elif ins.op == Opcode.If:
            regs = [_check_arg(ins.cond, info, nconst, nfunc, what)]
        if ins.op in (Opcode.Goto, Opcode.If) and ins.offset == 0:
            raise _corrupt(f"function {info.name!r}: {what} jumps to itself")
        if ins.op in (Opcode.Goto, Opcode.If) and not start <= pc + ins.offset < end:
            raise _corrupt(
                f"function {info.name!r}: {what} jumps by {ins.offset}, outside its "
                f"{end - start} instructions"
            )
        used = max(used, max(regs, default=-1) + 1)
    # A register past every one the body names, beyond one per instruction, can only come
    # from corruption; the VM would still build a frame (and Python code) of that many.
    if info.register_file_size > max(used, info.num_args + end - start):
        raise _corrupt(
            f"function {info.name!r} declares {info.register_file_size} registers for "
            f"{end - start} instructions that name {used}"
        )


def check_program(functions: list, constants: list, instructions: list) -> None:
    """ValueError naming Executable.load_from_bytes when the program is inconsistent."""
    for info in functions:
        if info.kind in (VMFuncKind.VM_FUNC, VMFuncKind.VM_TIR_FUNC):
            _check_function(info, instructions, len(constants), len(functions))
