"""The bytecode interpreter: each VM function is pre-decoded into basic blocks of calls whose
arguments are all frame slots, so the hot loop is one tuple unpack and one call per instruction.

A frame is a list: the function's registers, then one slot each for the void argument, the VM
itself, a sink for discarded results, and every constant, immediate and function the body
names. A new frame is a copy of that template (one C-level list copy), so reading any argument
is an index, and an instruction's arguments are gathered by one operator.itemgetter.
"""

from __future__ import annotations

import operator

from .builtins import read_if_cond
from .bytecode import ArgKind, Opcode, SpecialReg, VMFuncKind, decode_arg

_RET, _GOTO, _IF = 0, 1, 2


def _no_args(_frame):
    return ()


def _gatherer(slots: list[int]):
    if not slots:
        return _no_args
    if len(slots) == 1:
        (slot,) = slots

        def one(frame):
            return (frame[slot],)

        return one
    return operator.itemgetter(*slots)


class _Layout:
    """Where each argument of one function lives in its frame; builds the frame template."""

    def __init__(self, info, constants, callables, vm):
        self.info = info
        self.nregs = info.register_file_size
        base = self.nregs
        self.void, self.vm, self.sink = base, base + 1, base + 2
        self.template = [None] * (base + 3)
        self.template[self.vm] = vm
        self.constants, self.callables = constants, callables
        self.slot_of: dict = {}

    def slot(self, arg: int) -> int:
        if arg == SpecialReg.VOID_ARG:
            return self.void
        if arg == SpecialReg.VM_STATE:
            return self.vm
        kind, value = decode_arg(arg)
        if kind == ArgKind.Register:
            if value >= self.nregs:
                raise ValueError(
                    f"VirtualMachine: function {self.info.name!r} uses register %{value} but "
                    f"declares {self.nregs} registers"
                )
            return value
        key = (kind, value)
        slot = self.slot_of.get(key)
        if slot is None:
            if kind == ArgKind.ConstIdx:
                if value >= len(self.constants):
                    raise ValueError(
                        f"VirtualMachine: function {self.info.name!r} uses constant c[{value}] "
                        f"but the pool holds {len(self.constants)}"
                    )
                item = self.constants[value]
            elif kind == ArgKind.FuncIdx:
                item = self.callables[value]
            else:
                item = value
            slot = len(self.template)
            self.template.append(item)
            self.slot_of[key] = slot
        return slot

    def dst(self, arg: int) -> int:
        return self.sink if arg == SpecialReg.VOID_ARG else self.slot(arg)


def _leaders(code) -> list[int]:
    starts = {0}
    for pc, ins in enumerate(code):
        if ins.op == Opcode.Goto:
            starts.update((pc + ins.offset, pc + 1))
        elif ins.op == Opcode.If:
            starts.update((pc + 1, pc + ins.offset))
        elif ins.op == Opcode.Ret:
            starts.add(pc + 1)
    return sorted(s for s in starts if 0 <= s < len(code))


def _null():
    return None


def decode_function(
    info, instructions, constants, callables, vm, wrap=None, names=None, nulls=frozenset()
):
    """(layout, blocks) of a VM function; wrap(fn, func_idx) may wrap each call (profiling).
    nulls: the function table indices of vm.builtin.null_value (KillAfterLastUse's way to drop
    a register): a call to one without arguments becomes a plain store of None.

    A block is (calls, kind, a, t, f). calls are (callable, argument slots, destination slot,
    where: the pc and the callee's name, for error notes), callable None for a store of None;
    kind _RET returns slot a, _GOTO goes to block t, _IF goes to t when slot a is true, else f.
    """
    layout = _Layout(info, constants, callables, vm)
    code = instructions[info.start_instr : info.end_instr]
    name = info.name
    for pc, ins in enumerate(code):
        target = None
        if ins.op in (Opcode.Goto, Opcode.If):
            target = pc + ins.offset
        if target == pc:  # nothing runs between the jump and itself: it would spin forever
            raise ValueError(
                f"VirtualMachine: function {name!r} jumps from instruction {pc} to itself"
            )
        if target is not None and not 0 <= target < len(code):
            raise ValueError(
                f"VirtualMachine: function {name!r} jumps from instruction {pc} to {target}, "
                f"outside its {len(code)} instructions"
            )
    starts = _leaders(code)
    block_of = {s: i for i, s in enumerate(starts)}
    blocks = []
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(code)
        calls = []
        term = None
        for pc in range(start, end):
            ins = code[pc]
            if ins.op == Opcode.Call:
                if not 0 <= ins.func_idx < len(callables):
                    raise ValueError(
                        f"VirtualMachine: function {name!r} calls f[{ins.func_idx}], outside "
                        f"the function table of {len(callables)}"
                    )
                fn = callables[ins.func_idx]
                if wrap is not None:
                    fn = wrap(fn, ins.func_idx)
                elif ins.func_idx in nulls and not ins.args:
                    fn = None
                slots = [layout.slot(a) for a in ins.args]
                callee = names[ins.func_idx] if names else f"f[{ins.func_idx}]"
                calls.append((fn, slots, layout.dst(ins.dst), f"{pc}: call {callee}"))
            elif ins.op == Opcode.Ret:
                term = (_RET, layout.slot(ins.result), 0, 0)
            elif ins.op == Opcode.Goto:
                term = (_GOTO, 0, block_of[pc + ins.offset], 0)
            else:
                term = (_IF, layout.slot(ins.cond), block_of[pc + 1], block_of[pc + ins.offset])
        if term is None:
            if end >= len(code):
                raise ValueError(
                    f"VirtualMachine: function {name!r} runs past its last instruction "
                    "(its body must end in ret or goto)"
                )
            term = (_GOTO, 0, block_of[end], 0)
        blocks.append((tuple(calls), *term))
    if not blocks:
        raise ValueError(f"VirtualMachine: function {name!r} has no instructions")
    return layout, blocks


def make_runner(layout, blocks, nargs: int, name: str = ""):
    """frame-running function(args) for one decoded VM function (the portable loop; the VM
    runs the Python code that codegen.py generates from the same blocks, which is faster)."""
    template = layout.template
    blocks = [
        (
            tuple(
                (_null if fn is None else fn, _gatherer(slots), dst)
                for fn, slots, dst, _where in calls
            ),
            *rest,
        )
        for calls, *rest in blocks
    ]
    if len(blocks) == 1 and blocks[0][1] == _RET:
        # Straight-line code: no dispatch loop at all.
        calls, _, ret, _, _ = blocks[0]

        def run_straight(args):
            frame = template.copy()
            frame[:nargs] = args
            for fn, gather, dst in calls:
                frame[dst] = fn(*gather(frame))
            return frame[ret]

        return run_straight

    def run(args):
        frame = template.copy()
        frame[:nargs] = args
        block = blocks[0]
        while True:
            calls, kind, a, t, f = block
            for fn, gather, dst in calls:
                frame[dst] = fn(*gather(frame))
            if kind == _RET:
                return frame[a]
            if kind == _IF:
                cond = frame[a]
                if cond.__class__ is not bool and cond.__class__ is not int:
                    cond = read_if_cond(cond)
                block = blocks[t if cond else f]
            else:
                block = blocks[t]

    return run


def is_vm_function(info) -> bool:
    return info.kind == VMFuncKind.VM_FUNC
