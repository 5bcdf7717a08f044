"""The VM interpreter: packed calls, control flow, VM-to-VM calls, closures, the VM's API."""

import subprocess
import sys

import numpy as np
import pytest
import tvm
import tvm_ffi
from tvm.runtime.vm import Executable, ProfileReport, VirtualMachine, VMFuncKind
from tvm.runtime.vm.builtins import BUILTINS
from vm_program import VM, VOID, Program, f, imm, r


@tvm_ffi.register_global_func("test.vm.add", override=True)
def _add(a, b):
    return tvm.runtime.tensor(a.numpy() + b.numpy())


@tvm_ffi.register_global_func("test.vm.sub_int", override=True)
def _sub_int(a, b):
    return a - b


@tvm_ffi.register_global_func("test.vm.mul_int", override=True)
def _mul_int(a, b):
    return a * b


@pytest.fixture(autouse=True, params=["generated", "loop"])
def exec_path(request, monkeypatch):
    # Every behaviour holds for both ways of running decoded bytecode.
    monkeypatch.setattr(VirtualMachine, "_exec_loop", request.param == "loop")
    return request.param


def _vm(program):
    return VirtualMachine(program.executable(), tvm.cpu())


def _add_program():
    p = Program()
    one = p.const(tvm.runtime.tensor(np.ones(3, "float32")))
    return p.function(
        "main",
        ["x", "y"],
        4,
        [
            ("call", "test.vm.add", [r(0), r(1)], r(2)),
            ("call", "test.vm.add", [r(2), one], r(3)),
            ("ret", r(3)),
        ],
    )


def test_packed_calls_with_registers_and_constants():
    vm = _vm(_add_program())
    x = np.arange(3, dtype="float32")
    np.testing.assert_array_equal(vm["main"](x, x).numpy(), x + x + 1)
    np.testing.assert_array_equal(vm.invoke("main", x, y=x).numpy(), x + x + 1)


def test_factorial_with_if_and_goto_loops():
    # r0 = n, r1 = acc; while n: acc *= n; n -= 1
    p = Program()
    p.function(
        "fact",
        ["n"],
        3,
        [
            ("call", "vm.builtin.copy", [imm(1)], r(1)),  # 0
            ("if", r(0), 4),  # 1: n == 0 -> 5
            ("call", "test.vm.mul_int", [r(1), r(0)], r(1)),  # 2
            ("call", "test.vm.sub_int", [r(0), imm(1)], r(0)),  # 3
            ("goto", -3),  # 4 -> 1
            ("ret", r(1)),  # 5
        ],
    )
    vm = _vm(p)
    assert [vm["fact"](n) for n in range(6)] == [1, 1, 2, 6, 24, 120]


def test_vm_function_calls_vm_function_and_recurses():
    # fib(n) = n if n < 2 else fib(n-1) + fib(n-2), with cond from a packed predicate
    tvm_ffi.register_global_func("test.vm.lt2", lambda n: n < 2, override=True)
    tvm_ffi.register_global_func("test.vm.add_int", lambda a, b: a + b, override=True)
    p = Program()
    p.function(
        "fib",
        ["n"],
        5,
        [
            ("call", "test.vm.lt2", [r(0)], r(1)),
            ("if", r(1), 2),
            ("ret", r(0)),
            ("call", "test.vm.sub_int", [r(0), imm(1)], r(2)),
            ("call", "fib", [r(2)], r(3)),
            ("call", "test.vm.sub_int", [r(0), imm(2)], r(2)),
            ("call", "fib", [r(2)], r(4)),
            ("call", "test.vm.add_int", [r(3), r(4)], r(1)),
            ("ret", r(1)),
        ],
    )
    assert _vm(p)["fib"](10) == 55


def test_closures_tuples_and_the_vm_state():
    p = Program()
    # make_closure binds k as addk's last argument.
    p.function("addk", ["x", "k"], 3, [("call", "test.vm.add", [r(0), r(1)], r(2)), ("ret", r(2))])
    p.function(
        "main",
        ["k", "x"],
        6,
        [
            ("call", "vm.builtin.make_closure", [f(p.index("addk")), r(0)], r(2)),
            ("call", "vm.builtin.invoke_closure", [VM, r(2), r(1)], r(3)),
            ("call", "vm.builtin.make_tuple", [r(3), imm(7), VOID], r(4)),
            ("call", "vm.builtin.tuple_getitem", [r(4), imm(0)], r(5)),
            ("call", "vm.builtin.make_tuple", [r(5), r(4), r(2)], r(5)),
            ("ret", r(5)),
        ],
    )
    vm = _vm(p)
    k, x = np.full(2, 10, "float32"), np.arange(2, dtype="float32")
    first, tup, closure = vm["main"](k, x)
    np.testing.assert_array_equal(first.numpy(), x + k)
    assert tup[1] == 7 and tup[2] is None
    np.testing.assert_array_equal(vm.invoke_closure(closure, x).numpy(), x + k)


