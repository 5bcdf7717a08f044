# relax.transform.MergeCompositeFunctions and relax.backend.pattern_registry: the composite
# calls of one codegen that feed one another merge into one Codegen function (never through
# a group of another codegen: no cycles), structurally equal to apache-tvm's output; the
# registry returns the latest-registered patterns first.
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.relax.backend import pattern_registry
from tvm.relax.dpl import is_op, is_tuple, wildcard
from tvm.relax.transform import FuseOpsByPattern, FusionPattern, MergeCompositeFunctions
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Chain:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")):
        with R.dataflow():
            lv0 = R.add(x, y)
            lv1 = R.nn.relu(lv0)
            lv2 = R.multiply(lv1, y)
            lv3 = R.exp(lv2)
            lv4 = R.subtract(lv3, x)
            gv = R.multiply(lv4, lv1)
            R.output(gv)
        return gv


PATTERNS = [
    ("a.add_relu", is_op("relax.nn.relu")(is_op("relax.add")(wildcard(), wildcard()))),
    ("a.mul", is_op("relax.multiply")(wildcard(), wildcard())),
    ("b.exp", is_op("relax.exp")(wildcard())),
]


@I.ir_module
class Expected:
    @R.function
    def fused_relax_add_relax_nn_relu_relax_multiply_a(
        x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")
    ) -> R.Tuple(R.Tensor((2, 3), "float32"), R.Tensor((2, 3), "float32")):
        R.func_attr({"Codegen": "a"})

        @R.function
        def gv(x_1: R.Tensor((2, 3), "float32"), y_1: R.Tensor((2, 3), "float32")) -> R.Tensor(
            (2, 3), "float32"
        ):
            R.func_attr({"Composite": "a.add_relu"})
            with R.dataflow():
                lv0 = R.add(x_1, y_1)
                gv_1 = R.nn.relu(lv0)
                R.output(gv_1)
            return gv_1

        gv_1 = gv(x, y)

        @R.function
        def gv1(lv: R.Tensor((2, 3), "float32"), y_1: R.Tensor((2, 3), "float32")) -> R.Tensor(
            (2, 3), "float32"
        ):
            R.func_attr({"Composite": "a.mul"})
            with R.dataflow():
                gv_2 = R.multiply(lv, y_1)
                R.output(gv_2)
            return gv_2

        gv1_1 = gv1(gv_1, y)
        return (gv1_1, gv_1)

    @R.function
    def fused_relax_exp1_b(lv: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        R.func_attr({"Codegen": "b"})

        @R.function
        def gv2(lv_1: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
            R.func_attr({"Composite": "b.exp"})
            with R.dataflow():
                gv = R.exp(lv_1)
                R.output(gv)
            return gv

        gv = gv2(lv)
        return gv

    @R.function
    def fused_relax_multiply1_a(
        lv4: R.Tensor((2, 3), "float32"), lv: R.Tensor((2, 3), "float32")
    ) -> R.Tensor((2, 3), "float32"):
        R.func_attr({"Codegen": "a"})

        @R.function
        def gv3(lv_1: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")) -> R.Tensor(
            (2, 3), "float32"
        ):
            R.func_attr({"Composite": "a.mul"})
            with R.dataflow():
                gv = R.multiply(lv_1, y)
                R.output(gv)
            return gv

        gv = gv3(lv4, lv)
        return gv

    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")) -> R.Tensor(
        (2, 3), "float32"
    ):
        cls = Expected
        with R.dataflow():
            lv = cls.fused_relax_add_relax_nn_relu_relax_multiply_a(x, y)
            lv1: R.Tensor((2, 3), "float32") = lv[1]
            lv2: R.Tensor((2, 3), "float32") = lv[0]
            lv3 = cls.fused_relax_exp1_b(lv2)
            lv4 = R.subtract(lv3, x)
            gv = cls.fused_relax_multiply1_a(lv4, lv1)
            R.output(gv)
        return gv


def test_merge_by_codegen_without_cycles():
    fused = FuseOpsByPattern(PATTERNS)(Chain)
    out = MergeCompositeFunctions()(fused)
    tvm.ir.assert_structural_equal(out, Expected)
    assert relax.analysis.well_formed(out)
    for name in ("fused_relax_add_relax_nn_relu_relax_multiply_a", "fused_relax_exp1_b"):
        assert out[name].attrs["global_symbol"] == name


def test_nothing_to_merge():
    tvm.ir.assert_structural_equal(MergeCompositeFunctions()(Chain), Chain)


def test_registry_priority_and_lookup():
    first = FusionPattern("test_registry.add", is_op("relax.add")(wildcard(), wildcard()))
    pattern_registry.register_patterns(
        [first, ("test_registry.exp", is_op("relax.exp")(wildcard()))]
    )
    later = ("test_registry.add", is_op("relax.add")(wildcard(), wildcard()))
    pattern_registry.register_patterns([later])
    found = pattern_registry.get_patterns_with_prefix("test_registry.")
    assert [p.name for p in found] == [
        "test_registry.add",
        "test_registry.exp",
        "test_registry.add",
    ]
    assert found[2] is first and found[0] is not first
    assert pattern_registry.get_pattern("test_registry.add") is found[0]
    assert pattern_registry.get_pattern("test_registry.none") is None
    assert (
        relax.backend.get_patterns_with_prefix("test_registry.exp")[0].name == "test_registry.exp"
    )
    out = FuseOpsByPattern(pattern_registry.get_patterns_with_prefix("test_registry.exp"))(Chain)
    assert out["fused_relax_exp"].attrs["Composite"] == "test_registry.exp"


def test_registry_bad_input():
    with pytest.raises(TypeError, match=r"register_patterns: patterns\[0\] must be"):
        pattern_registry.register_patterns([3])
    with pytest.raises(TypeError, match="register_patterns: patterns must be a list"):
        pattern_registry.register_patterns(("test_registry.x", wildcard()))
    with pytest.raises(TypeError, match="get_patterns_with_prefix: prefix must be a str"):
        pattern_registry.get_patterns_with_prefix(1)
    with pytest.raises(TypeError, match="get_pattern: name must be a str"):
        pattern_registry.get_pattern(None)


def test_composites_without_codegen_compile_and_run():
    # FuseOpsByPattern without a codegen: the composite functions are primitive functions the
    # default pipeline legalises and fuses into one kernel each (as upstream).
    out = FuseOpsByPattern(PATTERNS)(Chain)
    vm = relax.VirtualMachine(tvm.compile(out, target="llvm"), tvm.cpu())
    rng = np.random.default_rng(3)
    x, y = (rng.standard_normal((2, 3)).astype("float32") for _ in range(2))
    lv1 = np.maximum(x + y, 0)
    want = (np.exp(lv1 * y) - x) * lv1
    np.testing.assert_allclose(vm["main"](x, y).numpy(), want, rtol=1e-5, atol=1e-6)


def test_inline_tuples_and_tuple_arguments():
    # concat reads an inline tuple: its pattern's tuple comes along into the composite
    # function, and the merged function passes the tuple's fields on.
    x = relax.Var("x", relax.TensorStructInfo((2, 3), "float32"))
    y = relax.Var("y", relax.TensorStructInfo((2, 3), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, y]):
        with bb.dataflow():
            a = bb.emit(relax.op.exp(x))
            c = bb.emit(relax.op.concat([a, y], axis=0))
            out = bb.emit_output(relax.op.nn.relu(c))
        bb.emit_func_output(out)
    patterns = [
        ("a.exp", is_op("relax.exp")(wildcard())),
        ("a.concat", is_op("relax.concat")(is_tuple([wildcard(), wildcard()]))),
    ]
    fused = FuseOpsByPattern(patterns)(bb.get())
    assert fused["fused_relax_concat"].attrs["Composite"] == "a.concat"
    merged = MergeCompositeFunctions()(fused)
    assert relax.analysis.well_formed(merged)
    main = merged["main"].body.blocks[0].bindings
    assert main[0].value.op.name_hint == "fused_relax_exp_relax_concat_a"
    assert [p.name_hint for p in merged["fused_relax_exp_relax_concat_a"].params] == ["x", "y"]
    assert main[1].value.op.name == "relax.nn.relu"
    vm = relax.VirtualMachine(tvm.compile(fused, target="llvm"), tvm.cpu())
    data = np.random.default_rng(7).standard_normal((2, 2, 3)).astype("float32")
    want = np.maximum(np.concatenate([np.exp(data[0]), data[1]], axis=0), 0)
    np.testing.assert_allclose(vm["main"](data[0], data[1]).numpy(), want, rtol=1e-5)


@I.ir_module
class TupleOutput:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")):
        with R.dataflow():
            lv0 = R.add(x, y)
            lv1 = R.nn.relu(lv0)
            lv4 = R.multiply(lv1, lv0)
            gv = R.exp(lv4)
            R.output(gv)
        return gv


def test_tuple_items_of_a_composite_merge_with_it():
    # add_relu leaks its add, so it returns a tuple (relu first: multiply reads it first);
    # the items taken of that tuple go into the merged function with it.
    @I.ir_module
    class Expected:
        @R.function
        def fused_relax_add_relax_nn_relu_relax_multiply_x(
            x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")
        ) -> R.Tensor((2, 3), "float32"):
            R.func_attr({"Codegen": "x"})

            @R.function
            def gv(x_1: R.Tensor((2, 3), "float32"), y_1: R.Tensor((2, 3), "float32")) -> R.Tuple(
                R.Tensor((2, 3), "float32"), R.Tensor((2, 3), "float32")
            ):
                R.func_attr({"Composite": "x.add_relu"})
                with R.dataflow():
                    gv_1 = R.add(x_1, y_1)
                    gv1 = R.nn.relu(gv_1)
                    R.output(gv_1, gv1)
                return (gv1, gv_1)

            lv = gv(x, y)
            lv1: R.Tensor((2, 3), "float32") = lv[1]
            lv2: R.Tensor((2, 3), "float32") = lv[0]

            @R.function
            def gv1(
                lv2_1: R.Tensor((2, 3), "float32"), lv1_1: R.Tensor((2, 3), "float32")
            ) -> R.Tensor((2, 3), "float32"):
                R.func_attr({"Composite": "x.mul"})
                with R.dataflow():
                    gv_1 = R.multiply(lv2_1, lv1_1)
                    R.output(gv_1)
                return gv_1

            gv_1 = gv1(lv2, lv1)
            return gv_1

        @R.function
        def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")) -> R.Tensor(
            (2, 3), "float32"
        ):
            cls = Expected
            with R.dataflow():
                lv = cls.fused_relax_add_relax_nn_relu_relax_multiply_x(x, y)
                gv = R.exp(lv)
                R.output(gv)
            return gv

    patterns = [
        ("x.add_relu", is_op("relax.nn.relu")(is_op("relax.add")(wildcard(), wildcard()))),
        ("x.mul", is_op("relax.multiply")(wildcard(), wildcard())),
    ]
    fused = FuseOpsByPattern(patterns)(TupleOutput)
    tvm.ir.assert_structural_equal(MergeCompositeFunctions()(fused), Expected)
    vm = relax.VirtualMachine(tvm.compile(fused, target="llvm"), tvm.cpu())
    data = np.random.default_rng(8).standard_normal((2, 2, 3)).astype("float32")
    s = data[0] + data[1]
    want = np.exp(np.maximum(s, 0) * s)
    np.testing.assert_allclose(vm["main"](data[0], data[1]).numpy(), want, rtol=1e-5)
