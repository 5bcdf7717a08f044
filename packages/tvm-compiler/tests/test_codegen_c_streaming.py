# Streaming (non-temporal) stores in the C backend: which buffers get them, and that results
# are exact on each pinned x86 level (SSE2, AVX2, AVX-512 paths) and for unaligned outputs.
import numpy as np
import pytest
import tvm
from host_isa import AVX2_TARGET, X86_LEVEL_TARGETS
from tvm import s_tir, te
from tvm.codegen.c.streaming import STREAM_MIN_BYTES

N = STREAM_MIN_BYTES // 4  # float32 elements: an output just large enough to stream


def _vector_add(n, target, extra=False):
    a = te.placeholder((n,), name="A")
    b = te.placeholder((n,), name="B")
    c = te.compute((n,), lambda i: a[i] + b[i], name="C")
    outs = [c]
    if extra:  # a second output computed from C, so C is read back
        outs.append(te.compute((n,), lambda i: c[i] * 2.0, name="D"))
    sch = s_tir.Schedule(te.create_prim_func([a, b, *outs]))
    for block in ["C", "D"] if extra else ["C"]:
        (i,) = sch.get_loops(sch.get_sblock(block))
        outer, inner = sch.split(i, [None, 64])
        sch.parallel(outer)
        sch.vectorize(inner)
    return tvm.compile(sch.mod, target=target)


@pytest.mark.parametrize("target", X86_LEVEL_TARGETS)
def test_streamed_output_is_exact_aligned_or_not(target):
    f = _vector_add(N, target)
    assert "tvm_stream_store" in f.inspect_source()
    rng = np.random.default_rng(0)
    x, y = rng.random(N, dtype="float32"), rng.random(N, dtype="float32")
    out = tvm.runtime.empty((N,), "float32")  # the runtime's allocation: 64-byte aligned
    f(tvm.runtime.tensor(x), tvm.runtime.tensor(y), out)
    np.testing.assert_array_equal(out.numpy(), x + y)
    # Shifted by one element, no store is aligned to the stream width: plain stores.
    unaligned = np.zeros(N + 1, "float32")[1:]
    f(x, y, unaligned)
    np.testing.assert_array_equal(unaligned, x + y)


def test_small_or_read_back_buffers_are_stored_normally():
    small = _vector_add(N // 4, AVX2_TARGET)
    assert "tvm_stream_store" not in small.inspect_source()
    both = _vector_add(N, AVX2_TARGET, extra=True)
    source = both.inspect_source()
    assert source.count("tvm_stream_store(&D[") == 8  # D streams (eight x8 stores per 64) ...
    assert "tvm_stream_store(&C[" not in source  # ... C, which D reads, stays in cache
