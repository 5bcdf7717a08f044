# te.extern: tensors computed by opaque calls (a registered global function through
# tir.call_packed, a C function through tir.call_extern) over the buffers of ins and outs.
import ctypes
import subprocess

import numpy as np
import pytest
import tvm
import tvm_ffi
from tvm import te, tir
from tvm.codegen.c.compiler import find_compiler


class _DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", ctypes.c_int32 * 2),
        ("ndim", ctypes.c_int32),
        ("dtype", ctypes.c_uint8 * 4),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.c_void_p),
        ("byte_offset", ctypes.c_uint64),
    ]


def _float32_view(address):
    """The float32 array a DLTensor* (as tvm_ffi hands a kTVMFFIDLTensorPtr to Python) holds."""
    dl = _DLTensor.from_address(address)
    assert (dl.ndim, list(dl.dtype)[:3]) == (1, [2, 32, 1])
    size = dl.shape[0]
    buf = (ctypes.c_float * size).from_address(dl.data + dl.byte_offset)
    return np.frombuffer(buf, dtype="float32", count=size)


@pytest.fixture
def add_one_global():
    name = "testing.te_extern.add_one"

    def add_one(x, y):
        _float32_view(y)[...] = _float32_view(x) + 1

    tvm_ffi.register_global_func(name, add_one, override=True)
    yield name
    tvm_ffi.remove_global_func(name)


def test_call_packed_extern_with_a_symbolic_extent(add_one_global):
    n = te.var("n")
    a = te.placeholder((n,), name="A")
    c = te.extern(
        (n,), [a], lambda ins, outs: tir.call_packed(add_one_global, ins[0], outs[0]), name="C"
    )
    assert isinstance(c.op, te.ExternOp) and c.op.inputs[0] is a and c.dtype == "float32"
    f = tvm.compile(te.create_prim_func([a, c]))
    x = np.arange(10, dtype="float32")
    y = np.zeros_like(x)
    f(x, y)
    np.testing.assert_array_equal(y, x + 1)


def test_extern_output_feeds_a_compute(add_one_global):
    a = te.placeholder((16,), name="A")
    b = te.extern(
        (16,), [a], lambda ins, outs: tir.call_packed(add_one_global, ins[0], outs[0]), name="B"
    )
    c = te.compute((16,), lambda i: b[i] * 2.0, name="C")
    func = te.create_prim_func([a, c])
    assert [buf.name for buf in func.body.block.alloc_buffers] == ["B"]
    x = np.arange(16, dtype="float32")
    y = np.zeros_like(x)
    tvm.compile(func)(x, y)
    np.testing.assert_array_equal(y, (x + 1) * 2)


def test_call_extern_c_function(tmp_path):
    src = tmp_path / "scale.c"
    src.write_text(
        "#include <stdint.h>\n"
        "int32_t tvm_test_scale(const float* a, float* b, int64_t n, float s) {\n"
        "  for (int64_t i = 0; i < n; ++i) b[i] = a[i] * s;\n"
        "  return 0;\n}\n"
    )
    lib = tmp_path / "libscale.so"
    subprocess.run([find_compiler(), "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    ctypes.CDLL(str(lib), mode=ctypes.RTLD_GLOBAL)  # the kernel's extern symbol resolves to it
    n = te.var("n")
    a = te.placeholder((n,), name="A")
    b = te.extern(
        (n,),
        [a],
        lambda ins, outs: tir.call_extern(
            "int32", "tvm_test_scale", ins[0].data, outs[0].data, n, tir.const(2.5, "float32")
        ),
        name="B",
        dtype="float32",
    )
    f = tvm.compile(te.create_prim_func([a, b]))
    x = np.arange(7, dtype="float32")
    y = np.zeros_like(x)
    f(x, y)
    np.testing.assert_array_equal(y, x * 2.5)


def test_recurrence_over_a_symbolic_extent():
    # A prefix sum: out[i] = sum of a[k] for k <= i, with n known only at call time.
    n = te.var("n")
    a = te.placeholder((n,), name="A")
    k = te.reduce_axis((0, n), name="k")
    s = te.compute((n,), lambda i: te.sum(a[k], axis=k, where=k <= i), name="S")
    f = tvm.compile(te.create_prim_func([a, s]))
    for size in (1, 5, 33):
        x = np.arange(size, dtype="float32")
        y = np.zeros_like(x)
        f(x, y)
        np.testing.assert_array_equal(y, np.cumsum(x))


def test_missing_global_function_is_a_clear_error():
    a = te.placeholder((4,), name="A")
    c = te.extern(
        (4,), [a], lambda ins, outs: tir.call_packed("testing.no_such", ins[0], outs[0]), name="C"
    )
    f = tvm.compile(te.create_prim_func([a, c]))
    with pytest.raises(RuntimeError, match="call_packed: no global function testing.no_such"):
        f(np.zeros(4, "float32"), np.zeros(4, "float32"))


def test_bad_extern_arguments():
    a = te.placeholder((4,), name="A")
    with pytest.raises(TypeError, match="extern 'E': fcompute must return a statement"):
        te.extern((4,), [a], lambda ins, outs: "nope", name="E")
    with pytest.raises(TypeError, match="extern 'E': inputs must be a list of te Tensors"):
        te.extern((4,), [np.zeros(4)], lambda ins, outs: 0, name="E")
    with pytest.raises(ValueError, match="extern 'E': dtype is needed"):
        te.extern((4,), [], lambda ins, outs: 0, name="E")
    with pytest.raises(TypeError, match="call_packed: the first argument must be"):
        tir.call_packed(a.buffer)
