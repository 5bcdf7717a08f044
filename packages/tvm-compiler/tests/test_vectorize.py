# Tests of VectorizeLoop and the C vector types: which loops become vector code, results, widths.
import numpy as np
import pytest
import tvm
from host_isa import AVX2_TARGET
from tvm import te, tir
from tvm.driver import lower
from tvm.target import Target
from tvm.target.simd import mattr_compiler_flags, target_vector_bytes


def _ramp_lanes(mod) -> set:
    """The lane counts of the vector indices (Ramps) in mod: what vectorization made."""
    lanes = set()
    for func in mod.functions.values():
        tir.post_order_visit(
            func.body, lambda n: lanes.add(n.lanes) if isinstance(n, tir.Ramp) else None
        )
    return lanes


def _elementwise(n, fn, dtype="float32", inner=16, names=("A", "B")):
    """C[i] = fn(A, B, i) with i split by inner and the inner loop vectorized."""
    a = te.placeholder((n,), dtype, name=names[0])
    b = te.placeholder((n,), dtype, name=names[1])
    c = te.compute((n,), lambda i: fn(a, b, i), name="C")
    sch = tir.Schedule(te.create_prim_func([a, b, c]))
    (i,) = sch.get_loops(sch.get_block("C"))
    _, vec = sch.split(i, [None, inner])
    sch.vectorize(vec)
    return sch.mod


def _run(mod, *arrays, target="c"):
    tvm.compile(mod, target=target)["main"](*arrays)


def test_contiguous_loop_becomes_vector_code_with_the_same_results():
    mod = _elementwise(256, lambda a, b, i: a[i] * b[i] + 2.5, inner=32)
    with Target("llvm -mcpu=native"):
        lowered = lower(mod)
    assert _ramp_lanes(lowered) and "T.vectorized" not in lowered.script()
    rng = np.random.default_rng(0)
    a, b = rng.random(256, dtype="float32"), rng.random(256, dtype="float32")
    c = np.zeros(256, "float32")
    _run(mod, a, b, c)
    # The C compiler may fuse the multiply and add (one rounding instead of two).
    np.testing.assert_allclose(c, a * b + np.float32(2.5), rtol=1e-6)


def test_strided_access_keeps_the_loop_and_stays_correct():
    # B[2 * i % n] is not contiguous across lanes: the loop stays a loop for omp simd.
    mod = _elementwise(64, lambda a, b, i: a[i] + b[(i * 2) % 64], inner=16)
    assert "T.vectorized" in lower(mod).script()
    a, b = np.arange(64, dtype="float32"), np.arange(64, dtype="float32") * 10
    c = np.zeros(64, "float32")
    _run(mod, a, b, c)
    np.testing.assert_array_equal(c, a + b[(np.arange(64) * 2) % 64])


def test_select_is_not_vectorized_but_computes():
    mod = _elementwise(64, lambda a, b, i: tir.Select(a[i] > b[i], a[i], b[i]), inner=16)
    assert "T.vectorized" in lower(mod).script()
    rng = np.random.default_rng(1)
    a, b = rng.random(64, dtype="float32"), rng.random(64, dtype="float32")
    c = np.zeros(64, "float32")
    _run(mod, a, b, c)
    np.testing.assert_array_equal(c, np.maximum(a, b))


def test_float64_and_int32_vectors():
    for dtype in ("float64", "int32"):
        mod = _elementwise(128, lambda a, b, i: a[i] * b[i] - a[i], dtype=dtype, inner=32)
        assert _ramp_lanes(lower(mod))
        a = np.arange(128).astype(dtype)
        b = (np.arange(128) % 7).astype(dtype)
        c = np.zeros(128, dtype)
        _run(mod, a, b, c)
        np.testing.assert_array_equal(c, a * b - a)


def test_vector_width_follows_the_target():
    mod = _elementwise(256, lambda a, b, i: a[i] + b[i], inner=64)
    with Target("llvm -mcpu=haswell"):
        assert target_vector_bytes(Target.current()) == 32
        lowered = lower(mod)
    assert '"float32x8"' not in lowered.script() and _ramp_lanes(lowered) == {8}
    with Target({"kind": "llvm", "mcpu": "x86-64", "mattr": ["+avx512f"]}):
        assert target_vector_bytes(Target.current()) == 64
        assert _ramp_lanes(lower(mod)) == {16}
    a, b = np.arange(256, dtype="float32"), np.ones(256, "float32")
    c = np.zeros(256, "float32")
    _run(mod, a, b, c, target="llvm -mcpu=haswell")
    np.testing.assert_array_equal(c, a + 1)


