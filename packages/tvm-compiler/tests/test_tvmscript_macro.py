# T.macro and R.macro: a macro's body expands where it is called, hygienic by default.
# ruff: noqa: F821, F841, B007  (TVMScript bodies are IR: their names are bindings)
import pytest
import tvm
from tvm.error import DiagnosticError
from tvm.script import relax as R  # noqa: N812
from tvm.script import tir as T  # noqa: N812

i = 3  # what a hygienic macro's free `i` means: this, not the call site's loop variable


@T.macro
def add_one(buf, index):
    buf[index] = buf[index] + T.float32(1)


@T.macro
def store_at_i(buf):
    buf[i] = T.float32(0)


@T.macro(hygienic=False)
def store_at_callers_i(buf):
    buf[i] = T.float32(0)


@T.macro
def doubled(x):
    return x * 2


def _same(a, b):
    tvm.ir.assert_structural_equal(a.with_attr("global_symbol", "main"), b)


def test_a_macro_call_is_its_body_with_the_arguments_in_place():
    @T.prim_func
    def with_macro(A: T.Buffer((8,), "float32")):
        for j in range(8):
            add_one(A, j)

    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        for j in range(8):
            A[j] = A[j] + T.float32(1)

    _same(with_macro, main)


def test_a_hygienic_macro_keeps_its_definitions_names_and_a_non_hygienic_one_takes_the_callers():
    @T.prim_func
    def hygienic(A: T.Buffer((8,), "float32")):
        for i in range(8):
            store_at_i(A)

    @T.prim_func
    def not_hygienic(A: T.Buffer((8,), "float32")):
        for i in range(8):
            store_at_callers_i(A)

    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        for i in range(8):
            A[3] = T.float32(0)

    @T.prim_func
    def expected_callers(A: T.Buffer((8,), "float32")):
        for i in range(8):
            A[i] = T.float32(0)

    _same(hygienic, main)
    _same(not_hygienic, expected_callers.with_attr("global_symbol", "main"))


def test_a_macro_ending_in_return_gives_the_calls_value():
    @T.prim_func
    def with_macro(A: T.Buffer((8,), "int32")):
        for j in range(8):
            A[j] = doubled(j)

    @T.prim_func
    def main(A: T.Buffer((8,), "int32")):
        for j in range(8):
            A[j] = j * 2

    _same(with_macro, main)


def test_a_relax_macro_emits_its_bindings_at_the_call():
    @R.macro
    def twice(x):
        y = R.add(x, x)
        return y

    @R.function
    def with_macro(x: R.Tensor((4,), "float32")):
        z = twice(x)
        return z

    @R.function
    def main(x: R.Tensor((4,), "float32")):
        y = R.add(x, x)
        z = y
        return z

    _same(with_macro, main)


def test_a_macro_called_with_the_wrong_arguments_is_a_diagnostic_at_the_call():
    with pytest.raises(DiagnosticError) as info:

        @T.prim_func
        def bad(A: T.Buffer((8,), "float32")):
            add_one(A)

    text = str(info.value)
    assert "add_one: missing a required argument: 'index' (T.macro add_one(buf, index))" in text
    assert "            add_one(A)\n" in text and "^^^^^^^^^^" in text


def test_a_macro_called_as_python_is_a_type_error_that_says_where_it_belongs():
    with pytest.raises(TypeError, match="T.macro 'add_one' is called outside a TVMScript"):
        add_one(1, 2)
    with pytest.raises(TypeError, match="T.macro: expected a Python function"):
        T.macro(3)
