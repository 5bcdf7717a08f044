# FuseOps / FuseTIR around call_tir with tir_vars (symbolic scalar arguments) and around
# call_tir_inplace: such calls are left out of fused groups, and the program keeps computing
# what it did, for each run-time size.
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class TirVarsInplace:
    @T.prim_func(private=True)
    def shift(a: T.handle, o: T.handle, m: T.int64):
        n = T.int64()
        A = T.match_buffer(a, (n,), "float32")
        Out = T.match_buffer(o, (n,), "float32")
        for i in range(n):
            with T.block("shift"):
                vi = T.axis.spatial(n, i)
                Out[vi] = A[vi] + T.Cast("float32", m)

    @T.prim_func(private=True)
    def add_inplace(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n,), "float32")
        B = T.match_buffer(b, (n,), "float32")
        for i in range(n):
            with T.block("add"):
                vi = T.axis.spatial(n, i)
                A[vi] = A[vi] + B[vi]

    @R.function
    def main(x: R.Tensor(("n",), "float32"), y: R.Tensor(("n",), "float32")) -> R.Tensor(
        ("n",), "float32"
    ):
        n = T.int64()
        cls = TirVarsInplace
        with R.dataflow():
            a = R.exp(x)
            b = R.call_tir(
                cls.shift, (a,), out_sinfo=R.Tensor((n,), "float32"), tir_vars=R.shape([n])
            )
            c = R.multiply(b, y)
            d = R.call_tir_inplace(cls.add_inplace, (c, y), 0, out_sinfo=R.Tensor((n,), "float32"))
            e = R.negative(d)
            R.output(e)
        return e


def _fused(mod):
    seq = [
        relax.transform.LegalizeOps(),
        relax.transform.AnnotateTIROpPattern(),
        relax.transform.FuseOps(),
        relax.transform.FuseTIR(),
    ]
    for p in seq:
        mod = p(mod)
    return mod


def _callees(func) -> list:
    return [b.value.args[0].name_hint for b in func.body.blocks[0].bindings]


def test_tir_vars_and_inplace_calls_stay_out_of_fused_groups():
    fused = _fused(TirVarsInplace)
    ops = [b.value.op.name for b in fused["main"].body.blocks[0].bindings]
    assert ops.count("relax.call_tir_inplace") == 1
    names = _callees(fused["main"])
    assert "shift" in names and "add_inplace" in names
    shift_call = fused["main"].body.blocks[0].bindings[names.index("shift")].value
    assert len(shift_call.args) == 3  # its tir_vars are still passed
    assert relax.analysis.well_formed(fused)


@pytest.mark.parametrize("n", [1, 7, 64])
def test_tir_vars_and_inplace_compute_the_same_after_the_default_pipeline(n):
    vm = relax.VirtualMachine(tvm.compile(TirVarsInplace, target="llvm"), tvm.cpu())
    rng = np.random.default_rng(n)
    x, y = rng.random(n, dtype="float32"), rng.random(n, dtype="float32")
    got = vm["main"](x, y).numpy()
    np.testing.assert_allclose(got, -((np.exp(x) + n) * y + y), rtol=1e-5)


def test_inplace_call_rejects_an_output_that_does_not_match_its_argument():
    x = relax.Var("x", relax.TensorStructInfo((4,), "float32"))
    bb = relax.BlockBuilder()
    call = relax.op.call_tir_inplace(
        tvm.ir.GlobalVar("k"), [x], 0, relax.TensorStructInfo((5,), "float32")
    )
    with pytest.raises((TypeError, ValueError), match="call_tir_inplace"):
        bb.normalize(call)


def test_inplace_call_index_errors():
    x = relax.Var("x", relax.TensorStructInfo((4,), "float32"))
    out = relax.TensorStructInfo((4,), "float32")
    bb = relax.BlockBuilder()
    k = tvm.ir.GlobalVar("k")
    with pytest.raises(ValueError, match=r"inplace_indices\[0\] = 3 is out of range"):
        bb.normalize(relax.op.call_tir_inplace(k, [x], 3, out))
    with pytest.raises(ValueError, match="argument 0 is written in place by two outputs"):
        bb.normalize(relax.op.call_tir_inplace(k, [x], [0, 0], [out, out]))
    with pytest.raises(ValueError, match="inplace_indices has 1 entries but there are 2"):
        bb.normalize(relax.op.call_tir_inplace(k, [x], [0], [out, out]))
    wrong_dtype = relax.TensorStructInfo((4,), "int32")
    with pytest.raises(TypeError, match=r"argument \(4,\) float32, output \(4,\) int32"):
        bb.normalize(relax.op.call_tir_inplace(k, [x], 0, wrong_dtype))
    # -1 means a fresh output tensor: any shape
    fresh = bb.normalize(relax.op.call_tir_inplace(k, [x], [0, -1], [out, wrong_dtype]))
    assert isinstance(fresh.struct_info, relax.TupleStructInfo)
