"""relax.ExecBuilder: write VM bytecode by hand (and what the Relax code generator emits)."""

from __future__ import annotations

import contextlib
import dataclasses

import tvm_ffi
from tvm.runtime.vm import Executable, Instruction, Opcode, SpecialReg, VMFuncInfo, VMFuncKind
from tvm.runtime.vm.bytecode import ArgKind, decode_arg, encode_arg

from . import vm_link as _vm_link  # noqa: F401  (registers Executable.export_library's linker)


class VMFuncScope(contextlib.AbstractContextManager):
    """The body of one VM function: emit_* calls go into it until the `with` block ends."""

    def __init__(self, builder: ExecBuilder, info: VMFuncInfo):
        self._builder = builder
        self._info = info

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self._builder._end_function(self._info, failed=exc_type is not None)
        return False


class ExecBuilder:
    """Builds an Executable instruction by instruction, with upstream's API."""

    def __init__(self):
        self._functions: list[VMFuncInfo] = []
        self._func_map: dict[str, int] = {}
        self._constants: list = []
        self._constant_keys: dict = {}
        self._instructions: list[Instruction] = []
        self._current: VMFuncInfo | None = None
        self._max_reg = -1

    # ---- functions ------------------------------------------------------------------------

    def declare_function(self, func_name: str, kind: VMFuncKind = VMFuncKind.PACKED_FUNC) -> None:
        """Add func_name to the function table (so that f(name) may name it before its body)."""
        if not isinstance(func_name, str) or not func_name:
            raise TypeError(
                f"ExecBuilder.declare_function: argument 'func_name' must be a non-empty str, "
                f"got {func_name!r}"
            )
        index = self._func_map.get(func_name)
        if index is not None:
            existing = self._functions[index]
            if existing.kind != kind:
                raise ValueError(
                    f"ExecBuilder.declare_function: {func_name!r} is already declared as "
                    f"{existing.kind.name}, not {VMFuncKind(kind).name}"
                )
            return
        self._func_map[func_name] = len(self._functions)
        self._functions.append(VMFuncInfo(VMFuncKind(kind), func_name))

    def function(
        self, func_name: str, num_inputs: int | None = 0, param_names: list[str] | None = None
    ) -> VMFuncScope:
        """``with ib.function("main", num_inputs=2):`` opens the body of a VM function."""
        if self._current is not None:
            raise ValueError(
                f"ExecBuilder.function: cannot open {func_name!r} inside the body of "
                f"{self._current.name!r}"
            )
        num_inputs = 0 if num_inputs is None else num_inputs
        if not isinstance(num_inputs, int) or num_inputs < 0:
            raise ValueError(
                f"ExecBuilder.function: argument 'num_inputs' must be an int >= 0, got "
                f"{num_inputs!r}"
            )
        names = [f"arg{i}" for i in range(num_inputs)] if param_names is None else param_names
        names = [str(n) for n in names]
        if len(names) != num_inputs:
            raise ValueError(
                f"ExecBuilder.function: {func_name!r} has num_inputs={num_inputs} but "
                f"{len(names)} param_names {names}"
            )
        self.declare_function(func_name, VMFuncKind.VM_FUNC)
        info = self._functions[self._func_map[func_name]]
        if info.end_instr > info.start_instr:
            raise ValueError(f"ExecBuilder.function: {func_name!r} already has a body")
        info.start_instr = len(self._instructions)
        info.num_args = num_inputs
        info.param_names = names
        self._current = info
        self._max_reg = num_inputs - 1
        return VMFuncScope(self, info)

    def _end_function(self, info: VMFuncInfo, failed: bool) -> None:
        self._current = None
        info.end_instr = len(self._instructions)
        info.register_file_size = self._max_reg + 1
        if not failed and info.end_instr == info.start_instr:
            raise ValueError(f"ExecBuilder.function: {info.name!r} has an empty body")

    def _check_scope(self, what: str) -> None:
        if self._current is None:
            raise ValueError(
                f"ExecBuilder.{what}: must be called inside a `with ib.function(...)` block"
            )

    # ---- arguments ------------------------------------------------------------------------

    def r(self, idx: int) -> int:
        """Register idx of the current function."""
        return encode_arg(ArgKind.Register, int(idx))

    def imm(self, value: int) -> int:
        """An integer immediate."""
        return encode_arg(ArgKind.Immediate, int(value))

    def c(self, idx: int) -> int:
        """Constant idx of the pool."""
        return encode_arg(ArgKind.ConstIdx, int(idx))

    def f(self, name: str) -> int:
        """The function table entry `name`."""
        index = self._func_map.get(name)
        if index is None:
            raise ValueError(
                f"ExecBuilder.f: no function {name!r} is declared (declare_function first)"
            )
        return encode_arg(ArgKind.FuncIdx, index)

    def void_arg(self) -> int:
        """The void register: null as an argument, discard as a destination."""
        return int(SpecialReg.VOID_ARG)

    void_register = void_arg

    def vm_state(self) -> int:
        """The VM itself, as the builtins that allocate take it."""
        return int(SpecialReg.VM_STATE)

    def convert_constant(self, const) -> int:
        """Put const in the pool (once per distinct value) and return the argument naming it."""
        if isinstance(const, tvm_ffi.Tensor):
            key = _tensor_key(const)
        elif not _hashable(const):
            key = ("id", id(const))
        else:
            key = (type(const).__name__, _const_key(const))
        index = self._constant_keys.get(key)
        if index is None:
            index = len(self._constants)
            self._constants.append(const)
            self._constant_keys[key] = index
        return self.c(index)

    def _use(self, arg: int) -> int:
        if not isinstance(arg, int) or isinstance(arg, bool):
            return self.convert_constant(arg)
        if arg in (SpecialReg.VOID_ARG, SpecialReg.VM_STATE):
            return int(arg)
        kind, value = decode_arg(arg)
        if kind == ArgKind.Register:
            self._max_reg = max(self._max_reg, value)
        elif kind == ArgKind.ConstIdx and value >= len(self._constants):
            raise ValueError(
                f"ExecBuilder: constant c[{value}] is not in the pool of {len(self._constants)}"
            )
        elif kind == ArgKind.FuncIdx and value >= len(self._functions):
            raise ValueError(f"ExecBuilder: function f[{value}] is not in the function table")
        return arg

    # ---- instructions ---------------------------------------------------------------------

    def emit_call(self, name: str, args: list | None = None, dst: int | None = None) -> None:
        """Call `name` (a packed function, declared on first use, or a VM function)."""
        self._check_scope("emit_call")
        if name not in self._func_map:
            self.declare_function(name, VMFuncKind.PACKED_FUNC)
        encoded = [self._use(a) for a in (args or [])]
        dst = self.void_arg() if dst is None else dst
        if dst != SpecialReg.VOID_ARG:
            kind, _ = decode_arg(dst)
            if kind != ArgKind.Register:
                raise ValueError(
                    f"ExecBuilder.emit_call: argument 'dst' must be a register, got {kind.name}"
                )
            self._use(dst)
        self._instructions.append(
            Instruction(Opcode.Call, func_idx=self._func_map[name], args=encoded, dst=dst)
        )

    def emit_ret(self, result: int) -> None:
        """Return register `result`."""
        self._check_scope("emit_ret")
        self._instructions.append(Instruction(Opcode.Ret, result=self._use(result)))

    def emit_goto(self, pc_offset: int) -> None:
        """Jump by pc_offset instructions."""
        self._check_scope("emit_goto")
        self._instructions.append(Instruction(Opcode.Goto, offset=int(pc_offset)))

    def emit_if(self, cond: int, false_offset: int) -> None:
        """Go on when register cond is true, else jump by false_offset instructions."""
        self._check_scope("emit_if")
        self._instructions.append(
            Instruction(Opcode.If, cond=self._use(cond), offset=int(false_offset))
        )

    def get(self) -> Executable:
        """The Executable built so far."""
        if self._current is not None:
            raise ValueError(f"ExecBuilder.get: the body of {self._current.name!r} is still open")
        for info in self._functions:
            if info.kind == VMFuncKind.VM_FUNC and info.end_instr == info.start_instr:
                raise ValueError(
                    f"ExecBuilder.get: VM function {info.name!r} is declared but has no body"
                )
            for pc in range(info.start_instr, info.end_instr):
                ins = self._instructions[pc]
                # 0 is the placeholder the code generator patches; one left makes the VM spin.
                if ins.op in (Opcode.Goto, Opcode.If) and ins.offset == 0:
                    raise ValueError(
                        f"ExecBuilder.get: VM function {info.name!r} jumps to itself at "
                        f"instruction {pc - info.start_instr} (emit_goto/emit_if with offset 0 "
                        "never ends)"
                    )
        # As upstream: registers renumbered in order of first definition, then every register
        # read checked to be a parameter or defined by an earlier instruction.
        infos = [_copy_info(f) for f in self._functions]
        instructions = [dataclasses.replace(i, args=list(i.args)) for i in self._instructions]
        for info in infos:
            if info.kind == VMFuncKind.VM_FUNC:
                _formalize(info, instructions)
                _check_registers(info, instructions, self._functions)
        return Executable(infos, self._constants, instructions)


