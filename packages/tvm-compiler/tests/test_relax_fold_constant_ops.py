# FoldConstant of Relax op calls (via legalisation), tuple outputs, and call_tir out_ty.
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


def _bind(mod, **params):
    return relax.transform.BindParams("main", {k: np.asarray(v) for k, v in params.items()})(mod)


def _only_constant_result(mod):
    body = mod["main"].body
    assert not body.blocks, mod.script()
    assert isinstance(body.body, relax.Constant)
    return body.body.data.numpy()


def test_op_calls_of_constants_in_dataflow_fold_to_one_constant():
    @I.ir_module
    class Module:
        @R.function
        def main(a: R.Tensor((4, 4), "float32"), b: R.Tensor((4, 4), "float32")):
            with R.dataflow():
                s = R.add(a, b)
                p = R.multiply(a, s)
                gv = R.subtract(p, b)
                R.output(gv)
            return gv

    a = np.arange(16, dtype="float32").reshape(4, 4)
    b = np.full((4, 4), 2.0, "float32")
    folded = relax.transform.FoldConstant()(_bind(Module, a=a, b=b))
    np.testing.assert_allclose(_only_constant_result(folded), a * (a + b) - b)


def test_op_calls_outside_dataflow_are_left():
    @I.ir_module
    class Module:
        @R.function
        def main(a: R.Tensor((4,), "float32")):
            gv = R.add(a, a)
            return gv

    before = _bind(Module, a=np.ones(4, "float32"))
    after = relax.transform.FoldConstant()(before)
    tvm.ir.assert_structural_equal(after, before)


def test_creation_ops_fold_only_up_to_1024_elements():
    @I.ir_module
    class Module:
        @R.function
        def main():
            with R.dataflow():
                small = R.zeros((32, 32), "float32")
                big = R.ones((1025,), "float32")
                R.output(small, big)
            return (small, big)

    after = relax.transform.FoldConstant()(Module)
    (big_binding,) = after["main"].body.blocks[0].bindings  # small's is folded away
    assert not isinstance(big_binding.value, relax.Constant)
    small, big = after["main"].body.body.fields
    assert isinstance(small, relax.Constant) and small.data.numpy().shape == (32, 32)
    assert big is big_binding.var


def test_call_tir_with_tuple_output_folds_to_a_tuple_of_constants():
    @I.ir_module
    class Module:
        @T.prim_func(private=True)
        def split(
            A: T.Buffer((4,), "float32"), B: T.Buffer((2,), "float32"), C: T.Buffer((2,), "float32")
        ):
            for i in range(2):
                B[i] = A[i]
                C[i] = A[i + 2]

        @R.function
        def main(a: R.Tensor((4,), "float32")):
            cls = Module
            gv = R.call_tir(
                cls.split, (a,), out_ty=[R.Tensor((2,), "float32"), R.Tensor((2,), "float32")]
            )
            return gv

    after = relax.transform.FoldConstant()(_bind(Module, a=np.arange(4, dtype="float32")))
    value = after["main"].body.blocks[0].bindings[0].value
    assert isinstance(value, relax.Tuple) and all(
        isinstance(f, relax.Constant) for f in value.fields
    )
    np.testing.assert_array_equal(value.fields[1].data.numpy(), [2.0, 3.0])


def test_out_ty_is_out_sinfo():
    x = relax.Var("x", R.Tensor((2,), "float32"))
    gv = relax.GlobalVar("f")
    by_ty = relax.op.call_tir(gv, [x], out_ty=R.Tensor((2,), "float32"))
    by_sinfo = relax.op.call_tir(gv, [x], R.Tensor((2,), "float32"))
    tvm.ir.assert_structural_equal(by_ty.sinfo_args, by_sinfo.sinfo_args)
    dps = relax.op.call_dps_packed("ext", [x], out_ty=R.Tensor((2,), "float32"))
    assert len(dps.sinfo_args) == 1
    with pytest.raises(TypeError, match="call_tir: give out_sinfo or out_ty"):
        relax.op.call_tir(gv, [x], R.Tensor((2,), "float32"), out_ty=R.Tensor((2,), "float32"))
    with pytest.raises(TypeError, match="call_tir: missing the output struct info"):
        relax.op.call_tir(gv, [x])


def test_call_tir_takes_a_symbolic_scalar_in_its_args_and_runs_it():
    @I.ir_module
    class Module:
        @T.prim_func(private=True)
        def fill(m: T.int64, out: T.Buffer((T.int64(1),), "int64")):
            out[0] = m

        @R.function
        def main(x: R.Tensor(("m",), "float32")):
            m = T.int64()
            gv = R.call_tir(Module.fill, (m,), R.Tensor((1,), "int64"))
            return gv

    (arg,) = Module["main"].body.blocks[0].bindings[0].value.args[1].fields
    assert isinstance(arg, relax.PrimValue)
    # its value is not a constant: FoldConstant leaves the call
    tvm.ir.assert_structural_equal(relax.transform.FoldConstant()(Module), Module)
    vm = relax.VirtualMachine(tvm.compile(Module, "llvm"), tvm.cpu())
    assert vm["main"](tvm.runtime.tensor(np.zeros(5, "float32"))).numpy().tolist() == [5]


def test_shape_to_tensor_of_a_static_shape_folds_even_without_its_legalisation():
    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor(("m",), "float32")):
            m = T.int64()
            with R.dataflow():
                static = R.shape_to_tensor(R.shape([2, 3]))
                symbolic = R.shape_to_tensor(R.shape([m]))
                R.output(static, symbolic)
            return (static, symbolic)

    op = tvm.ir.Op.get("relax.shape_to_tensor")
    legalize = op.get_attr("FLegalize")
    op.reset_attr("FLegalize")
    try:
        after = relax.transform.FoldConstant()(Module)
    finally:
        op.set_attr("FLegalize", legalize)
    static, symbolic = after["main"].body.body.fields
    assert isinstance(static, relax.Constant) and static.data.numpy().tolist() == [2, 3]
    assert str(static.data.dtype) == "int64"
    assert not isinstance(symbolic, relax.Constant)