@pytest.mark.parametrize(
    "target, width, flags",
    [
        ("llvm -mcpu=native -mattr=+avx2,-avx512f", 32, ["-mavx2", "-mno-avx512f"]),
        ("llvm -mcpu=x86-64", 16, []),
        ("llvm -mcpu=x86-64-v4", 64, []),
        ("llvm -mcpu=skylake-avx512 -mattr=-avx", 16, ["-mno-avx"]),
    ],
)
def test_mattr_features_narrow_or_widen_the_vectors(target, width, flags):
    target = Target(target)
    assert target_vector_bytes(target) == width
    assert mattr_compiler_flags(target) == flags


def test_mattr_features_reach_the_c_compiler():
    # With AVX-512 switched off the kernel is built for 32-byte vectors and still computes.
    mod = _elementwise(256, lambda a, b, i: a[i] * b[i], inner=64)
    a, b = np.arange(256, dtype="float32"), np.full(256, 0.5, "float32")
    c = np.zeros(256, "float32")
    _run(mod, a, b, c, target="llvm -mcpu=native -mattr=-avx512f")
    np.testing.assert_array_equal(c, a * 0.5)
    with pytest.raises(ValueError, match="-mattr feature '\\+a;b' is not a feature name"):
        mattr_compiler_flags(Target({"kind": "llvm", "mattr": ["+a;b"]}))


def test_short_power_of_two_loop_is_one_vector_and_odd_loop_stays():
    short = _elementwise(64, lambda a, b, i: a[i] + b[i], inner=4)
    odd = _elementwise(36, lambda a, b, i: a[i] + b[i], inner=12)
    with Target(AVX2_TARGET):  # 8 lanes a register: 4 is one vector, 12 is no whole number
        assert _ramp_lanes(lower(short)) == {4}
        assert "T.vectorized" in lower(odd).script()
    for mod, n in ((short, 64), (odd, 36)):
        a, b = np.arange(n, dtype="float32"), np.full(n, 3, "float32")
        c = np.zeros(n, "float32")
        _run(mod, a, b, c)
        np.testing.assert_array_equal(c, a + 3)


def test_types_without_c_vectors_keep_the_loop():
    # bool has no C vector type here: the copy stays an omp simd loop and still runs.
    mod = _elementwise(64, lambda a, b, i: a[i], dtype="bool", inner=16)
    assert "T.vectorized" in lower(mod).script()
    a = np.arange(64) % 3 == 0
    c = np.zeros(64, bool)
    _run(mod, a, a.copy(), c)
    np.testing.assert_array_equal(c, a)
    # int8 has one: wrap-around matches NumPy's.
    mod = _elementwise(64, lambda a, b, i: a[i] + b[i], dtype="int8", inner=64)
    assert _ramp_lanes(lower(mod))
    x = np.arange(64, dtype="int8") * 3
    out = np.zeros(64, "int8")
    _run(mod, x, x, out)
    np.testing.assert_array_equal(out, x + x)


def test_ramp_and_broadcast_check_their_arguments():
    assert tir.Ramp(0, 1, 8).dtype == "int32x8"
    assert tir.Broadcast(tir.const(1.5, "float32"), 4).dtype == "float32x4"
    with pytest.raises(ValueError, match="Ramp: lanes must be an int of at least 2"):
        tir.Ramp(0, 1, 1)
    with pytest.raises(TypeError, match="Ramp: base must be a scalar integer"):
        tir.Ramp(tir.const(1.0, "float32"), 1, 4)
    with pytest.raises(ValueError, match="Broadcast: lanes must be an int of at least 2"):
        tir.Broadcast(1.0, 0)
    with pytest.raises(TypeError, match="Broadcast: value must be a scalar"):
        tir.Broadcast(tir.Ramp(0, 1, 4), 4)


