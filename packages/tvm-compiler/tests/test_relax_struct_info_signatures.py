# Struct-info analyses on signatures, erasure with simplification, expression dims ("N-2").
import pytest
import tvm
from tvm import relax as rx
from tvm import tir
from tvm.script import relax as R


def _sig():
    n, m = tir.Var("n", "int64"), tir.Var("m", "int64")
    x = rx.TensorStructInfo([1, 2 * n, n, m], "float32")
    return n, m, rx.FuncStructInfo([x], rx.TensorStructInfo([1, n + 1], "float32"))


def test_definable_and_non_negative_enter_a_signature():
    n, m, sig = _sig()
    tvm.ir.assert_structural_equal(rx.analysis.definable_tir_vars_in_struct_info(sig), [n, m])
    tvm.ir.assert_structural_equal(
        rx.analysis.collect_non_negative_expressions(sig), [2 * n, n, m, n + 1]
    )


def test_erasing_a_signature_keeps_what_its_params_define():
    _, _, sig = _sig()
    tvm.ir.assert_structural_equal(rx.analysis.erase_to_well_defined(sig), sig)


def test_substituted_dims_are_simplified():
    n, m = tir.Var("n", "int64"), tir.Var("m", "int64")
    erased = rx.analysis.erase_to_well_defined(rx.ShapeStructInfo([n + 1, m * 2]), {n: 2, m: m})
    tvm.ir.assert_structural_equal(erased, rx.ShapeStructInfo([3, m * 2]))


def test_string_dims_may_be_expressions_of_names():
    @R.function
    def f(a: R.Tensor(["M", "N - 2"], "float32"), b: R.Tensor(["N", "M*2 + 1"], "float32")):
        return a

    m, n_minus_2 = f.params[0].struct_info.shape.values
    n, expr = f.params[1].struct_info.shape.values
    tvm.ir.assert_structural_equal(n_minus_2, n - 2)
    tvm.ir.assert_structural_equal(expr, m * 2 + 1)
    with pytest.raises(ValueError, match=r"R.Tensor: dimension 'N \*\* 2' must be a name or"):
        R.Tensor(["N ** 2"], "float32")
