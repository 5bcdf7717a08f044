"""relax.ExecBuilder: upstream's API, argument encodings and its refusals."""

import numpy as np
import pytest
import tvm
import tvm_ffi
from tvm import relax
from tvm.runtime.vm import SpecialReg, VMFuncKind


def test_argument_encodings_match_upstream():
    ib = relax.ExecBuilder()
    ib.declare_function("g")
    assert ib.r(2) == 2
    assert ib.imm(3) == (1 << 56) + 3
    assert ib.c(1) == (2 << 56) + 1
    assert ib.f("g") == 3 << 56
    assert ib.void_arg() == ib.void_register() == SpecialReg.VOID_ARG == 1 << 54
    assert ib.vm_state() == (1 << 54) + 1


def test_program_with_constants_and_negative_immediates_runs():
    @tvm_ffi.register_global_func("test.eb.affine", override=True)
    def affine(x, scale, bias):
        return tvm.runtime.tensor(x.numpy() * scale + bias.numpy())

    ib = relax.ExecBuilder()
    with ib.function("main", num_inputs=1, param_names=["x"]):
        bias = ib.convert_constant(tvm.runtime.tensor(np.full(2, 0.5, "float32")))
        ib.emit_call("test.eb.affine", args=[ib.r(0), ib.imm(-2), bias], dst=ib.r(1))
        ib.emit_ret(ib.r(1))
    ex = ib.get()
    assert ex.functions[ex.func_map["main"]].register_file_size == 2
    assert isinstance(ex, relax.Executable)
    out = relax.VirtualMachine(ex, tvm.cpu())["main"](np.array([1, 2], "float32"))
    np.testing.assert_array_equal(out.numpy(), np.array([-1.5, -3.5], "float32"))


def test_convert_constant_keeps_one_copy_of_equal_values():
    ib = relax.ExecBuilder()
    a = ib.convert_constant(tvm_ffi.Shape([2, 3]))
    assert ib.convert_constant(tvm_ffi.Shape([2, 3])) == a
    assert ib.convert_constant("s") == ib.convert_constant("s") != a
    assert ib.convert_constant(1) != ib.convert_constant(True)


def test_declared_vm_function_called_before_its_body():
    ib = relax.ExecBuilder()
    ib.declare_function("inner", VMFuncKind.VM_FUNC)
    with ib.function("main", num_inputs=1):
        ib.emit_call("inner", args=[ib.r(0)], dst=ib.r(1))
        ib.emit_ret(ib.r(1))
    with ib.function("inner", num_inputs=1):
        ib.emit_call("vm.builtin.make_tuple", args=[ib.r(0), ib.r(0)], dst=ib.r(1))
        ib.emit_ret(ib.r(1))
    vm = relax.VirtualMachine(ib.get(), tvm.cpu())
    assert tuple(vm["main"](4)) == (4, 4)


def test_refusals_name_the_method_and_the_argument():
    ib = relax.ExecBuilder()
    with pytest.raises(ValueError, match=r"ExecBuilder.emit_call: must be called inside"):
        ib.emit_call("f")
    with pytest.raises(ValueError, match="ExecBuilder.f: no function 'nope'"):
        ib.f("nope")
    with pytest.raises(ValueError, match="num_inputs=2 but 1 param_names"):
        ib.function("main", num_inputs=2, param_names=["x"])
    with pytest.raises(ValueError, match="'value' .* does not fit"):
        ib.imm(1 << 60)
    with pytest.raises(ValueError, match="'main' has an empty body"):
        with ib.function("main"):
            pass
    ib2 = relax.ExecBuilder()
    ib2.declare_function("later", VMFuncKind.VM_FUNC)
    with pytest.raises(ValueError, match="'later' is declared but has no body"):
        ib2.get()
    ib3 = relax.ExecBuilder()
    with ib3.function("main", num_inputs=1):
        with pytest.raises(ValueError, match="argument 'dst' must be a register"):
            ib3.emit_call("g", args=[], dst=ib3.imm(1))
        with pytest.raises(ValueError, match="cannot open 'x' inside the body of 'main'"):
            ib3.function("x")
        ib3.emit_ret(ib3.r(0))


def test_registers_are_renumbered_in_order_of_definition():
    def build(regs):
        ib = relax.ExecBuilder()
        with ib.function("f", num_inputs=2):
            ib.emit_call("test.vm.add", args=[ib.r(0), ib.r(1)], dst=ib.r(regs[0]))
            ib.emit_call("test.vm.mul", args=[ib.r(1), ib.r(regs[0])], dst=ib.r(regs[1]))
            ib.emit_ret(ib.r(regs[1]))
        return ib.get()

    sparse, dense = build((100, 50)), build((2, 3))
    assert sparse.as_text() == dense.as_text()
    assert "# registers: 4" in sparse.as_text()


def test_a_register_read_before_any_definition_is_an_internal_error():
    from tvm.error import InternalError

    ib = relax.ExecBuilder()
    with ib.function("f", num_inputs=2):
        ib.emit_call("test.vm.add", args=[ib.r(0), ib.r(2)], dst=ib.r(2))
        ib.emit_ret(ib.r(2))
    with pytest.raises(InternalError, match=r"register r\(2\) in VM function 'f' is used as input"):
        ib.get()


def test_equal_host_tensors_share_one_constant():
    ib = relax.ExecBuilder()
    with ib.function("f", num_inputs=1):
        a = ib.convert_constant(tvm.runtime.tensor(np.array([1, 2, 3], "int32")))
        b = ib.convert_constant(tvm.runtime.tensor(np.array([1, 2, 3], "int32")))
        c = ib.convert_constant(tvm.runtime.tensor(np.array([1, 2, 4], "int32")))
        d = ib.convert_constant(tvm.runtime.tensor(np.array([1, 2, 3], "int64")))
        ib.emit_ret(ib.r(0))
    assert a == b and len({a, c, d}) == 3


def test_a_jump_to_itself_is_refused():
    # goto 0 (or an if whose false branch is 0) made the VM spin forever; 0 is only the
    # placeholder the code generator patches before get().
    for emit in (lambda ib: ib.emit_goto(0), lambda ib: ib.emit_if(ib.r(0), 0)):
        ib = relax.ExecBuilder()
        with ib.function("main", num_inputs=1):
            emit(ib)
            ib.emit_ret(ib.r(0))
        with pytest.raises(ValueError, match="'main' jumps to itself at instruction 0"):
            ib.get()