def test_vector_store_needs_matching_lanes():
    buf = tir.decl_buffer((64,), "float32", name="X")
    value = tir.Broadcast(tir.const(0.0, "float32"), 8)
    store = tir.BufferStore(buf, value, [tir.Ramp(0, 1, 8)])
    assert store.value.dtype == "float32x8"
    with pytest.raises(
        TypeError,
        match=r"BufferStore: storing a value of dtype float32 into 'X' "
        r"needs 8 lanes",
    ):
        tir.BufferStore(buf, tir.const(0.0, "float32"), [tir.Ramp(0, 1, 8)])
    assert tir.BufferLoad(buf, [tir.Ramp(8, 1, 16)]).dtype == "float32x16"


def test_vectorized_loop_around_a_rewritten_vectorized_loop_stays_a_loop():
    # The inner loop becomes vectors first; the outer one must not widen them again.
    a = te.placeholder((4, 32), name="A")
    c = te.compute((4, 32), lambda i, j: 1.0 + a[i, j], name="C")
    sch = tir.Schedule(te.create_prim_func([a, c]))
    i, j = sch.get_loops(sch.get_block("C"))
    _, rows = sch.split(i, [None, 2])
    sch.vectorize(rows)
    sch.vectorize(j)
    lowered = lower(sch.mod)
    assert "T.vectorized(2)" in lowered.script() and _ramp_lanes(lowered)
    x = np.arange(128, dtype="float32").reshape(4, 32)
    out = np.zeros_like(x)
    _run(sch.mod, x, out)
    np.testing.assert_array_equal(out, x + 1)


def test_offset_read_from_a_per_lane_buffer_keeps_the_loop():
    # C[i] = A[i + B[i]] with B computed inside the vectorized loop (one value per lane): the
    # access is a gather, not a contiguous vector, so the loop must stay a loop.
    n = 64
    a = te.placeholder((n + 8,), name="A")
    offsets = te.placeholder((n,), "int32", name="O")
    b = te.compute((n,), lambda i: offsets[i] + 1, name="B")
    c = te.compute((n,), lambda i: a[i + b[i]] * 2.0, name="C")
    sch = tir.Schedule(te.create_prim_func([a, offsets, c]))
    (i,) = sch.get_loops(sch.get_block("C"))
    _, lanes = sch.split(i, [None, 16])
    sch.compute_at(sch.get_block("B"), lanes)
    sch.vectorize(lanes)
    assert "T.vectorized(16)" in lower(sch.mod).script()
    x = np.arange(n + 8, dtype="float32")
    off = (np.arange(n) % 5).astype("int32")
    out = np.zeros(n, "float32")
    _run(sch.mod, x, off, out)
    np.testing.assert_array_equal(out, 2 * x[np.arange(n) + off + 1])


def test_ramp_value_with_a_variable_base_compiles():
    # C[i*16 : i*16+16] = float(i*16 + lane) * A[...]: a Ramp used as a value, not an index, whose
    # base is a loop variable (int64_t in C, wider than the Ramp's int32 lanes).
    a = tir.decl_buffer((64,), "float32", name="A")
    c = tir.decl_buffer((64,), "float32", name="C")
    pa, pc = tir.Var("A", "handle"), tir.Var("C", "handle")
    i = tir.Var("i", "int32")
    lanes = tir.Ramp(i * 16, 1, 16)
    value = tir.Cast("float32x16", lanes) * tir.BufferLoad(a, [lanes])
    body = tir.For(i, 0, 4, tir.ForKind.SERIAL, tir.BufferStore(c, value, [lanes]))
    func = tir.PrimFunc([pa, pc], body, buffer_map={pa: a, pc: c})
    x = np.full(64, 0.5, "float32")
    out = np.zeros(64, "float32")
    _run(func, x, out)
    np.testing.assert_array_equal(out, np.arange(64, dtype="float32") * 0.5)


def test_very_wide_loop_stays_a_loop():
    # 4096 float32 lanes are hundreds of registers: written out chunk by chunk the C source
    # (and the compile time) would grow with the extent, so the loop stays an omp simd loop.
    n = 4096
    a = te.placeholder((n,), name="A")
    c = te.compute((n,), lambda i: a[i] * 2.0, name="C")
    sch = tir.Schedule(te.create_prim_func([a, c]))
    sch.vectorize(sch.get_loops(sch.get_block("C"))[0])
    lowered = lower(sch.mod)
    assert "T.vectorized(4096)" in lowered.script() and not _ramp_lanes(lowered)
    x = np.arange(n, dtype="float32")
    out = np.zeros(n, "float32")
    _run(sch.mod, x, out)
    np.testing.assert_array_equal(out, 2 * x)
