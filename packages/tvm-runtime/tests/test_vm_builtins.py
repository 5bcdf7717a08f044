"""vm.builtin.*: storage, the shape heap, struct info checks and value helpers."""

import numpy as np
import pytest
import tvm
import tvm_ffi
from tvm.runtime.vm import MakeShapeCode, MatchShapeCode, Storage, VirtualMachine
from vm_program import VM, Program, imm, r


def g(name):
    return tvm_ffi.get_global_func(name)


def test_codes_have_upstream_values():
    assert MatchShapeCode.kAssertEqualToImm == 0 and MatchShapeCode.kStoreToHeap == 1
    assert MatchShapeCode.kNoOp == 2 and MatchShapeCode.kAssertEqualToLoad == 3
    assert MakeShapeCode.kUseImm == 0 and MakeShapeCode.kLoadShape == 1


def _heap(n=4):
    return g("vm.builtin.alloc_shape_heap")(None, n)


_IMM, _STORE, _NOOP, _LOAD = (
    int(MatchShapeCode.kAssertEqualToImm),
    int(MatchShapeCode.kStoreToHeap),
    int(MatchShapeCode.kNoOp),
    int(MatchShapeCode.kAssertEqualToLoad),
)


def test_match_shape_stores_and_make_shape_loads():
    heap = _heap()
    x = tvm.runtime.empty((5, 3), "float32")
    g("vm.builtin.match_shape")(x, heap, 2, _STORE, 0, _IMM, 3, "ctx")
    assert heap.numpy()[0] == 5
    shape = g("vm.builtin.make_shape")(heap, 3, 1, 0, 0, 7, 1, 0)
    assert tuple(shape) == (5, 7, 5)


def test_match_shape_mismatch_names_context_dimension_and_both_values():
    heap = _heap()
    x = tvm.runtime.empty((5, 3), "float32")
    ctx = "main: argument 'x'"
    with pytest.raises(ValueError, match=r"main: argument 'x': dimension 1 .* is 3, expected 4"):
        g("vm.builtin.match_shape")(x, heap, 2, _NOOP, 0, _IMM, 4, ctx)
    g("vm.builtin.match_shape")(tvm_ffi.Shape([6]), heap, 1, _STORE, 1)
    with pytest.raises(ValueError, match=r"dimension 0 .* is 5, expected 6"):
        g("vm.builtin.match_shape")(x, heap, 2, _LOAD, 1, _NOOP, 0, ctx)
    with pytest.raises(ValueError, match="expected a shape of 3 dimensions"):
        g("vm.builtin.match_shape")(x, heap, 3, *[_NOOP, 0] * 3, ctx)


def test_a_heap_slot_out_of_range_is_a_value_error():
    heap = _heap(4)
    before = heap.numpy().copy()  # the heap is not zeroed
    x = tvm_ffi.Shape([5])
    # ctypes read slot -1 as the last one: the store landed in slot 3.
    for slot in (-1, 4, 1 << 40):
        with pytest.raises(
            ValueError, match=f"match_shape: shape heap slot {slot} is out of range"
        ):
            g("vm.builtin.match_shape")(x, heap, 1, _STORE, slot)
        with pytest.raises(ValueError, match=f"match_shape: shape heap slot {slot} is out of"):
            g("vm.builtin.match_shape")(x, heap, 1, _LOAD, slot)
        with pytest.raises(ValueError, match=f"make_shape: shape heap slot {slot} is out of"):
            g("vm.builtin.make_shape")(heap, 1, 1, slot)
    np.testing.assert_array_equal(heap.numpy(), before)


