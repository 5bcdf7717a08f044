"""relax.op.strided_slice / R.strided_slice with symbolic (PrimExpr) begin, end and strides:
struct info with symbolic extents, TVMScript round trip, legalisation and a VM run vs NumPy."""

import numpy as np
import pytest
import tvm
from tvm import relax, tir
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


def _slice_shape(sinfo, **values):
    """The static extents of sinfo's shape once its symbolic variables take values."""
    dims = []
    for dim in sinfo.shape.values:
        vmap = {
            v: tir.IntImm("int64", values[v.name]) for v in tvm.tir.analysis.undefined_vars(dim)
        }
        dims.append(int(tvm.arith.Analyzer().simplify(tir.stmt_functor.substitute(dim, vmap))))
    return tuple(dims)


def test_symbolic_end_struct_info_follows_python_slicing():
    x = relax.Var("x", R.Tensor(("n", 4), "float32"))
    n = x.struct_info.shape.values[0]
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        y = bb.emit(relax.op.strided_slice(x, axes=[0], begin=[1], end=[n - 1]))
        bb.emit_func_output(y)
    sinfo = bb.get()["main"].ret_struct_info
    assert sinfo.ndim == 2 and int(sinfo.shape.values[1]) == 4
    for size in (0, 1, 2, 3, 7):
        expected = np.zeros((size, 4))[1 : size - 1].shape
        assert _slice_shape(sinfo, n=size) == expected


def test_symbolic_begin_and_stride_struct_info():
    m = tir.Var("m", "int64")
    s = tir.Var("s", "int64")
    x = relax.Var("x", R.Tensor((10,), "float32"))
    call = relax.op.strided_slice(x, axes=[0], begin=[m], end=[10], strides=[s])
    sinfo = relax.BlockBuilder().normalize(call).struct_info
    for mv, sv in ((0, 1), (3, 2), (9, 4), (-4, 1), (12, 1), (8, -3), (-1, -1)):
        assert _slice_shape(sinfo, m=mv, s=sv) == np.zeros(10)[mv:10:sv].shape, (mv, sv)


def test_bad_symbolic_values_rejected():
    x = relax.Var("x", R.Tensor((10,), "float32"))
    with pytest.raises(TypeError, match="strided_slice: begin must be ints or integer PrimExprs"):
        relax.op.strided_slice(x, axes=[0], begin=[tir.Var("f", "float32")], end=[3])
    with pytest.raises(TypeError, match="strided_slice: axes must be ints"):
        relax.op.strided_slice(x, axes=[tir.Var("a", "int64")], begin=[0], end=[3])


@I.ir_module
class _Module:
    @R.function
    def main(x: R.Tensor(("n", 6), "float32")):
        n = T.int64()
        y = R.strided_slice(x, axes=[0, 1], begin=[n // 4, 1], end=[n - 1, 6], strides=[2, 2])
        return y


def test_tvmscript_round_trip():
    text = _Module.script()
    assert "R.strided_slice(" in text
    tvm.ir.assert_structural_equal(_Module, tvm.script.from_source(text))


@pytest.mark.parametrize("rows", [9, 4, 1])
def test_legalised_vm_run_matches_numpy(rows):
    mod = relax.transform.LegalizeOps()(_Module)
    ex = relax.build(mod, "llvm -mcpu=x86-64")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    data = np.arange(rows * 6, dtype="float32").reshape(rows, 6)
    out = vm["main"](tvm.runtime.tensor(data)).numpy()
    np.testing.assert_array_equal(out, data[rows // 4 : rows - 1 : 2, 1:6:2])
