# relax.transform.FuseOpsByPattern: what each pattern matches becomes a composite function
# (Composite + Primitive, or wrapped for a codegen with annotate_codegen) structurally equal to
# apache-tvm's output; leaking intermediates become tuple outputs, constants stay or become
# parameters, checks and priorities decide, and the fused module compiles and runs as NumPy.
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.relax.dpl import is_call_tir, is_const, is_op, is_tuple_get_item, wildcard
from tvm.relax.transform import FuseOpsByPattern, FusionPattern, PatternCheckContext
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class MatmulBiasRelu:
    @R.function
    def main(
        x: R.Tensor((2, 4), "float32"), w: R.Tensor((4, 3), "float32"), b: R.Tensor((3,), "float32")
    ) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            lv0 = R.matmul(x, w)
            lv1 = R.add(lv0, b)
            lv2 = R.nn.relu(lv1)
            gv = R.exp(lv2)
            R.output(gv)
        return gv


def _matmul_bias_relu():
    mm = is_op("relax.matmul")(wildcard(), wildcard())
    return is_op("relax.nn.relu")(is_op("relax.add")(mm, wildcard()))


def test_composite_function():
    @I.ir_module
    class Expected:
        @R.function(private=True)
        def fused_relax_matmul_relax_add_relax_nn_relu(
            x: R.Tensor((2, 4), "float32"),
            w: R.Tensor((4, 3), "float32"),
            b: R.Tensor((3,), "float32"),
        ) -> R.Tensor((2, 3), "float32"):
            R.func_attr({"Composite": "dnnl.matmul_bias_relu", "Primitive": True})
            with R.dataflow():
                lv0 = R.matmul(x, w)
                lv1 = R.add(lv0, b)
                gv = R.nn.relu(lv1)
                R.output(gv)
            return gv

        @R.function
        def main(
            x: R.Tensor((2, 4), "float32"),
            w: R.Tensor((4, 3), "float32"),
            b: R.Tensor((3,), "float32"),
        ) -> R.Tensor((2, 3), "float32"):
            cls = Expected
            with R.dataflow():
                lv = cls.fused_relax_matmul_relax_add_relax_nn_relu(x, w, b)
                gv = R.exp(lv)
                R.output(gv)
            return gv

    out = FuseOpsByPattern([("dnnl.matmul_bias_relu", _matmul_bias_relu())])(MatmulBiasRelu)
    tvm.ir.assert_structural_equal(out, Expected)
    assert relax.analysis.well_formed(out)


def test_annotate_codegen():
    @I.ir_module
    class Expected:
        @R.function
        def fused_relax_matmul_relax_add_relax_nn_relu_dnnl(
            x: R.Tensor((2, 4), "float32"),
            w: R.Tensor((4, 3), "float32"),
            b: R.Tensor((3,), "float32"),
        ) -> R.Tensor((2, 3), "float32"):
            R.func_attr({"Codegen": "dnnl"})

            @R.function
            def local_func(
                x_1: R.Tensor((2, 4), "float32"),
                w_1: R.Tensor((4, 3), "float32"),
                b_1: R.Tensor((3,), "float32"),
            ) -> R.Tensor((2, 3), "float32"):
                R.func_attr({"Composite": "dnnl.matmul_bias_relu"})
                with R.dataflow():
                    lv0 = R.matmul(x_1, w_1)
                    lv1 = R.add(lv0, b_1)
                    gv = R.nn.relu(lv1)
                    R.output(gv)
                return gv

            output = local_func(x, w, b)
            return output

        @R.function
        def main(
            x: R.Tensor((2, 4), "float32"),
            w: R.Tensor((4, 3), "float32"),
            b: R.Tensor((3,), "float32"),
        ) -> R.Tensor((2, 3), "float32"):
            cls = Expected
            with R.dataflow():
                lv = cls.fused_relax_matmul_relax_add_relax_nn_relu_dnnl(x, w, b)
                gv = R.exp(lv)
                R.output(gv)
            return gv

    patterns = [FusionPattern("dnnl.matmul_bias_relu", _matmul_bias_relu())]
    out = FuseOpsByPattern(patterns, annotate_codegen=True)(MatmulBiasRelu)
    tvm.ir.assert_structural_equal(out, Expected)
    outer = out["fused_relax_matmul_relax_add_relax_nn_relu_dnnl"]
    assert outer.attrs["Codegen"] == "dnnl"
    assert outer.attrs["global_symbol"] == "fused_relax_matmul_relax_add_relax_nn_relu_dnnl"


