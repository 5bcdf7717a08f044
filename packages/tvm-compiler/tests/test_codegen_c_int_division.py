# The C backend's integer division and remainder by a divisor known only at run time: x / 0 and
# x % 0 are 0, the minimum over -1 wraps to itself, and none of them kills the process (each
# case runs in a child, its exit status asserted); a constant divisor keeps the plain operator.
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import tvm
from tvm import te, tir

_OPS = {
    "truncdiv": tir.truncdiv,
    "truncmod": tir.truncmod,
    "floordiv": tir.floordiv,
    "floormod": tir.floormod,
}


def _expected(op: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The documented rule, in Python integers (exact), wrapped to the dtype."""
    out = []
    for x, y in zip(a.tolist(), b.tolist()):
        if y == 0:
            out.append(0)
            continue
        q = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)  # toward zero
        if op == "truncdiv":
            out.append(q)
        elif op == "truncmod":
            out.append(x - q * y)
        elif op == "floordiv":
            out.append(x // y)
        else:
            out.append(x % y)
    bits = a.dtype.itemsize * 8
    wrapped = [v % 2**bits for v in out]
    if a.dtype.kind == "i":
        wrapped = [v - 2**bits if v >= 2 ** (bits - 1) else v for v in wrapped]
    return np.array(wrapped, a.dtype)


def _operands(dtype: str):
    info = np.iinfo(dtype)
    if info.min < 0:
        a = [7, -7, int(info.min), int(info.min), int(info.max), 0, -9, 9]
        b = [0, 0, -1, 0, -1, 0, 4, -4]
    else:
        a = [7, 0, int(info.max), int(info.max), 9, 5, 3, 1]
        b = [0, 0, 0, 1, 4, 5, 7, 0]
    return np.array(a, dtype), np.array(b, dtype)


_CHILD = textwrap.dedent(
    """
    import sys, numpy as np, tvm
    from tvm import te, tir
    op, dtype = sys.argv[1], sys.argv[2]
    fn = getattr(tir, op)
    a = te.placeholder((8,), dtype, name="A")
    b = te.placeholder((8,), dtype, name="B")
    c = te.compute((8,), lambda i: fn(a[i], b[i]), name="C")
    kernel = tvm.compile(te.create_prim_func([a, b, c]))
    av, bv = np.array(eval(sys.argv[3]), dtype), np.array(eval(sys.argv[4]), dtype)
    out = np.zeros(8, dtype)
    kernel(av, bv, out)
    print(out.tolist())
    """
)


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "uint64"])
@pytest.mark.parametrize("op", sorted(_OPS))
def test_division_by_zero_and_minimum_over_minus_one_are_defined(op, dtype):
    a, b = _operands(dtype)
    result = subprocess.run(
        [sys.executable, "-c", _CHILD, op, dtype, repr(a.tolist()), repr(b.tolist())],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, f"exit {result.returncode}: {result.stderr[-2000:]}"
    got = np.array(eval(result.stdout.strip().splitlines()[-1]), dtype)
    np.testing.assert_array_equal(got, _expected(op, a, b))


def _vector_kernel(op, dtype, lanes=8):
    """C[0:lanes] = op(A[0:lanes], B[0:lanes]) as one vector expression."""
    ha, hb, hc = (tir.Var(n, "handle") for n in "abc")
    bufs = [tir.decl_buffer((lanes,), dtype, name=n) for n in "ABC"]
    ramp = tir.Ramp(tir.const(0, "int32"), tir.const(1, "int32"), lanes)
    value = op(tir.BufferLoad(bufs[0], [ramp]), tir.BufferLoad(bufs[1], [ramp]))
    body = tir.BufferStore(bufs[2], value, [ramp])
    return tir.PrimFunc([ha, hb, hc], body, buffer_map=dict(zip((ha, hb, hc), bufs)))


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint32"])
@pytest.mark.parametrize("op", ["truncdiv", "truncmod"])
def test_vector_division_by_zero_is_defined(op, dtype):
    a, b = _operands(dtype)
    kernel = tvm.compile(_vector_kernel(_OPS[op], dtype))
    out = np.zeros(8, dtype)
    kernel(a, b, out)
    np.testing.assert_array_equal(out, _expected(op, a, b))


def test_constant_divisor_keeps_the_plain_operator():
    a = te.placeholder((64,), "int32", name="A")
    c = te.compute((64,), lambda i: tir.truncdiv(a[i], 7) + tir.truncmod(a[i], -3), name="C")
    src = tvm.compile(te.create_prim_func([a, c])).inspect_source()
    body = src[src.index("__tvm_ffi_main") :]
    assert "tvm_truncdiv(" not in body and "tvm_truncmod(" not in body
    assert "(A[i] / 7)" in body and "(A[i] % (-3))" in body


def test_run_time_divisor_is_guarded_in_the_source():
    a = te.placeholder((64,), "int32", name="A")
    b = te.placeholder((64,), "int32", name="B")
    c = te.compute((64,), lambda i: tir.truncdiv(a[i], b[i]), name="C")
    src = tvm.compile(te.create_prim_func([a, b, c])).inspect_source()
    assert "tvm_truncdiv(" in src[src.index("__tvm_ffi_main") :]
