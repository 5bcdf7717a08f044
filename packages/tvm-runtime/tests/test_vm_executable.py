"""The executable's binary form: round trip of every constant kind, refusals of bad data."""

import struct

import numpy as np
import pytest
import tvm
import tvm_ffi
from tvm.runtime.vm import BYTECODE_VERSION, Executable
from tvm.runtime.vm.serialize import MAGIC
from vm_program import VM, VOID, Program, c, f, imm, r


def _program():
    p = Program()
    t = tvm.runtime.tensor(np.arange(6, dtype="float32").reshape(2, 3))
    p.const(t)
    p.const(tvm_ffi.Shape([4, 5]))
    p.const("a string")
    p.const(-7)
    p.const(2.5)
    p.const(tvm_ffi.dtype("int8"))
    p.const(True)
    p.const(None)
    p.const((1, "x", tvm_ffi.Shape([2])))
    p.function(
        "main",
        ["x", "y"],
        4,
        [
            ("call", "vm.builtin.make_tuple", [r(0), imm(-3), VM, VOID], r(2)),
            ("if", r(1), 2),
            ("goto", 1),
            ("ret", r(2)),
        ],
    )
    return p.executable()


def test_round_trip_keeps_functions_constants_and_instructions():
    ex = _program()
    back = Executable.load_from_bytes(ex.save_to_bytes())
    assert [
        (f.name, f.kind, f.num_args, f.param_names, f.register_file_size) for f in back.functions
    ] == [(f.name, f.kind, f.num_args, f.param_names, f.register_file_size) for f in ex.functions]
    assert back.instructions == ex.instructions
    tensor, shape, text, num, real, dtype, flag, none, tup = back.constants
    np.testing.assert_array_equal(tensor.numpy(), np.arange(6, dtype="float32").reshape(2, 3))
    assert str(tensor.dtype) == "float32"
    assert tuple(shape) == (4, 5) and isinstance(shape, tvm_ffi.Shape)
    assert (text, num, real, str(dtype), flag, none) == ("a string", -7, 2.5, "int8", True, None)
    assert tup[0] == 1 and tup[1] == "x" and tuple(tup[2]) == (2,)
    assert back.save_to_bytes() == ex.save_to_bytes()


def test_wrong_magic_is_a_value_error():
    data = b"NOTAVMEX" + _program().save_to_bytes()[8:]
    with pytest.raises(ValueError, match="not a VM executable.*magic"):
        Executable.load_from_bytes(data)


def test_other_bytecode_version_is_refused_naming_both_versions():
    data = bytearray(_program().save_to_bytes())
    data[len(MAGIC) : len(MAGIC) + 4] = struct.pack("<I", BYTECODE_VERSION + 1)
    with pytest.raises(
        ValueError, match=f"version {BYTECODE_VERSION + 1}.*version {BYTECODE_VERSION}"
    ):
        Executable.load_from_bytes(bytes(data))


def test_every_truncation_is_a_value_error():
    data = _program().save_to_bytes()
    for cut in range(len(data)):
        with pytest.raises(ValueError, match="Executable.load_from_bytes"):
            Executable.load_from_bytes(data[:cut])


def test_trailing_bytes_and_corrupt_counts_are_refused():
    data = _program().save_to_bytes()
    with pytest.raises(ValueError, match="follow the last instruction"):
        Executable.load_from_bytes(data + b"\0")
    huge = data[:12] + struct.pack("<q", 1 << 60) + data[20:]
    with pytest.raises(ValueError, match="cannot fit"):
        Executable.load_from_bytes(huge)


def _saved_with(edit):
    """The bytes of _program() after edit(functions, instructions) changed its tables."""
    ex = _program()
    edit(ex.functions, ex.instructions)
    return ex.save_to_bytes()


def _set_main(**fields):
    def edit(functions, _instructions):
        (main,) = [info for info in functions if info.name == "main"]
        for name, value in fields.items():
            setattr(main, name, value)

    return edit


def _set_call(**fields):
    def edit(_functions, instructions):
        for name, value in fields.items():
            setattr(instructions[0], name, value)

    return edit


@pytest.mark.parametrize(
    "edit, message",
    [
        # A frame (and generated code) of 2**40 registers: the process was killed for memory.
        (_set_main(register_file_size=1 << 40), "declares 1099511627776 registers"),
        (_set_main(num_args=1 << 40), "takes 1099511627776 argument"),
        (_set_main(start_instr=-3), r"owns instructions \[-3, "),
        (_set_main(end_instr=99), "owns instructions"),
        (_set_call(func_idx=77), "calls function 77, but there are"),
        (_set_call(args=[r(9)]), "names Register 9, but there are 4 registers"),
        (_set_call(args=[c(40)]), "names ConstIdx 40, but there are 9 constants"),
        (_set_call(args=[f(40)]), "names FuncIdx 40, but there are"),
        (_set_call(args=[5 << 56]), "has unknown kind 5"),
    ],
)
def test_a_program_naming_what_it_lacks_is_refused_at_load(edit, message):
    with pytest.raises(ValueError, match="Executable.load_from_bytes: corrupt data: .*" + message):
        Executable.load_from_bytes(_saved_with(edit))


