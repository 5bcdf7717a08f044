# FuseOps / FuseTIR of call_tir with tir_vars (symbolic scalar arguments) and of
# call_tir_inplace: they fuse as upstream's do (a symbolic var only tir_vars name becomes the
# group's "tir_vars" shape parameter; an in-place write into a group parameter makes the fused
# call a call_tir_inplace), and the program computes the same for each run-time size.
import numpy as np
import pytest
import tvm
import tvm_ffi
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


def test_tir_vars_and_inplace_calls_fuse_into_one_kernel():
    fused = _fused(TirVarsInplace)
    (binding,) = fused["main"].body.blocks[0].bindings
    assert binding.value.op.name == "relax.call_tir"
    name = binding.value.args[0].name_hint
    assert name == "fused_exp_shift_multiply_add_inplace_negative"
    prim = fused[name]
    # x, y and the output: the in-place add wrote over an intermediate, the kernels are gone
    assert len(prim.params) == 3
    assert {gv.name_hint for gv in fused.get_global_vars()} == {"main", name}
    assert relax.analysis.well_formed(fused)


@I.ir_module
class FreeSymbolic:
    @T.prim_func(private=True)
    def shift(a: T.handle, o: T.handle, m: T.int64):
        n = T.int64()
        A = T.match_buffer(a, (n,), "float32")
        Out = T.match_buffer(o, (n,), "float32")
        for i in range(n):
            with T.block("shift"):
                vi = T.axis.spatial(n, i)
                Out[vi] = A[vi] + T.Cast("float32", m)

    @R.function
    def main(x: R.Tensor(("n",), "float32"), s: R.Shape(["m"])) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        m = T.int64()
        cls = FreeSymbolic
        with R.dataflow():
            a = R.exp(x)
            b = R.call_tir(
                cls.shift, (a,), out_sinfo=R.Tensor((n,), "float32"), tir_vars=R.shape([m])
            )
            c = R.negative(b)
            R.output(c)
        return c


def test_a_symbolic_var_only_tir_vars_name_becomes_the_groups_tir_vars_parameter():
    grouped = relax.transform.FuseOps()(
        relax.transform.AnnotateTIROpPattern()(relax.transform.LegalizeOps()(FreeSymbolic))
    )
    group = grouped["fused_exp_shift_negative"]
    assert [p.name_hint for p in group.params] == ["x", "tir_vars"]
    assert isinstance(group.params[1].struct_info, relax.ShapeStructInfo)
    fused = _fused(FreeSymbolic)
    (binding,) = fused["main"].body.blocks[0].bindings
    call = binding.value
    assert len(call.args) == 3  # the fused PrimFunc takes m as a trailing scalar: tir_vars
    assert isinstance(call.args[2], relax.ShapeExpr)
    prim = fused[call.args[0].name_hint]
    assert prim.params[-1].dtype == "int64" and len(prim.params) == 3
    assert relax.analysis.well_formed(fused)


@pytest.mark.parametrize("n", [1, 7, 64])
def test_a_group_with_a_free_symbolic_var_runs_for_each_size(n):
    vm = relax.VirtualMachine(tvm.compile(FreeSymbolic, target="llvm"), tvm.cpu())
    x = np.random.default_rng(n).random(n, dtype="float32")
    m = 3 * n + 1
    got = vm["main"](x, tvm_ffi.Shape([m])).numpy()
    np.testing.assert_allclose(got, -(np.exp(x) + m), rtol=1e-5)


@I.ir_module
class InplaceIntoParam:
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
        cls = InplaceIntoParam
        with R.dataflow():
            a = R.exp(x)
            d = R.call_tir_inplace(cls.add_inplace, (y, a), 0, out_sinfo=R.Tensor((n,), "float32"))
            R.output(d)
        return d


