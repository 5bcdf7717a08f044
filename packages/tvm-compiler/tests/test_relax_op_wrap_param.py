# relax.op.wrap_param / R.wrap_param: a model parameter cast to the compute dtype (upstream's
# mixed-precision helper of the frontends): struct info, legalisation, a run, and bad input.
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.script import ir as I
from tvm.script import relax as R


def test_struct_info_keeps_the_shape_and_takes_the_dtype():
    n = tvm.tir.Var("n", "int64")
    x = relax.Var("x", relax.TensorStructInfo((n, 4), "float16"))
    call = relax.BlockBuilder().normalize(relax.op.wrap_param(x, "float32"))
    assert call.op.name == "relax.wrap_param"
    assert call.attrs.dtype == "float32"
    sinfo = call.struct_info
    assert sinfo.dtype == "float32" and sinfo.ndim == 2
    tvm.ir.assert_structural_equal(sinfo.shape, x.struct_info.shape)
    default = relax.BlockBuilder().normalize(relax.op.wrap_param(x))
    assert default.struct_info.dtype == "float32"  # upstream's default dtype


def test_bad_input_names_the_op_and_the_argument():
    bb = relax.BlockBuilder()
    with pytest.raises(TypeError, match="wrap_param: argument 'data' must be a tensor"):
        bb.normalize(relax.op.wrap_param(relax.Var("s", relax.ShapeStructInfo([2])), "float32"))
    with pytest.raises(ValueError, match="wrap_param: argument 'dtype' must be a data type"):
        relax.op.wrap_param(relax.Var("x", relax.TensorStructInfo((2,), "float16")), "nonsense")


@I.ir_module
class Mixed:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32"), w: R.Tensor((4, 3), "float16")) -> R.Tensor(
        ("n", 3), "float32"
    ):
        with R.dataflow():
            w32 = R.wrap_param(w, dtype="float32")
            y = R.matmul(x, w32)
            R.output(y)
        return y


def test_a_tensor_parameter_is_cast_by_a_kernel_and_the_program_runs():
    legal = relax.transform.LegalizeOps()(Mixed)
    (cast, _) = legal["main"].body.blocks[0].bindings
    assert cast.value.op.name == "relax.call_tir"
    assert cast.value.args[0].name_hint == "wrap_param"
    vm = relax.VirtualMachine(tvm.compile(Mixed, target="llvm"), tvm.cpu())
    rng = np.random.default_rng(0)
    for n in (1, 5):
        x = rng.random((n, 4), dtype="float32")
        w = rng.random((4, 3)).astype("float16")
        got = vm["main"](x, w).numpy()
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, x @ w.astype("float32"), rtol=1e-5)


def test_a_constant_weight_is_cast_at_compile_time_and_a_same_dtype_wrap_is_dropped():
    w = np.arange(6, dtype="float16").reshape(2, 3) / 4
    x = relax.Var("x", relax.TensorStructInfo((2, 3), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            wc = bb.emit(relax.op.wrap_param(relax.const(w, "float16"), "float32"))
            same = bb.emit(relax.op.wrap_param(x, "float32"))
            out = bb.emit_output(relax.op.add(same, wc))
        bb.emit_func_output(out)
    legal = relax.transform.LegalizeOps()(bb.get())
    bindings = legal["main"].body.blocks[0].bindings
    assert isinstance(bindings[0].value, relax.Constant)
    assert bindings[0].value.data.dtype == "float32"
    assert bindings[1].value is x  # already float32: no cast
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    xv = np.ones((2, 3), "float32")
    np.testing.assert_allclose(vm["main"](xv).numpy(), xv + w.astype("float32"))


def test_wrap_param_round_trips_through_tvmscript():
    from tvm.script import from_source

    tvm.ir.assert_structural_equal(from_source(Mixed.script()), Mixed)
    assert "R.wrap_param(w" in Mixed.script()