def test_a_jump_outside_the_function_is_refused_at_load():
    def edit(_functions, instructions):
        instructions[2].offset = 50  # the goto

    with pytest.raises(ValueError, match="jumps by 50, outside its 4 instructions"):
        Executable.load_from_bytes(_saved_with(edit))

    def to_itself(_functions, instructions):
        instructions[2].offset = 0

    with pytest.raises(ValueError, match="instruction 2 jumps to itself"):
        Executable.load_from_bytes(_saved_with(to_itself))


def test_tuple_constants_nesting_past_the_limit_are_value_errors_not_recursion():
    from tvm.runtime.vm.serialize import _TUPLE, MAX_CONST_DEPTH, VERSION

    blob = MAGIC + struct.pack("<I", VERSION) + struct.pack("<qq", 0, 1)
    blob += (bytes([_TUPLE]) + struct.pack("<q", 1)) * 100_000 + b"\0" + struct.pack("<q", 0)
    with pytest.raises(ValueError, match=f"nests more than {MAX_CONST_DEPTH} deep"):
        Executable.load_from_bytes(blob)
    nested = None
    for _ in range(MAX_CONST_DEPTH + 1):
        nested = (nested,)
    p = Program()
    p.const(nested)
    p.function("main", [], 1, [("ret", VOID)])
    with pytest.raises(ValueError, match="save_to_bytes: a tuple constant nests more than"):
        p.executable().save_to_bytes()
    p.constants[0] = nested[0]  # as deep as the limit: round trips
    back = Executable.load_from_bytes(p.executable().save_to_bytes()).constants[0]
    for _ in range(MAX_CONST_DEPTH):
        back = back[0]
    assert back is None


def test_load_from_bytes_takes_only_bytes():
    with pytest.raises(TypeError, match="argument 'data' must be bytes"):
        Executable.load_from_bytes("text")


def test_unserialisable_constant_is_a_type_error():
    p = Program()
    p.const(object())
    p.function("main", [], 1, [("ret", VOID)])
    with pytest.raises(TypeError, match="constant of type object"):
        p.executable().save_to_bytes()


def test_text_forms_name_instructions_and_functions():
    ex = _program()
    text = ex.as_text()
    assert "@main(x, y):" in text
    assert "call  vm.builtin.make_tuple" in text and "in: %0, i-3, %vm, %void" in text
    assert "ret   %2" in text and "@vm.builtin.make_tuple packed_func;" in text
    assert "ib.emit_if(ib.r(1), 2)" in ex.as_python()
    assert "Constant pool (# 9)" in ex.stats()


def test_export_without_a_linker_names_what_is_missing():
    ex = _program()
    with pytest.raises(RuntimeError, match="needs tvm-compiler"):
        ex.export_library("/nonexistent/x.so")


def test_from_module_refuses_a_library_without_bytecode():
    with pytest.raises(ValueError, match="holds no VM bytecode"):
        Executable.from_module(tvm_ffi.system_lib())


def _params_blob(dtype: bytes, shape, data: bytes) -> bytes:
    """A vm_link params blob of one tensor "w", its header fields written as given."""
    from tvm.runtime.vm import const_loader

    q = struct.Struct("<q").pack
    return b"".join(
        [const_loader.MAGIC, struct.pack("<I", const_loader.VERSION), q(1), q(1), b"w", b"\x06"]
        + [q(len(dtype)), dtype, q(len(shape))]
        + [q(d) for d in shape]
        + [q(len(data)), data]
    )


def test_corrupt_tensor_headers_are_value_errors_before_any_allocation():
    from tvm.runtime.vm.const_loader import load_params

    assert load_params(_params_blob(b"int8", [2], b"\1\2"))["w"].numpy().tolist() == [1, 2]
    # A shape asking for petabytes with no data behind it: refused, never allocated.
    with pytest.raises(ValueError, match=r"needs 4611686018427387904 bytes, the data has 0"):
        load_params(_params_blob(b"float32", [1 << 40, 1 << 20], b""))
    with pytest.raises(ValueError, match="embedded params: corrupt data: .* shape \\(-1, 4\\)"):
        load_params(_params_blob(b"float32", [-1, 4], b""))
    with pytest.raises(ValueError, match="corrupt data: a tensor constant has the dtype 'floaty'"):
        load_params(_params_blob(b"floaty", [2], b"\0" * 8))
    with pytest.raises(ValueError, match="corrupt data: a tensor constant's dtype is not UTF-8"):
        load_params(_params_blob(b"\xff", [2], b"\0" * 8))