def test_fused_module_compiles_and_runs():
    out = FuseOpsByPattern([("dnnl.matmul_bias_relu", _matmul_bias_relu())])(MatmulBiasRelu)
    vm = relax.VirtualMachine(tvm.compile(out, target="llvm"), tvm.cpu())
    rng = np.random.default_rng(1)
    x, w, b = (rng.standard_normal(s).astype("float32") for s in [(2, 4), (4, 3), (3,)])
    want = np.exp(np.maximum(x @ w + b, 0))
    np.testing.assert_allclose(vm["main"](x, w, b).numpy(), want, rtol=1e-5, atol=1e-6)


@I.ir_module
class TwoAddRelu:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")):
        with R.dataflow():
            lv0 = R.add(x, y)
            lv1 = R.nn.relu(lv0)
            lv2 = R.add(lv1, y)
            lv3 = R.nn.relu(lv2)
            gv = R.exp(lv3)
            R.output(gv)
        return gv


def test_equal_groups_share_one_function():
    pat = is_op("relax.nn.relu")(is_op("relax.add")(wildcard(), wildcard()))
    out = FuseOpsByPattern([("x.add_relu", pat)])(TwoAddRelu)
    assert sorted(gv.name_hint for gv in out.get_global_vars()) == [
        "fused_relax_add_relax_nn_relu",
        "main",
    ]
    calls = [b.value for b in out["main"].body.blocks[0].bindings]
    assert [c.op.name_hint for c in calls[:2]] == ["fused_relax_add_relax_nn_relu"] * 2
    wrapped = FuseOpsByPattern([("x.add_relu", pat)], annotate_codegen=True)(TwoAddRelu)
    assert sorted(gv.name_hint for gv in wrapped.get_global_vars()) == [
        "fused_relax_add_relax_nn_relu_x",
        "main",
    ]


@I.ir_module
class Leaking:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")):
        with R.dataflow():
            lv0 = R.add(x, R.const(np.full((2, 3), 0.5, "float32")))
            lv1 = R.nn.relu(lv0)
            lv2 = R.add(y, R.const(np.full((2, 3), -1.0, "float32")))
            lv3 = R.nn.relu(lv2)
            lv4 = R.multiply(lv1, lv3)
            gv = R.add(lv4, lv0)
            R.output(gv)
        return gv


def _add_const_relu():
    return is_op("relax.nn.relu")(is_op("relax.add")(wildcard(), is_const()))


def test_leaking_intermediate_is_a_second_output():
    out = FuseOpsByPattern([("x.add_relu", _add_const_relu())])(Leaking)
    first = out["fused_relax_add_relax_nn_relu"]
    # The root's value first, then the intermediate main still reads (upstream's order).
    assert isinstance(first.body.body, relax.Tuple)
    inner = first.body.blocks[0].bindings
    assert [b.value.op.name for b in inner] == ["relax.add", "relax.nn.relu"]
    assert first.body.body.fields[0] is inner[1].var
    assert first.body.body.fields[1] is inner[0].var
    assert [p.name_hint for p in first.params] == ["x"]  # the constant stays inside
    assert isinstance(inner[0].value.args[1], relax.Constant)
    second = out["fused_relax_add_relax_nn_relu1"]
    assert isinstance(second.body.body, relax.Var)
    main = out["main"].body.blocks[0].bindings
    assert [type(b.value).__name__ for b in main] == [
        "Call",
        "TupleGetItem",
        "TupleGetItem",
        "Call",
        "Call",
        "Call",
    ]
    assert relax.analysis.well_formed(out)


def test_unbound_constants_become_parameters():
    out = FuseOpsByPattern([("x.add_relu", _add_const_relu())], bind_constants=False)(Leaking)
    func = out["fused_relax_add_relax_nn_relu1"]
    assert [p.name_hint for p in func.params] == ["y", "param_0"]
    call = out["main"].body.blocks[0].bindings[3].value
    assert isinstance(call.args[1], relax.Constant)


@pytest.mark.parametrize("bind_constants", [True, False])
def test_leaking_module_runs(bind_constants):
    patterns = [("x.add_relu", _add_const_relu())]
    out = FuseOpsByPattern(patterns, bind_constants=bind_constants)(Leaking)
    vm = relax.VirtualMachine(tvm.compile(out, target="llvm"), tvm.cpu())
    rng = np.random.default_rng(2)
    x, y = (rng.standard_normal((2, 3)).astype("float32") for _ in range(2))
    lv0 = x + 0.5
    want = np.maximum(lv0, 0) * np.maximum(y - 1, 0) + lv0
    np.testing.assert_allclose(vm["main"](x, y).numpy(), want, rtol=1e-5, atol=1e-6)