def test_check_tensor_info_types_ndim_and_dtype():
    check = g("vm.builtin.check_tensor_info")
    x = tvm.runtime.empty((2, 3), "float32")
    check(x, 2, tvm_ffi.dtype("float32"), "ctx")
    check(x, -1, "ctx")
    with pytest.raises(TypeError, match="fn: param x: expected a Tensor, got int"):
        check(1, 2, "fn: param x")
    with pytest.raises(ValueError, match="expected a tensor of 3 dimensions, got 2"):
        check(x, 3, "ctx")
    with pytest.raises(ValueError, match="expected a tensor of dtype int32, got float32"):
        check(x, 2, tvm_ffi.dtype("int32"), "ctx")


def test_other_struct_info_checks():
    g("vm.builtin.check_shape_info")(tvm_ffi.Shape([1, 2]), 2, "ctx")
    with pytest.raises(ValueError, match="expected a shape of 3 dimensions"):
        g("vm.builtin.check_shape_info")(tvm_ffi.Shape([1, 2]), 3, "ctx")
    with pytest.raises(TypeError, match="expected a Shape"):
        g("vm.builtin.check_shape_info")(1, 3, "ctx")
    with pytest.raises(ValueError, match="expected a tuple of 3 items, got 2"):
        g("vm.builtin.check_tuple_info")((1, 2), 3, "ctx")
    with pytest.raises(TypeError, match="expected a int64 value, got float"):
        g("vm.builtin.check_prim_value_info")(1.5, tvm_ffi.dtype("int64"), "ctx")
    with pytest.raises(TypeError, match="expected a function"):
        g("vm.builtin.check_func_info")(1, "ctx")


def test_storage_tensors_view_the_storage():
    storage = g("vm.builtin.alloc_storage")(
        None, tvm_ffi.Shape([16]), 0, tvm_ffi.dtype("uint8"), "global"
    )
    assert isinstance(storage, Storage) and storage.nbytes == 16
    a = g("vm.builtin.alloc_tensor")(storage, 0, tvm_ffi.Shape([2]), tvm_ffi.dtype("float32"))
    b = g("vm.builtin.alloc_tensor")(storage, 4, tvm_ffi.Shape([2]), tvm_ffi.dtype("float32"))
    a.copyfrom(np.array([1, 2], "float32"))
    assert b.numpy()[0] == 2  # b starts at a's second element
    with pytest.raises(ValueError, match="needs 20 bytes, the storage has 16"):
        g("vm.builtin.alloc_tensor")(storage, 12, tvm_ffi.Shape([2]), tvm_ffi.dtype("float32"))
    with pytest.raises(TypeError, match="argument 'storage' must be a Storage"):
        g("vm.builtin.alloc_tensor")(1, 0, tvm_ffi.Shape([2]), tvm_ffi.dtype("float32"))


def test_storage_refuses_negative_dims_and_sizes_past_int64():
    alloc_tensor = g("vm.builtin.alloc_tensor")
    f32 = tvm_ffi.dtype("float32")
    storage = g("vm.builtin.alloc_storage")(None, tvm_ffi.Shape([16]), 0, f32, "global")
    # (-2, -2) has the element count of (2, 2): it made a tensor of a negative shape.
    with pytest.raises(ValueError, match=r"argument 'shape' must hold sizes >= 0, got \(-2, -2\)"):
        alloc_tensor(storage, 0, tvm_ffi.Shape([-2, -2]), f32)
    with pytest.raises(ValueError, match="alloc_storage: argument 'buffer_shape'.*more than one"):
        g("vm.builtin.alloc_storage")(None, tvm_ffi.Shape([2**40, 2**40]), 0, f32, "global")
    # A 1-d uint8 tensor (the native alloc_storage's kind of storage) gets the same checks.
    native = tvm.runtime.empty((64,), "uint8")
    assert tuple(alloc_tensor(native, 16, tvm_ffi.Shape([4, 2]), f32).shape) == (4, 2)
    with pytest.raises(ValueError, match="needs 73786976294838206464 bytes, the storage has 64"):
        alloc_tensor(native, 0, tvm_ffi.Shape([2**32, 2**32]), f32)