def test_discarded_result_does_not_clobber_the_void_argument():
    p = Program()
    p.function(
        "main",
        [],
        1,
        [
            ("call", "test.vm.sub_int", [imm(5), imm(2)], VOID),
            ("call", "vm.builtin.make_tuple", [VOID], r(0)),
            ("ret", r(0)),
        ],
    )
    assert _vm(p)["main"]() == (None,)


def test_wrong_argument_count_names_function_and_parameters():
    vm = _vm(_add_program())
    with pytest.raises(TypeError, match=r"function 'main' takes 2 argument\(s\) \(x, y\), got 1"):
        vm["main"](np.zeros(3, "float32"))
    with pytest.raises(TypeError, match="unexpected keyword.*'z'"):
        vm["main"](np.zeros(3, "float32"), z=1)


def test_tvm_tensor_arguments_pass_unconverted_and_are_still_counted():
    # All tvm tensors, as many as the function takes: handed over as they are.
    vm = _vm(_add_program())
    x = tvm.runtime.tensor(np.arange(3, dtype="float32"))
    np.testing.assert_array_equal(vm["main"](x, x).numpy(), np.arange(3) * 2 + 1)
    with pytest.raises(TypeError, match=r"function 'main' takes 2 argument\(s\) \(x, y\), got 3"):
        vm["main"](x, x, x)
    with pytest.raises(TypeError, match="unexpected keyword.*'z'"):
        vm["main"](x, x, z=x)


def test_unconvertible_argument_names_function_and_argument():
    vm = _vm(_add_program())
    with pytest.raises(TypeError, match="function 'main' argument 'y' cannot be a object"):
        vm["main"](np.zeros(3, "float32"), object())


def test_unknown_function_and_missing_packed_function():
    vm = _vm(_add_program())
    with pytest.raises(AttributeError, match="no function 'nope'"):
        vm["nope"]
    p = Program()
    p.function("main", [], 1, [("call", "test.vm.not_registered", [], r(0)), ("ret", r(0))])
    with pytest.raises(AttributeError, match="'test.vm.not_registered' is neither"):
        _vm(p)["main"]()


def test_bad_bytecode_is_refused_when_the_vm_loads_it():
    p = Program()
    p.function("main", [], 1, [("goto", 5)])
    with pytest.raises(ValueError, match="jumps from instruction 0 to 5"):
        _vm(p)
    p = Program()
    p.function("main", [], 1, [("call", "vm.builtin.null_value", [], r(0))])
    with pytest.raises(ValueError, match="runs past its last instruction"):
        _vm(p)
    p = Program()
    p.function("main", [], 1, [("ret", r(4))])
    with pytest.raises(ValueError, match="uses register %4 but declares 1"):
        _vm(p)
    # A jump to itself (goto 0, or an if whose false branch is 0) spun forever.
    for body in ([("goto", 0), ("ret", r(0))], [("if", r(0), 0), ("ret", r(0))]):
        p = Program()
        p.function("main", ["x"], 1, body)
        with pytest.raises(ValueError, match="jumps from instruction 0 to itself"):
            _vm(p)


def test_stateful_api_saved_functions_and_timing():
    vm = _vm(_add_program())
    x = np.arange(3, dtype="float32")
    vm.set_input("main", x, x)
    vm.invoke_stateful("main")
    np.testing.assert_array_equal(vm.get_outputs("main").numpy(), x + x + 1)
    with pytest.raises(ValueError, match="set_input first"):
        _vm(_add_program()).invoke_stateful("main")
    with pytest.raises(ValueError, match="has not been run"):
        _vm(_add_program()).get_outputs("main")
    vm.save_function("main", "saved", x, x)
    np.testing.assert_array_equal(vm.get_function("saved")().numpy(), x + x + 1)
    # The error named save_function.<locals>.saved_call, or (timed) no function 'saved'.
    with pytest.raises(TypeError, match="saved function 'saved' takes no arguments.*got 1"):
        vm["saved"](x)
    with pytest.raises(TypeError, match="saved function 'saved' takes no arguments.*got 2"):
        vm.time_evaluator("saved", tvm.cpu(), number=1)(x, x)
    assert vm.time_evaluator("saved", tvm.cpu(), number=1)().mean > 0
    with pytest.raises(TypeError, match="save_function: argument 'saved_name' must be a str"):
        vm.save_function("main", 5, x, x)
    with pytest.raises(TypeError, match="invoke_closure: argument 'closure' must be a closure"):
        vm.invoke_closure(5, x)
    result = vm.time_evaluator("main", tvm.cpu(), number=2, repeat=3)(x, x)
    assert len(result.results) == 3 and all(t > 0 for t in result.results)
    stateful = vm.time_evaluator("main", tvm.cpu(), number=1)()
    assert stateful.mean > 0


def test_profile_counts_every_callee():
    vm = _vm(_add_program())
    x = np.arange(3, dtype="float32")
    report = vm.profile("main", x, x)
    assert isinstance(report, ProfileReport)
    assert report.calls["test.vm.add"][0] == 2
    assert "test.vm.add" in str(report)