def test_check_sees_the_match_and_can_refuse():
    seen = []

    def check(ctx):
        assert isinstance(ctx, PatternCheckContext)
        seen.append(ctx)
        return len(seen) == 1  # accept the first match only

    mm = is_op("relax.add")(wildcard(), wildcard())
    pat = is_op("relax.nn.relu")(mm)
    fusion = FusionPattern("x.add_relu", pat, {"add": mm}, check)
    out = FuseOpsByPattern([fusion])(TwoAddRelu)
    assert len(seen) == 2
    ctx = seen[0]
    assert ctx.matched_expr.op.name == "relax.nn.relu"
    assert ctx.annotated_expr["add"].op.name == "relax.add"
    assert [v.name_hint for v in ctx.matched_bindings] == ["lv0", "lv1"]
    assert [v.name_hint for v in ctx.var_usages[TwoAddRelu["main"].params[1]]] == ["lv0", "lv2"]
    assert [v.name_hint for v in ctx.value_to_bound_var.values()] == ["lv0"]
    ops = [b.value.op for b in out["main"].body.blocks[0].bindings]
    assert [getattr(o, "name_hint", None) or o.name for o in ops] == [
        "fused_relax_add_relax_nn_relu",
        "relax.add",
        "relax.nn.relu",
        "relax.exp",
    ]


def test_earlier_patterns_take_priority():
    add = is_op("relax.add")(wildcard(), wildcard())
    add_relu = is_op("relax.nn.relu")(add)
    out = FuseOpsByPattern([("x.add", add), ("x.add_relu", add_relu)])(TwoAddRelu)
    names = sorted(gv.name_hint for gv in out.get_global_vars())
    assert names == ["fused_relax_add", "main"]
    out = FuseOpsByPattern([("x.add_relu", add_relu), ("x.add", add)])(TwoAddRelu)
    assert out["fused_relax_add_relax_nn_relu"].attrs["Composite"] == "x.add_relu"


