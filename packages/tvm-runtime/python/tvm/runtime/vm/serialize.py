"""The executable's versioned binary form: function table, constant pool, instructions."""

from __future__ import annotations

import ctypes
import math
import struct

import tvm_ffi

from .bytecode import Instruction, Opcode, VMFuncInfo, VMFuncKind
from .validate import check_program

MAGIC = b"TVMSVMEX"
# Bump on any change of the layout below; a blob of another version is refused, not guessed at.
VERSION = 1

_U8, _U32, _I64, _F64 = (
    struct.Struct("<B"),
    struct.Struct("<I"),
    struct.Struct("<q"),
    struct.Struct("<d"),
)

# How deep tuple constants may nest: a file nesting deeper is refused (not a RecursionError).
MAX_CONST_DEPTH = 256

# Constant pool tags.
_NONE, _INT, _FLOAT, _STR, _SHAPE, _DTYPE, _TENSOR, _BOOL, _BYTES, _TUPLE = range(10)


class _Writer:
    def __init__(self):
        self.parts: list[bytes] = []

    def u8(self, v):
        self.parts.append(_U8.pack(v))

    def u32(self, v):
        self.parts.append(_U32.pack(v))

    def i64(self, v):
        self.parts.append(_I64.pack(v))

    def u64(self, v):
        self.parts.append(struct.pack("<Q", v))

    def f64(self, v):
        self.parts.append(_F64.pack(v))

    def raw(self, data: bytes):
        self.i64(len(data))
        self.parts.append(data)

    def str(self, s: str):
        self.raw(s.encode())


class _Reader:
    WHERE = "Executable.load_from_bytes"

    def __init__(self, data: bytes):
        self.data = memoryview(data)
        self.pos = 0

    def take(self, n: int, what: str) -> memoryview:
        if n < 0 or self.pos + n > len(self.data):
            raise ValueError(
                f"{self.WHERE}: truncated data: {what} needs {n} bytes at offset {self.pos}, "
                f"only {len(self.data) - self.pos} left"
            )
        view = self.data[self.pos : self.pos + n]
        self.pos += n
        return view

    def u8(self, what):
        return _U8.unpack(self.take(1, what))[0]

    def u32(self, what):
        return _U32.unpack(self.take(4, what))[0]

    def i64(self, what):
        return _I64.unpack(self.take(8, what))[0]

    def u64(self, what):
        return struct.unpack("<Q", self.take(8, what))[0]

    def f64(self, what):
        return _F64.unpack(self.take(8, what))[0]

    def raw(self, what) -> bytes:
        return bytes(self.take(self.i64(f"the length of {what}"), what))

    def str(self, what) -> str:
        raw = self.raw(what)
        try:
            return raw.decode()
        except UnicodeDecodeError:
            raise ValueError(
                f"{self.WHERE}: corrupt data: {what} is not UTF-8: {raw[:32]!r}"
            ) from None

    def count(self, what, item_bytes: int = 1) -> int:
        # A count can never exceed what is left to read: refuse a corrupt one before looping.
        n = self.i64(f"the count of {what}")
        if n < 0 or n * item_bytes > len(self.data) - self.pos:
            raise ValueError(
                f"{self.WHERE}: truncated data: {n} {what} cannot fit in the "
                f"{len(self.data) - self.pos} bytes left at offset {self.pos}"
            )
        return n


