"""The VM's native builtins (compiled into each executable's library) and exec_mode="compiled":
the same results as the Python builtins and the bytecode, pooled and naive allocation, errors."""

import gc

import numpy as np
import pytest
import tvm
import tvm_ffi
from relax_programs import mlp_module, mlp_reference
from tvm import relax
from tvm.relax.vm_link import vm_link

MODES = ["bytecode", "compiled"]
SIZES = (6, 16, 5)


def _weights():
    rng = np.random.default_rng(0)
    return [
        (rng.standard_normal((k, m)).astype("float32"), rng.standard_normal(m).astype("float32"))
        for k, m in zip(SIZES[:-1], SIZES[1:])
    ]


def _args(weights):
    return [tvm.runtime.tensor(a) for pair in weights for a in pair]


def test_the_library_holds_the_native_builtins_and_the_vm_calls_them():
    ex = relax.build(mlp_module(SIZES), "llvm")
    for symbol in ("tvm_vm_alloc_storage", "tvm_vm_alloc_storage_pooled", "tvm_vm_alloc_tensor"):
        assert ex.lib.get_function(symbol, allow_missing=True) is not None
    vm = relax.VirtualMachine(ex, tvm.cpu())
    assert isinstance(vm._lookup_packed("vm.builtin.alloc_tensor"), tvm_ffi.Function)
    assert isinstance(vm._lookup_packed("vm.builtin.match_shape"), tvm_ffi.Function)