_SPECIAL = (SpecialReg.VOID_ARG, SpecialReg.VM_STATE)


def _register(arg):
    """The register index arg names, or None when it names no frame register."""
    if arg in _SPECIAL:
        return None
    kind, value = decode_arg(arg)
    return value if kind == ArgKind.Register else None


def _formalize(info: VMFuncInfo, instructions: list) -> None:
    """Renumber info's registers past its parameters 0, 1, 2, ... in order of first definition
    (as the destination of a call) and size its register file to match."""
    mapping: dict = {}
    next_reg = max(info.num_args, 0)

    def remap(arg):
        reg = _register(arg)
        if reg is None or reg < info.num_args or reg not in mapping:
            return arg
        return encode_arg(ArgKind.Register, mapping[reg])

    for ins in instructions[info.start_instr : info.end_instr]:
        if ins.op == Opcode.Call:
            ins.args = [remap(a) for a in ins.args]
            reg = _register(ins.dst)
            if reg is not None and reg >= info.num_args:
                if reg not in mapping:
                    mapping[reg] = next_reg
                    next_reg += 1
                ins.dst = encode_arg(ArgKind.Register, mapping[reg])
        elif ins.op == Opcode.Ret:
            ins.result = remap(ins.result)
        elif ins.op == Opcode.If:
            ins.cond = remap(ins.cond)
    info.register_file_size = next_reg