def test_alloc_storage_uses_the_vm_device_inside_a_program():
    p = Program()
    shape, dtype = p.const(tvm_ffi.Shape([8])), p.const(tvm_ffi.dtype("float32"))
    p.function(
        "main",
        [],
        3,
        [
            (
                "call",
                "vm.builtin.alloc_storage",
                [VM, shape, imm(0), dtype, p.const("global")],
                r(0),
            ),
            ("call", "vm.builtin.alloc_tensor", [r(0), imm(0), shape, dtype], r(1)),
            ("call", "vm.builtin.shape_of", [r(1)], r(2)),
            ("ret", r(2)),
        ],
    )
    assert tuple(VirtualMachine(p.executable(), tvm.cpu())["main"]()) == (8,)
    p.instructions[0].args[2] = imm(5)
    with pytest.raises(ValueError, match="'device_index' 5 is out of range"):
        VirtualMachine(p.executable(), tvm.cpu())["main"]()


def test_value_builtins():
    x = tvm.runtime.tensor(np.arange(6, dtype="int32"))
    assert tuple(g("vm.builtin.shape_of")(x)) == (6,)
    y = g("vm.builtin.reshape")(x, tvm_ffi.Shape([2, 3]))
    np.testing.assert_array_equal(y.numpy(), np.arange(6).reshape(2, 3))
    with pytest.raises(ValueError, match="cannot view a tensor of shape"):
        g("vm.builtin.reshape")(x, tvm_ffi.Shape([4]))
    # (-2, -3) has the element count of (2, 3): it made a tensor of a negative shape.
    with pytest.raises(ValueError, match=r"reshape: argument 'shape' must hold sizes >= 0"):
        g("vm.builtin.reshape")(x, tvm_ffi.Shape([-2, -3]))
    assert g("vm.builtin.null_value")() is None
    assert g("vm.builtin.read_if_cond")(tvm.runtime.tensor(np.array(True))) is True
    assert g("vm.builtin.read_if_cond")(tvm.runtime.tensor(np.array(0, "int32"))) is False
    assert g("vm.builtin.read_if_cond")(3) is True
    with pytest.raises(IndexError, match="index 5 is out of range"):
        g("vm.builtin.tuple_getitem")((1, 2), 5)
    with pytest.raises(IndexError, match="index -1 is out of range"):  # it returned item 1
        g("vm.builtin.tuple_getitem")((1, 2), -1)


def test_prim_value_shape_tensor_and_dynamic_call_builtins():
    heap = _heap(2)
    g("vm.builtin.match_prim_value")(9, heap, int(MatchShapeCode.kStoreToHeap), 1, "ctx")
    assert g("vm.builtin.make_prim_value")(heap, int(MakeShapeCode.kLoadShape), 1) == 9
    with pytest.raises(ValueError, match=r"n: dimension 0 .* is 8, expected 9"):
        g("vm.builtin.match_prim_value")(8, heap, int(MatchShapeCode.kAssertEqualToLoad), 1, "n")
    shape = g("vm.builtin.tensor_to_shape")(tvm.runtime.tensor(np.array([3, 4], "int64")))
    assert tuple(shape) == (3, 4)
    with pytest.raises(TypeError, match="must be int64 or int32, got float32"):
        g("vm.builtin.tensor_to_shape")(tvm.runtime.empty((2,), "float32"))
    tvm_ffi.register_global_func("test.vm.sum3", lambda a, b, c: a + b + c, override=True)
    dyn = g("vm.builtin.call_tir_dyn")
    assert dyn(g("test.vm.sum3"), 1, tvm_ffi.Shape([2, 3])) == 6
    with pytest.raises(TypeError, match="ctx: expected a str, got int"):
        g("vm.builtin.check_string_info")(1, "ctx")
    moved = g("vm.builtin.to_device")(tvm.runtime.tensor(np.arange(3, dtype="int32")), 1, 0)
    np.testing.assert_array_equal(moved.numpy(), np.arange(3))