@pytest.mark.parametrize("memory_cfg", ["pooled", "naive"])
@pytest.mark.parametrize("exec_mode", MODES)
def test_an_output_still_held_is_never_reused_by_the_next_call(exec_mode, memory_cfg):
    ex = relax.build(mlp_module(SIZES), "llvm", exec_mode=exec_mode)
    vm = relax.VirtualMachine(ex, tvm.cpu(), memory_cfg=memory_cfg)
    weights = _weights()
    rng = np.random.default_rng(1)
    xs = [rng.standard_normal((3, SIZES[0])).astype("float32") for _ in range(4)]
    outs = [vm["main"](tvm.runtime.tensor(x), *_args(weights)) for x in xs]
    for x, out in zip(xs, outs):
        np.testing.assert_allclose(out.numpy(), mlp_reference(x, weights), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("exec_mode", MODES)
def test_the_output_outlives_the_vm_and_the_executable(exec_mode):
    ex = relax.build(mlp_module(SIZES), "llvm", exec_mode=exec_mode)
    vm = relax.VirtualMachine(ex, tvm.cpu())
    weights = _weights()
    x = np.ones((2, SIZES[0]), "float32")
    out = vm["main"](tvm.runtime.tensor(x), *_args(weights))
    del vm, ex
    gc.collect()
    np.testing.assert_allclose(out.numpy(), mlp_reference(x, weights), rtol=1e-5, atol=1e-5)


def _native(name):
    return vm_link(relax.ExecBuilder(), "llvm").lib.get_function(name)


def test_the_pooled_allocator_hands_a_freed_buffer_out_again():
    from tvm.runtime.dlpack_pointer import data_pointer

    alloc = _native("tvm_vm_alloc_storage_pooled")
    first = alloc(None, tvm_ffi.Shape([1000]), 0, tvm_ffi.dtype("uint8"), "global")
    where = data_pointer(first)
    del first
    again = alloc(None, tvm_ffi.Shape([1000]), 0, tvm_ffi.dtype("uint8"), "global")
    assert data_pointer(again) == where
    other = alloc(None, tvm_ffi.Shape([1000]), 0, tvm_ffi.dtype("uint8"), "global")
    assert data_pointer(other) != where  # `again` still holds it


def test_native_alloc_tensor_checks_bounds_and_the_storage_kind():
    alloc = _native("tvm_vm_alloc_storage")
    tensor = _native("tvm_vm_alloc_tensor")
    storage = alloc(None, tvm_ffi.Shape([16]), 0, tvm_ffi.dtype("float32"), "global")
    view = tensor(storage, 0, tvm_ffi.Shape([4, 4]), tvm_ffi.dtype("float32"))
    assert tuple(view.shape) == (4, 4) and str(view.dtype) == "float32"
    with pytest.raises(ValueError, match="vm.builtin.alloc_tensor: a tensor of 128 bytes"):
        tensor(storage, 0, tvm_ffi.Shape([8, 4]), tvm_ffi.dtype("float32"))
    with pytest.raises(TypeError, match="argument 'storage' must be a Storage"):
        tensor(3, 0, tvm_ffi.Shape([1]), tvm_ffi.dtype("float32"))


def test_native_alloc_tensor_refuses_negative_dims_and_sizes_past_int64():
    alloc = _native("tvm_vm_alloc_storage")
    tensor = _native("tvm_vm_alloc_tensor")
    storage = alloc(None, tvm_ffi.Shape([16]), 0, tvm_ffi.dtype("float32"), "global")
    f32 = tvm_ffi.dtype("float32")
    # 4 * 2**32 * 2**32 bytes wraps to 0 in int64, which fitted the 64-byte storage.
    with pytest.raises(ValueError, match=r"needs 73786976294838206464 bytes, the storage has 64"):
        tensor(storage, 0, tvm_ffi.Shape([2**32, 2**32]), f32)
    # (-4, -4) has the element count of (4, 4).
    with pytest.raises(ValueError, match=r"argument 'shape' must hold sizes >= 0, got \(-4, -4\)"):
        tensor(storage, 0, tvm_ffi.Shape([-4, -4]), f32)
    with pytest.raises(ValueError, match="alloc_storage: argument 'buffer_shape'"):
        alloc(None, tvm_ffi.Shape([2**62, 2**62]), 0, f32, "global")


@pytest.mark.parametrize("exec_mode", MODES)
def test_a_shape_argument_whose_size_wraps_int64_is_a_value_error(exec_mode):
    from tvm.script import relax as R
    from tvm.script import tir as T

    @tvm.script.ir_module
    class Zeros:
        @R.function
        def main(s: R.Shape(["n", "m"])):
            n = T.int64()
            m = T.int64()
            return R.zeros(R.shape([n, m]), "float32")

    vm = relax.VirtualMachine(relax.build(Zeros, "llvm", exec_mode=exec_mode), tvm.cpu())
    np.testing.assert_array_equal(vm["main"](tvm_ffi.Shape([2, 3])).numpy(), np.zeros((2, 3)))
    # The shape function's n * m * 4 wraps to 0 bytes of storage: the kernel wrote 2**66
    # bytes into it (a segfault).
    with pytest.raises(ValueError, match="alloc_tensor: a float32 tensor of shape"):
        vm["main"](tvm_ffi.Shape([2**32, 2**32]))
    with pytest.raises(ValueError, match="must hold sizes >= 0"):
        vm["main"](tvm_ffi.Shape([-2, -3]))


def test_native_shape_heap_is_a_zeroed_int64_tensor_and_bad_sizes_use_the_python_error():
    heap_of = _native("tvm_vm_alloc_shape_heap")
    heap = heap_of(None, 5)
    assert tuple(heap.shape) == (5,) and str(heap.dtype) == "int64"
    np.testing.assert_array_equal(heap.numpy(), np.zeros(5, "int64"))
    make_shape = _native("tvm_vm_make_shape")
    match_shape = _native("tvm_vm_match_shape")
    # Store 7 in slot 3 (MatchShapeCode.kStoreToHeap), then a shape of it (kLoadShape) and 2.
    match_shape(tvm_ffi.Shape([7]), heap, 1, 1, 3, "ctx")
    assert tuple(make_shape(heap, 2, 1, 3, 0, 2)) == (7, 2)
    assert tuple(heap_of(None, 0).shape) == (0,)
    with pytest.raises(ValueError, match="alloc_shape_heap: argument 'size' must be >= 0"):
        heap_of(None, -1)


def test_native_shape_builtins_refuse_a_heap_slot_past_the_heap():
    # A corrupt executable's slot index: the native builtins wrote and read past the heap.
    heap = _native("tvm_vm_alloc_shape_heap")(None, 4)
    match_shape = _native("tvm_vm_match_shape")
    make_shape = _native("tvm_vm_make_shape")
    for slot in (-1, 4, 1 << 40):
        with pytest.raises(ValueError, match=f"shape heap slot {slot} is out of range"):
            match_shape(tvm_ffi.Shape([7]), heap, 1, 1, slot, "ctx")
        with pytest.raises(ValueError, match=f"shape heap slot {slot} is out of range"):
            match_shape(tvm_ffi.Shape([7]), heap, 1, 3, slot, "ctx")
        with pytest.raises(ValueError, match=f"shape heap slot {slot} is out of range"):
            make_shape(heap, 1, 1, slot)
    np.testing.assert_array_equal(heap.numpy(), np.zeros(4, "int64"))


def _calls_a_global(name):
    ib = relax.ExecBuilder()
    with ib.function("main", num_inputs=1, param_names=["x"]):
        ib.emit_call(name, args=[ib.r(0)], dst=ib.r(1))
        ib.emit_ret(ib.r(1))
    return ib


@pytest.mark.parametrize("exec_mode", MODES)
def test_a_registered_global_is_called_and_its_error_keeps_its_type(exec_mode):
    @tvm_ffi.register_global_func("test.vm_native.checked_twice", override=True)
    def checked_twice(x):
        if x < 0:
            raise KeyError(f"negative: {x}")
        return 2 * x

    ex = vm_link(_calls_a_global("test.vm_native.checked_twice"), "llvm", exec_mode=exec_mode)
    vm = relax.VirtualMachine(ex, tvm.cpu())
    assert vm["main"](21) == 42
    with pytest.raises(KeyError, match="negative: -1"):
        vm["main"](-1)


@pytest.mark.parametrize("exec_mode", MODES)
def test_a_missing_function_is_an_attribute_error_naming_it(exec_mode):
    ex = vm_link(_calls_a_global("test.vm_native.nowhere"), "llvm", exec_mode=exec_mode)
    with pytest.raises(AttributeError, match="'test.vm_native.nowhere' is neither"):
        relax.VirtualMachine(ex, tvm.cpu())["main"](1)


def test_compiled_mode_refuses_a_function_name_c_cannot_spell():
    ib = relax.ExecBuilder()
    with ib.function("my-main", num_inputs=1):
        ib.emit_ret(ib.r(0))
    with pytest.raises(ValueError, match="VM function 'my-main' is not a C identifier"):
        vm_link(ib, "llvm", exec_mode="compiled")


def test_unknown_exec_mode_is_refused_by_vm_link_and_build():
    with pytest.raises(ValueError, match="vm_link: argument 'exec_mode' must be"):
        vm_link(relax.ExecBuilder(), "llvm", exec_mode="jit")
    with pytest.raises(ValueError, match="relax.build: argument 'exec_mode' must be"):
        relax.build(mlp_module(SIZES), "llvm", exec_mode=None)


def test_memory_cfg_per_device_and_a_wrong_one():
    ex = relax.build(mlp_module(SIZES), "llvm")
    assert relax.VirtualMachine(ex, tvm.cpu()).memory_cfg == "pooled"
    assert relax.VirtualMachine(ex, tvm.cpu(), {tvm.cpu(): "naive"}).memory_cfg == "naive"
    with pytest.raises(ValueError, match="argument 'memory_cfg' must be one of"):
        relax.VirtualMachine(ex, tvm.cpu(), memory_cfg="arena")
    # A str key was never looked up: the VM silently used "pooled".
    with pytest.raises(TypeError, match="'memory_cfg' as a dict maps Devices .* got a key of type"):
        relax.VirtualMachine(ex, tvm.cpu(), memory_cfg={"cpu": "naive"})


@pytest.mark.parametrize("exec_mode", MODES)
def test_a_compiled_and_a_bytecode_vm_function_call_each_other(exec_mode):
    ib = relax.ExecBuilder()
    ib.declare_function("inner", relax.exec_builder.VMFuncKind.VM_FUNC)
    with ib.function("inner", num_inputs=1):
        ib.emit_call("vm.builtin.make_tuple", args=[ib.r(0), ib.imm(7)], dst=ib.r(1))
        ib.emit_ret(ib.r(1))
    with ib.function("main", num_inputs=1):
        ib.emit_call("inner", args=[ib.r(0)], dst=ib.r(1))
        ib.emit_call("vm.builtin.tuple_getitem", args=[ib.r(1), ib.imm(1)], dst=ib.r(2))
        ib.emit_ret(ib.r(2))
    vm = relax.VirtualMachine(vm_link(ib, "llvm", exec_mode=exec_mode), tvm.cpu())
    assert vm["main"](3) == 7