def test_entry_functions_and_non_dataflow_code():
    pat = is_op("relax.nn.relu")(is_op("relax.add")(wildcard(), wildcard()))
    mod = tvm.IRModule(dict(TwoAddRelu.functions))
    mod["other"] = TwoAddRelu["main"].with_attr("global_symbol", "other")
    out = FuseOpsByPattern([("x.add_relu", pat)], entry_functions=["main"])(mod)
    assert out["main"].body.blocks[0].bindings[0].value.op.name_hint.startswith("fused_")
    assert out["other"].body.blocks[0].bindings[0].value.op.name == "relax.add"
    out = FuseOpsByPattern([("x.add_relu", pat)], entry_functions=[])(mod)  # all, as None
    assert out["other"].body.blocks[0].bindings[0].value.op.name_hint.startswith("fused_")
    with pytest.raises(ValueError, match="FuseOpsByPattern: entry_functions names 'nope'"):
        FuseOpsByPattern([("x.add_relu", pat)], entry_functions=["nope"])(mod)

    @I.ir_module
    class NoDataflow:
        @R.function
        def main(x: R.Tensor((2, 3), "float32")):
            lv0 = R.add(x, x)
            gv = R.nn.relu(lv0)
            return gv

    tvm.ir.assert_structural_equal(FuseOpsByPattern([("x.add_relu", pat)])(NoDataflow), NoDataflow)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: FuseOpsByPattern(("x", wildcard())), "FuseOpsByPattern: patterns must be a list"),
        (lambda: FuseOpsByPattern([3]), r"FuseOpsByPattern: patterns\[0\] must be a FusionPattern"),
        (lambda: FuseOpsByPattern([("x", wildcard())], bind_constants=1), "bind_constants must"),
        (lambda: FuseOpsByPattern([], annotate_codegen="yes"), "annotate_codegen must be a bool"),
        (lambda: FuseOpsByPattern([], entry_functions="main"), "entry_functions must be a list"),
        (lambda: FusionPattern(3, wildcard()), "FusionPattern: name must be a str"),
        (lambda: FusionPattern("x", "add"), "FusionPattern: pattern must be a DFPattern"),
        (lambda: FusionPattern("x", wildcard(), [1]), "annotation_patterns must be a dict"),
        (lambda: FusionPattern("x", wildcard(), None, 3), "check must be callable"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(TypeError, match=message):
        call()


@I.ir_module
class SplitExp:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")):
        with R.dataflow():
            lv0 = R.split(x, 3, axis=1)
            lv1 = lv0[0]
            lv2 = R.exp(lv1)
            lv3 = R.add(lv2, lv0[1])
            R.output(lv3)
        return lv3


def test_tuple_items_join_the_group():
    # The split is read after the group too, so it is an output: first, as main reads it
    # first (apache-tvm's order of outputs).
    @I.ir_module
    class Expected:
        @R.function(private=True)
        def fused_relax_split_relax_exp(x: R.Tensor((2, 3), "float32")) -> R.Tuple(
            R.Tuple(
                R.Tensor((2, 1), "float32"),
                R.Tensor((2, 1), "float32"),
                R.Tensor((2, 1), "float32"),
            ),
            R.Tensor((2, 1), "float32"),
        ):
            R.func_attr({"Composite": "x.split_exp", "Primitive": True})
            with R.dataflow():
                gv = R.split(x, indices_or_sections=3, axis=1)
                lv1 = gv[0]
                gv1 = R.exp(lv1)
                R.output(gv, gv1)
            return (gv, gv1)

        @R.function
        def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 1), "float32"):
            cls = Expected
            with R.dataflow():
                lv = cls.fused_relax_split_relax_exp(x)
                lv0 = lv[0]
                lv2 = lv[1]
                lv_1 = lv0[1]
                lv3 = R.add(lv2, lv_1)
                R.output(lv3)
            return lv3

    pat = is_op("relax.exp")(is_tuple_get_item(is_op("relax.split")(wildcard()), 0))
    out = FuseOpsByPattern([("x.split_exp", pat)])(SplitExp)
    tvm.ir.assert_structural_equal(out, Expected)
    vm = relax.VirtualMachine(tvm.compile(out, target="llvm"), tvm.cpu())
    data = np.random.default_rng(6).standard_normal((2, 3)).astype("float32")
    want = np.exp(data[:, :1]) + data[:, 1:2]
    np.testing.assert_allclose(vm["main"](data).numpy(), want, rtol=1e-5)


def test_attrs_getter_adds_attributes():
    add = is_op("relax.add")(wildcard(), wildcard())
    pat = is_op("relax.nn.relu")(add)

    def attrs_getter(annotated):
        return {"add_dtype": str(annotated["add"].struct_info.dtype)}

    fusion = FusionPattern("x.add_relu", pat, {"add": add}, attrs_getter=attrs_getter)
    out = FuseOpsByPattern([fusion])(TwoAddRelu)
    attrs = out["fused_relax_add_relax_nn_relu"].attrs
    assert attrs["add_dtype"] == "float32" and attrs["Composite"] == "x.add_relu"
    # A list was read as dict.update's sequence: "cannot convert dictionary update sequence".
    bad = FusionPattern("x.add_relu", pat, {"add": add}, attrs_getter=lambda annotated: [1])
    with pytest.raises(TypeError, match="attrs_getter of pattern 'x.add_relu' must return a dict"):
        FuseOpsByPattern([bad])(TwoAddRelu)


def test_call_tir_patterns_after_legalization():
    @I.ir_module
    class ExpRelu:
        @R.function
        def main(x: R.Tensor((2, 3), "float32")):
            with R.dataflow():
                lv0 = R.exp(x)
                gv = R.nn.relu(lv0)
                R.output(gv)
            return gv

    legalized = relax.transform.LegalizeOps()(ExpRelu)
    exp_name = legalized["main"].body.blocks[0].bindings[0].value.args[0].name_hint
    pat = is_call_tir("relu", [is_call_tir(exp_name)])
    out = FuseOpsByPattern([("t.exp_relu", pat)])(legalized)
    fused = out[f"fused_{exp_name}_relu"]  # named after the PrimFuncs called, as upstream
    assert fused.attrs["Composite"] == "t.exp_relu"
    assert [b.value.args[0].name_hint for b in fused.body.blocks[0].bindings] == [exp_name, "relu"]
    vm = relax.VirtualMachine(tvm.compile(out, target="llvm"), tvm.cpu())
    data = np.random.default_rng(9).standard_normal((2, 3)).astype("float32")
    np.testing.assert_allclose(vm["main"](data).numpy(), np.exp(data), rtol=1e-5)
