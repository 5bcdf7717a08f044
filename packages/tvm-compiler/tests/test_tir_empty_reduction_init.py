# Reductions over an axis whose extent is zero at run time give the init value, not memory.
import numpy as np
import pytest
import tvm
from tvm import relax, te, tir
from tvm.driver import lower
from tvm.tir.schedule import Schedule


def _symbolic_sum(split=None):
    n = tir.Var("n", "int64")
    x = te.placeholder((3, n), "float32", name="x")
    k = te.reduce_axis((0, n), "k")
    s = te.compute((3,), lambda i: te.sum(x[i, k], axis=k), name="s")
    func = te.create_prim_func([x, s])
    if split:
        sch = Schedule(func)
        _, kk = sch.get_loops(sch.get_block("s"))
        sch.split(kk, [None, split])
        func = sch.mod["main"]
    return func


@pytest.mark.parametrize("split", [None, 4])
@pytest.mark.parametrize("length", [0, 1, 7])
def test_a_symbolic_sum_is_zero_over_an_empty_axis_and_right_otherwise(split, length):
    lib = tvm.compile(_symbolic_sum(split), target="llvm")
    x = np.arange(3 * length, dtype="float32").reshape(3, length)
    out = tvm.runtime.tensor(np.full(3, 7.0, "float32"))  # not the answer for any length
    lib["main"](tvm.runtime.tensor(x), out)
    np.testing.assert_array_equal(out.numpy(), x.sum(axis=1))


def test_a_reduction_of_constant_extent_gets_no_guard():
    x = te.placeholder((3, 5), "float32", name="x")
    k = te.reduce_axis((0, 5), "k")
    s = te.compute((3,), lambda i: te.sum(x[i, k], axis=k), name="s")
    assert "<= " not in lower(te.create_prim_func([x, s])).script()


def test_relax_reductions_and_matmul_over_an_empty_symbolic_axis():
    n = tir.Var("n", "int64")
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo((3, n), "float32"))
    with bb.function("main", [x]):
        with bb.dataflow():
            outs = [
                bb.emit(relax.op.sum(x, axis=1)),
                bb.emit(relax.op.prod(x, axis=1)),
                bb.emit(relax.op.max(x, axis=1)),
                bb.emit(relax.op.matmul(x, relax.op.permute_dims(x))),
            ]
            result = bb.emit_output(relax.Tuple(outs))
        bb.emit_func_output(result)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    for _ in range(2):  # the second call gets memory the first one left behind
        total, product, largest, gram = (
            o.numpy() for o in vm["main"](tvm.runtime.tensor(np.zeros((3, 0), "float32")))
        )
        np.testing.assert_array_equal(total, np.zeros(3, "float32"))
        np.testing.assert_array_equal(product, np.ones(3, "float32"))
        assert np.all(np.isneginf(largest))
        np.testing.assert_array_equal(gram, np.zeros((3, 3), "float32"))


def _fused_rows(how):
    m, n = tir.Var("m", "int64"), tir.Var("n", "int64")
    x = te.placeholder((m, n), "float32", name="x")
    k = te.reduce_axis((0, n), "k")
    s = te.compute((m,), lambda i: te.sum(x[i, k], axis=k), name="s")
    sch = Schedule(te.create_prim_func([x, s]))
    i, kk = sch.get_loops(sch.get_block("s"))
    if how == "fuse":
        sch.fuse(i, kk)
    elif how == "reorder+fuse":
        sch.reorder(kk, i)
        sch.fuse(kk, i)
    else:  # a parallel outer part of the rows, the inner part fused with the reduction
        io, ii = sch.split(i, [None, 2])
        sch.fuse(ii, kk)
        sch.parallel(io)
    return sch.mod["main"]


@pytest.mark.parametrize("how", ["fuse", "reorder+fuse", "split+fuse+parallel"])
@pytest.mark.parametrize("target", ["llvm", "c"])
@pytest.mark.parametrize("shape", [(3, 0), (0, 0), (0, 2), (3, 5)])
def test_a_loop_fused_from_rows_and_an_empty_reduction_still_initialises(how, target, shape):
    # the fused loop runs rows * 0 = 0 times: the rows kept whatever memory held
    lib = tvm.compile(_fused_rows(how), target=target)
    x = np.random.default_rng(0).random(shape, dtype="float32")
    out = tvm.runtime.tensor(np.full(shape[0], 7.0, "float32"))
    lib["main"](tvm.runtime.tensor(x), out)
    np.testing.assert_allclose(out.numpy(), x.sum(axis=1), rtol=1e-6)


@pytest.mark.parametrize("shape", [(3, 0, 4), (3, 4, 0), (3, 2, 3)])
def test_rows_fused_with_one_of_two_reduction_axes(shape):
    n, m = tir.Var("n", "int64"), tir.Var("m", "int64")
    y = te.placeholder((3, n, m), "float32", name="y")
    k1, k2 = te.reduce_axis((0, n), "k1"), te.reduce_axis((0, m), "k2")
    s = te.compute((3,), lambda i: te.sum(y[i, k1, k2], axis=[k1, k2]), name="s")
    sch = Schedule(te.create_prim_func([y, s]))
    i, a1, _ = sch.get_loops(sch.get_block("s"))
    sch.fuse(i, a1)
    lib = tvm.compile(sch.mod["main"], target="llvm")
    y_np = np.random.default_rng(1).random(shape, dtype="float32")
    out = tvm.runtime.tensor(np.full(3, 7.0, "float32"))
    lib["main"](tvm.runtime.tensor(y_np), out)
    np.testing.assert_allclose(out.numpy(), y_np.sum(axis=(1, 2)), rtol=1e-6)


def test_an_argmax_fused_with_its_rows_over_nothing_is_its_identity():
    n = tir.Var("n", "int64")

    def combine(a, b):
        return tir.Select(a[1] >= b[1], a[0], b[0]), tir.Select(a[1] >= b[1], a[1], b[1])

    argmax = te.comm_reducer(
        combine, lambda t0, t1: (tir.const(-1, t0), te.min_value(t1)), name="argmax"
    )
    idx = te.placeholder((3, n), "int32", name="idx")
    x = te.placeholder((3, n), "float32", name="x")
    k = te.reduce_axis((0, n), "k")
    t0, t1 = te.compute((3,), lambda i: argmax((idx[i, k], x[i, k]), axis=k), name="T")
    sch = Schedule(te.create_prim_func([idx, x, t0, t1]))
    sch.fuse(*sch.get_loops(sch.get_block("T")))
    lib = tvm.compile(sch.mod["main"], target="llvm")
    where, best = tvm.runtime.tensor(np.full(3, 7, "int32")), tvm.runtime.tensor(np.ones(3, "f4"))
    empty = [tvm.runtime.tensor(np.zeros((3, 0), d)) for d in ("int32", "float32")]
    lib["main"](*empty, where, best)
    np.testing.assert_array_equal(where.numpy(), [-1, -1, -1])
    assert np.all(np.isneginf(best.numpy()))