def _check_registers(info: VMFuncInfo, instructions: list, functions: list) -> None:
    from tvm.error import InternalError
    from tvm.runtime.vm.bytecode import describe_arg

    defined: set = set()
    for ins in instructions[info.start_instr : info.end_instr]:
        reads = {Opcode.Call: ins.args, Opcode.Ret: [ins.result], Opcode.If: [ins.cond]}
        for arg in reads.get(ins.op, []):
            reg = _register(arg)
            if reg is not None and reg >= info.num_args and reg not in defined:
                names = [f.name for f in functions]
                raise InternalError(
                    f"register r({reg}) in VM function {info.name!r} is used as input "
                    f"(as {describe_arg(arg, None, names)}) while it is never defined as a "
                    f"destination before; the function has {info.num_args} parameter(s)"
                )
        if ins.op == Opcode.Call and _register(ins.dst) is not None:
            defined.add(_register(ins.dst))


def _copy_info(info: VMFuncInfo) -> VMFuncInfo:
    return VMFuncInfo(
        info.kind,
        info.name,
        info.start_instr,
        info.end_instr,
        info.num_args,
        info.register_file_size,
        list(info.param_names),
    )


def _tensor_key(tensor):
    """A host tensor's pool key is its content (equal tensors share one slot, as upstream's
    structural dedup); a device tensor's is its identity."""
    import hashlib

    if tensor.device.device_type != 1:  # not kDLCPU
        return ("id", id(tensor))
    digest = hashlib.blake2b(tensor.numpy().tobytes(), digest_size=32).digest()
    return ("tensor", str(tensor.dtype), tuple(tensor.shape), digest)


def _hashable(value) -> bool:
    try:
        hash(_const_key(value))
    except TypeError:
        return False
    return True


def _const_key(value):
    if isinstance(value, (tvm_ffi.Shape, tvm_ffi.Array, list, tuple)):
        return tuple(_const_key(v) for v in value)
    if isinstance(value, tvm_ffi.dtype):
        return str(value)
    return value
