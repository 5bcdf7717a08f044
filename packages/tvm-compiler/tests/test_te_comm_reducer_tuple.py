# Tuple reductions (argmax/argmin over (index, value) pairs, as upstream's tutorials write them)
# through te.compute's multi-output form, create_prim_func, schedules and the C backend.
import numpy as np
import pytest
import tvm
from tvm import te, tir


def _arg_reducer(better, name):
    def fcombine(x, y):
        keep = better(x[1], y[1])
        return tir.Select(keep, x[0], y[0]), tir.Select(keep, x[1], y[1])

    def fidentity(t0, t1):
        worst = te.min_value(t1) if name == "argmax" else te.max_value(t1)
        return tir.const(-1, t0), worst

    return te.comm_reducer(fcombine, fidentity, name=name)


argmax = _arg_reducer(lambda a, b: a >= b, "argmax")
argmin = _arg_reducer(lambda a, b: a <= b, "argmin")


def _program(reducer, dtype="float32"):
    m, n = te.var("m"), te.var("n")
    idx = te.placeholder((m, n), name="idx", dtype="int32")
    val = te.placeholder((m, n), name="val", dtype=dtype)
    k = te.reduce_axis((0, n), "k")
    t0, t1 = te.compute((m,), lambda i: reducer((idx[i, k], val[i, k]), axis=k), name="T")
    return idx, val, t0, t1


def _inputs(m=37, n=53, dtype="float32"):
    rng = np.random.default_rng(0)
    val = rng.integers(-20, 20, size=(m, n)).astype(dtype)  # repeated values: ties
    idx = np.tile(np.arange(n, dtype="int32"), (m, 1))
    return idx, val


@pytest.mark.parametrize(("reducer", "reference"), [(argmax, np.argmax), (argmin, np.argmin)])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_tuple_reduction_matches_numpy(reducer, reference, dtype):
    idx, val, t0, t1 = _program(reducer, dtype)
    f = tvm.compile(te.create_prim_func([idx, val, t0, t1]))
    x_idx, x_val = _inputs(dtype=dtype)
    out_idx, out_val = np.zeros(37, "int32"), np.zeros(37, dtype)
    f(x_idx, x_val, out_idx, out_val)
    # Ties keep the first index, as NumPy does.
    np.testing.assert_array_equal(out_idx, reference(x_val, axis=1))
    np.testing.assert_array_equal(out_val, np.take_along_axis(x_val, out_idx[:, None], 1)[:, 0])


def test_tuple_reduction_tensors_and_block():
    idx, val, t0, t1 = _program(argmax)
    assert (t0.name, t1.name, t0.value_index, t1.value_index) == ("T.v0", "T.v1", 0, 1)
    assert t0.op is t1.op and t0.op.num_outputs == 2 and t0.op.output(1) is t1
    assert (t0.dtype, t1.dtype) == ("int32", "float32")
    func = te.create_prim_func([idx, val, t0, t1])
    sch = tir.Schedule(func)
    block = sch.get(sch.get_block("T"))
    assert sorted(r.buffer.name for r in block.writes) == ["T_v0", "T_v1"]
    assert [s.buffer.name for s in block.init.seq] == ["T_v0", "T_v1"]


def test_only_one_output_as_argument_allocates_the_other():
    idx, val, t0, _ = _program(argmax)
    func = te.create_prim_func([idx, val, t0])
    assert [b.name for b in func.body.block.alloc_buffers] == ["T_v1"]
    x_idx, x_val = _inputs()
    out = np.zeros(37, "int32")
    tvm.compile(func)(x_idx, x_val, out)
    np.testing.assert_array_equal(out, x_val.argmax(1))


def test_tuple_reduction_under_a_schedule():
    idx, val, t0, t1 = _program(argmax)
    sch = tir.Schedule(te.create_prim_func([idx, val, t0, t1]))
    block = sch.get_block("T")
    i, k = sch.get_loops(block)
    io, _ = sch.split(i, [None, 8])
    sch.parallel(io)
    sch.decompose_reduction(block, k)
    f = tvm.compile(sch.mod)
    x_idx, x_val = _inputs()
    out_idx, out_val = np.zeros(37, "int32"), np.zeros(37, "float32")
    f(x_idx, x_val, out_idx, out_val)
    np.testing.assert_array_equal(out_idx, x_val.argmax(1))
    np.testing.assert_array_equal(out_val, x_val.max(1))


def test_multi_output_elementwise_compute():
    a = te.placeholder((16,), name="A")
    lo, hi = te.compute((16,), lambda i: (a[i] - 1.0, a[i] + 1.0), name="P")
    f = tvm.compile(te.create_prim_func([a, lo, hi]))
    x = np.arange(16, dtype="float32")
    y, z = np.zeros_like(x), np.zeros_like(x)
    f(x, y, z)
    np.testing.assert_array_equal(y, x - 1)
    np.testing.assert_array_equal(z, x + 1)


def test_single_value_reducers_are_unchanged():
    a = te.placeholder((8, 9), name="A")
    k = te.reduce_axis((0, 9), "k")
    b = te.compute((8,), lambda i: te.max(a[i, k], axis=k), name="B")
    assert isinstance(b, te.Tensor) and b.op.num_outputs == 1
    x = np.random.default_rng(1).random((8, 9), dtype="float32")
    y = np.zeros(8, "float32")
    tvm.compile(te.create_prim_func([a, b]))(x, y)
    np.testing.assert_array_equal(y, x.max(1))


def test_bad_tuple_reducers_name_the_reducer():
    a = te.placeholder((4, 4), name="A", dtype="int32")
    k = te.reduce_axis((0, 4), "k")
    short = te.comm_reducer(lambda x, y: (x[0],), lambda t0, t1: (0, 0), name="short")
    with pytest.raises(ValueError, match="short: fcombine returned 1 values for 2"):
        short((a[0, k], a[1, k]), axis=k)
    few = te.comm_reducer(lambda x, y: (x[0], x[1]), lambda t0, t1: 0, name="few")
    with pytest.raises(ValueError, match="few: fidentity returned 1 values for 2"):
        few((a[0, k], a[1, k]), axis=k)
    with pytest.raises(ValueError, match="argmax: init has 1 values for 2"):
        argmax((a[0, k], a[1, k]), axis=k, init=(0,))
    with pytest.raises(ValueError, match="compute 'M': fcompute mixes reductions"):
        te.compute((4,), lambda i: (te.sum(a[i, k], axis=k), a[i, 0]), name="M")
    with pytest.raises(ValueError, match="compute 'R': the reductions of a multi-output"):
        te.compute((4,), lambda i: (te.sum(a[i, k], axis=k), te.max(a[i, k], axis=k)), name="R")
    with pytest.raises(IndexError, match="ComputeOp.output: index 2 out of range"):
        te.compute((4,), lambda i: (a[i, 0], a[i, 1]), name="P")[0].op.output(2)
