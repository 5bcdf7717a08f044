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