def test_arguments_numpy_scalars_shapes_and_tuples_pass_through():
    p = Program()
    p.function("main", ["a"], 1, [("ret", r(0))])
    vm = _vm(p)
    assert vm["main"](np.int64(3)) == 3
    assert tuple(vm["main"](tvm_ffi.Shape([1, 2]))) == (1, 2)
    out = vm["main"]((1, np.ones(2, "float32")))
    assert out[0] == 1 and isinstance(out[1], tvm_ffi.Tensor)


def test_pytorch_tensors_go_through_dlpack():
    torch = pytest.importorskip("torch")
    vm = _vm(_add_program())
    x = torch.arange(3, dtype=torch.float32)
    np.testing.assert_array_equal(vm["main"](x, x).numpy(), np.array([1, 3, 5], "float32"))


def test_device_and_memory_cfg_are_checked():
    ex = _add_program().executable()
    with pytest.raises(TypeError, match="argument 'device' must be a Device"):
        VirtualMachine(ex, "cpu")
    with pytest.raises(ValueError, match="argument 'memory_cfg' must be one of"):
        VirtualMachine(ex, tvm.cpu(), memory_cfg="fancy")
    with pytest.raises(TypeError, match="argument 'rt_mod' must be an Executable"):
        VirtualMachine(42, tvm.cpu())
    assert VirtualMachine(ex, [tvm.cpu()], memory_cfg="pooled").devices == [tvm.cpu()]


def test_loaded_bytecode_runs_like_the_original():
    ex = Executable.load_from_bytes(_add_program().executable().save_to_bytes())
    x = np.arange(3, dtype="float32")
    np.testing.assert_array_equal(VirtualMachine(ex, tvm.cpu())["main"](x, x).numpy(), x + x + 1)


def test_vm_is_loaded_lazily_by_import_tvm():
    code = "import sys, tvm; assert 'tvm.runtime.vm' not in sys.modules; tvm.runtime.vm.Executable"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_if_on_a_scalar_bool_tensor():
    p = Program()
    p.function(
        "pick",
        ["cond"],
        2,
        [
            ("if", r(0), 3),
            ("call", "vm.builtin.copy", [imm(5)], r(1)),
            ("ret", r(1)),
            ("call", "vm.builtin.copy", [imm(10)], r(1)),
            ("ret", r(1)),
        ],
    )
    vm = _vm(p)
    assert vm["pick"](np.array(True)) == 5
    assert vm["pick"](np.array(False)) == 10
    assert vm["pick"](0) == 10
    with pytest.raises(ValueError, match="must be a scalar tensor"):
        vm["pick"](np.array([True, False]))


def test_compiled_vm_function_missing_from_the_library_is_named():
    p = Program()
    p.index("main", VMFuncKind.VM_TIR_FUNC)
    p.functions[0].num_args = 0
    with pytest.raises(AttributeError, match="'__vmtir__main' is neither"):
        _vm(p)["main"]()


@pytest.mark.skipif(sys.version_info < (3, 11), reason="exception notes are Python 3.11+")
def test_failing_call_is_noted_with_function_and_instruction(exec_path):
    def boom(x):
        raise KeyError("inner failure")

    tvm_ffi.register_global_func("test.vm.boom", boom, override=True)
    p = Program()
    p.function(
        "main",
        ["x"],
        2,
        [
            ("call", "vm.builtin.copy", [r(0)], r(1)),
            ("call", "test.vm.boom", [r(1)], r(1)),
            ("ret", r(1)),
        ],
    )
    with pytest.raises(Exception, match="inner failure") as info:
        _vm(p)["main"](1)
    if exec_path == "generated":
        assert "in VM function 'main', instruction 1: call test.vm.boom" in "".join(
            info.value.__notes__
        )


def _null_program():
    p = Program()
    return p.function(
        "main",
        ["x"],
        3,
        [
            ("call", "test.vm.add", [r(0), r(0)], r(1)),
            ("call", "vm.builtin.null_value", [], r(1)),  # KillAfterLastUse drops r1
            ("call", "vm.builtin.make_tuple", [r(1), r(0)], r(2)),
            ("ret", r(2)),
        ],
    )


def test_null_value_stores_none_and_a_replacement_is_still_called(monkeypatch):
    x = tvm.runtime.tensor(np.ones(3, "float32"))
    dropped, same = _vm(_null_program())["main"](x)
    assert dropped is None
    np.testing.assert_array_equal(same.numpy(), x.numpy())
    # The inlined store stands only for the registered builtin: a replacement is called, and
    # profiling still times every null_value call.
    calls = []
    monkeypatch.setitem(BUILTINS, "vm.builtin.null_value", lambda: calls.append(1))
    assert _vm(_null_program())["main"](x)[0] is None and calls == [1]
    monkeypatch.undo()
    report = _vm(_null_program()).profile("main", x)
    assert report.calls["vm.builtin.null_value"][0] == 1