def test_an_in_place_write_into_a_group_parameter_fuses_to_call_tir_inplace():
    fused = _fused(InplaceIntoParam)
    (binding,) = fused["main"].body.blocks[0].bindings
    call = binding.value
    assert call.op.name == "relax.call_tir_inplace"
    assert [int(i) for i in call.attrs.inplace_indices] == [1]  # written over y
    assert call.args[0].name_hint == "fused_exp_add_inplace"
    assert len(fused[call.args[0].name_hint].params) == 2  # x and y, no output buffer
    assert relax.analysis.well_formed(fused)


@pytest.mark.parametrize("n", [1, 7, 64])
def test_an_in_place_group_runs_for_each_size(n):
    vm = relax.VirtualMachine(tvm.compile(InplaceIntoParam, target="llvm"), tvm.cpu())
    rng = np.random.default_rng(n)
    x, y = rng.random(n, dtype="float32"), rng.random(n, dtype="float32")
    want = y + np.exp(x)  # before the call: the in-place kernel may write over y's memory
    np.testing.assert_allclose(vm["main"](x, y.copy()).numpy(), want, rtol=1e-5)


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


def _primitive_with_shape_param():
    """Upstream's FuseTIR case: a Primitive function whose shape parameter ("tir_vars") names
    a var the tensors use only inside an expression (y: (n - 1, 4))."""
    from tvm import te, tir

    n = tir.Var("n", "int64")

    def params():
        return [
            relax.Var("x", relax.TensorStructInfo((3, 4), "float32")),
            relax.Var("y", relax.TensorStructInfo((n - 1, 4), "float32")),
            relax.Var("tir_vars", relax.ShapeStructInfo([n])),
        ]

    def transpose(a):
        return te.compute((a.shape[1], a.shape[0]), lambda i, j: a[j, i], name="T_transpose")

    def matmul(a, b):
        k = te.reduce_axis((0, a.shape[1]), name="k")
        return te.compute(
            (a.shape[0], b.shape[1]),
            lambda i, j: te.sum(a[i, k] * b[k, j], axis=k),
            name="T_matmul",
        )

    bb = relax.BlockBuilder()
    x, y, s = params()
    with bb.function("fused_transpose_matmul", [x, y, s], attrs={"Primitive": 1}, private=True):
        with bb.dataflow():
            lv = bb.emit_te(transpose, x)
            gv = bb.emit_output(bb.call_te(matmul, y, lv))
        bb.emit_func_output(gv)
    fused = bb.get().get_global_var("fused_transpose_matmul")
    x, y, s = params()
    with bb.function("main", [x, y, s]):
        with bb.dataflow():
            out = bb.emit_output(relax.Call(fused, [x, y, s]))
        bb.emit_func_output(out)
    return bb.get()


def test_fuse_tir_turns_a_shape_parameter_into_trailing_scalars_and_a_shape_expr():
    after = relax.transform.FuseTIR()(_primitive_with_shape_param())
    (binding,) = after["main"].body.blocks[0].bindings
    call = binding.value
    assert isinstance(call.args[2], relax.ShapeExpr)  # tir_vars=R.shape([n]), as upstream
    prim = after["fused_transpose_matmul"]
    # x, y, the output, then n
    assert len(prim.params) == 4 and prim.params[3].dtype == "int64"
    assert prim.params[3].name == "n" and call.args[2].values[0].name == "n"
    assert relax.analysis.well_formed(after)


@pytest.mark.parametrize("rows", [1, 7, 64])
def test_a_fused_shape_parameter_runs_for_each_size(rows):
    after = relax.transform.FuseTIR()(_primitive_with_shape_param())
    vm = relax.VirtualMachine(tvm.compile(after, target="llvm"), tvm.cpu())
    rng = np.random.default_rng(rows)
    x, y = rng.random((3, 4), dtype="float32"), rng.random((rows, 4), dtype="float32")
    got = vm["main"](x, y, tvm_ffi.Shape([rows + 1])).numpy()
    np.testing.assert_allclose(got, y @ x.T, rtol=1e-5)