def _tensor_bytes(t) -> bytes:
    from ..dlpack_pointer import data_pointer
    from ..tensor import copy_tensor, empty

    if int(t.device.device_type) != 1:
        host = empty(tuple(t.shape), str(t.dtype))
        copy_tensor(host, t)
        t = host
    dt = tvm_ffi.dtype(str(t.dtype))
    nbytes = math.prod(t.shape) * ((dt.bits * dt.lanes + 7) // 8)
    return ctypes.string_at(data_pointer(t), nbytes) if nbytes else b""


def _write_const(w: _Writer, value, depth: int = 0) -> None:
    if value is None:
        w.u8(_NONE)
    elif isinstance(value, bool):
        w.u8(_BOOL)
        w.u8(int(value))
    elif isinstance(value, int):
        w.u8(_INT)
        w.i64(value)
    elif isinstance(value, float):
        w.u8(_FLOAT)
        w.f64(value)
    elif isinstance(value, str):
        w.u8(_STR)
        w.str(value)
    elif isinstance(value, tvm_ffi.Shape):
        w.u8(_SHAPE)
        w.i64(len(value))
        for d in value:
            w.i64(int(d))
    elif isinstance(value, tvm_ffi.dtype):
        w.u8(_DTYPE)
        w.str(str(value))
    elif isinstance(value, tvm_ffi.Tensor):
        w.u8(_TENSOR)
        w.str(str(value.dtype))
        w.i64(len(value.shape))
        for d in value.shape:
            w.i64(int(d))
        w.raw(_tensor_bytes(value))
    elif isinstance(value, (bytes, bytearray)):
        w.u8(_BYTES)
        w.raw(bytes(value))
    elif isinstance(value, (tuple, list, tvm_ffi.Array)):
        if depth >= MAX_CONST_DEPTH:
            raise ValueError(
                f"Executable.save_to_bytes: a tuple constant nests more than {MAX_CONST_DEPTH} deep"
            )
        w.u8(_TUPLE)
        w.i64(len(value))
        for item in value:
            _write_const(w, item, depth + 1)
    else:
        raise TypeError(
            f"Executable.save_to_bytes: a constant of type {type(value).__name__} cannot be "
            "serialised (expected a tensor, shape, str, int, float, bool, dtype, bytes, tuple "
            "or None)"
        )


def _read_const(r: _Reader, depth: int = 0):
    tag = r.u8("a constant's tag")
    if tag == _NONE:
        return None
    if tag == _BOOL:
        return bool(r.u8("a bool constant"))
    if tag == _INT:
        return r.i64("an int constant")
    if tag == _FLOAT:
        return r.f64("a float constant")
    if tag == _STR:
        return r.str("a str constant")
    if tag == _SHAPE:
        n = r.count("shape dimensions", 8)
        return tvm_ffi.Shape([r.i64("a shape dimension") for _ in range(n)])
    if tag == _DTYPE:
        return tvm_ffi.dtype(r.str("a dtype constant"))
    if tag == _TENSOR:
        return _read_tensor(r)
    if tag == _BYTES:
        return r.raw("a bytes constant")
    if tag == _TUPLE:
        if depth >= MAX_CONST_DEPTH:
            raise ValueError(
                f"{r.WHERE}: corrupt data: a tuple constant nests more than {MAX_CONST_DEPTH} deep"
            )
        n = r.count("tuple items")
        return tuple(_read_const(r, depth + 1) for _ in range(n))
    raise ValueError(f"{r.WHERE}: corrupt data: unknown constant tag {tag} at offset {r.pos - 1}")


def _read_tensor(r: _Reader):
    from ..dlpack_pointer import data_pointer
    from ..tensor import empty

    dtype = r.str("a tensor constant's dtype")
    ndim = r.count("tensor dimensions", 8)
    shape = tuple(r.i64("a tensor dimension") for _ in range(ndim))
    # Everything is checked against the bytes actually present before allocating, so a
    # corrupt shape can never ask for more memory than the blob itself holds.
    if any(d < 0 for d in shape):
        raise ValueError(f"{r.WHERE}: corrupt data: a tensor constant has the shape {shape}")
    try:
        dt = tvm_ffi.dtype(dtype)
    except (TypeError, ValueError) as err:
        raise ValueError(
            f"{r.WHERE}: corrupt data: a tensor constant has the dtype {dtype!r} ({err})"
        ) from None
    expected = math.prod(shape) * ((dt.bits * dt.lanes + 7) // 8)
    data = r.raw("a tensor constant's data")
    if len(data) != expected:
        raise ValueError(
            f"{r.WHERE}: corrupt data: a {dtype} tensor constant of shape {shape} needs "
            f"{expected} bytes, the data has {len(data)}"
        )
    t = empty(shape, dtype)
    if data:
        ctypes.memmove(data_pointer(t), data, len(data))
    return t


def save_program(functions: list[VMFuncInfo], constants: list, instructions: list) -> bytes:
    w = _Writer()
    w.parts.append(MAGIC)
    w.u32(VERSION)
    w.i64(len(functions))
    for f in functions:
        w.u8(int(f.kind))
        w.str(f.name)
        w.i64(f.start_instr)
        w.i64(f.end_instr)
        w.i64(f.num_args)
        w.i64(f.register_file_size)
        w.i64(len(f.param_names))
        for p in f.param_names:
            w.str(p)
    w.i64(len(constants))
    for c in constants:
        _write_const(w, c)
    w.i64(len(instructions))
    for ins in instructions:
        w.u8(int(ins.op))
        if ins.op == Opcode.Call:
            w.i64(ins.func_idx)
            w.u64(ins.dst)
            w.i64(len(ins.args))
            for a in ins.args:
                w.u64(a)
        elif ins.op == Opcode.Ret:
            w.u64(ins.result)
        elif ins.op == Opcode.Goto:
            w.i64(ins.offset)
        else:
            w.u64(ins.cond)
            w.i64(ins.offset)
    return b"".join(w.parts)


def load_program(data) -> tuple[list[VMFuncInfo], list, list[Instruction]]:
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(
            f"Executable.load_from_bytes: argument 'data' must be bytes, got {type(data).__name__}"
        )
    r = _Reader(bytes(data))
    magic = bytes(r.take(len(MAGIC), "the magic number"))
    if magic != MAGIC:
        raise ValueError(
            f"Executable.load_from_bytes: not a VM executable: the data starts with {magic!r}, "
            f"expected the magic {MAGIC!r}"
        )
    version = r.u32("the format version")
    if version != VERSION:
        raise ValueError(
            f"Executable.load_from_bytes: the executable has bytecode format version {version}, "
            f"this tvm-runtime reads version {VERSION}; rebuild it with a matching tvm-compiler"
        )
    functions = []
    for _ in range(r.count("functions", 41)):
        kind = r.u8("a function's kind")
        try:
            kind = VMFuncKind(kind)
        except ValueError:
            raise ValueError(
                f"{r.WHERE}: corrupt data: unknown function kind {kind} at offset {r.pos - 1}"
            ) from None
        name = r.str("a function name")
        info = VMFuncInfo(kind, name)
        info.start_instr = r.i64("a function's first instruction")
        info.end_instr = r.i64("a function's last instruction")
        info.num_args = r.i64("a function's argument count")
        info.register_file_size = r.i64("a function's register count")
        info.param_names = [r.str("a parameter name") for _ in range(r.count("parameter names", 8))]
        functions.append(info)
    constants = [_read_const(r) for _ in range(r.count("constants"))]
    instructions = []
    for _ in range(r.count("instructions", 9)):
        op = r.u8("an opcode")
        if op == Opcode.Call:
            func_idx = r.i64("a call's function")
            dst = r.u64("a call's destination")
            args = [r.u64("a call argument") for _ in range(r.count("call arguments", 8))]
            instructions.append(Instruction(Opcode.Call, func_idx=func_idx, args=args, dst=dst))
        elif op == Opcode.Ret:
            instructions.append(Instruction(Opcode.Ret, result=r.u64("a return register")))
        elif op == Opcode.Goto:
            instructions.append(Instruction(Opcode.Goto, offset=r.i64("a goto offset")))
        elif op == Opcode.If:
            cond = r.u64("an if condition")
            instructions.append(Instruction(Opcode.If, cond=cond, offset=r.i64("an if offset")))
        else:
            raise ValueError(f"{r.WHERE}: corrupt data: unknown opcode {op} at offset {r.pos - 1}")
    if r.pos != len(r.data):
        raise ValueError(
            f"{r.WHERE}: corrupt data: {len(r.data) - r.pos} bytes follow the last instruction"
        )
    check_program(functions, constants, instructions)
    return functions, constants, instructions
