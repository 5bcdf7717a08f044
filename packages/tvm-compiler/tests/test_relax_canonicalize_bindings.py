# CanonicalizeBindings as upstream: aliases, known tuple items, no-op casts, dataflow outputs.
# ruff: noqa: F841  (TVMScript bodies bind names the parser reads, not Python)
import tvm
from tvm import relax
from tvm.relax.transform import CanonicalizeBindings
from tvm.relax.transform.transform import CanonicalizeBindings as FromTransformModule
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


def _check(before, expected):
    tvm.ir.assert_structural_equal(CanonicalizeBindings()(before), expected)


def test_the_pass_is_also_in_the_transform_module():
    assert FromTransformModule is CanonicalizeBindings


def test_an_output_naming_a_dataflow_var_binds_its_value():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor((2,), "float32")):
            with R.dataflow():
                y = R.add(x, x)
                z = y
                n = z
                R.output(n)
            return n

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor((2,), "float32")):
            with R.dataflow():
                n = R.add(x, x)
                R.output(n)
            return n

    _check(Before, Expected)


def test_items_of_a_known_tuple_are_its_fields():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor((2,), "float32"), y: R.Tensor((2,), "float32")):
            t = (x, y)
            a = t[0]
            b = t[1]
            return R.add(b, a)

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor((2,), "float32"), y: R.Tensor((2,), "float32")):
            t = (x, y)
            return R.add(y, x)

    _check(Before, Expected)


def test_a_cast_that_checks_nothing_goes_and_one_that_defines_stays():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor(("m",), "float32"), u: R.Tensor(ndim=1)):
            m = T.int64()
            k = T.int64()
            same = R.match_cast(x, R.Tensor((m,), "float32"))
            new = R.match_cast(u, R.Tensor((k,), "float32"))
            return (R.add(same, same), new)

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor(("m",), "float32"), u: R.Tensor(ndim=1)):
            m = T.int64()
            k = T.int64()
            new = R.match_cast(u, R.Tensor((k,), "float32"))
            return (R.add(x, x), new)

    _check(Before, Expected)


def test_two_outputs_naming_one_dataflow_var_keep_it():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor((2,), "float32")):
            with R.dataflow():
                y = R.add(x, x)
                a = y
                b = y
                R.output(a, b)
            return (a, b)

    after = CanonicalizeBindings()(Before)
    names = [b.var.name_hint for b in after["main"].body.blocks[0].bindings]
    assert names == ["y", "a", "b"]
    assert relax.analysis.well_formed(after)
