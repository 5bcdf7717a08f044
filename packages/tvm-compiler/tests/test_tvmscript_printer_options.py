# Upstream's script() options beyond show_meta and the prefixes: verbose_expr, indent_spaces,
# int_dtype/float_dtype, module_alias, show_object_address, obj_to_underline, syntax_sugar.
import re

import pytest
from tvm import relax, tir
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class _Calls:
    @R.function
    def helper(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return x

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = _Calls
        y = cls.helper(x)
        return y


@T.prim_func
def _loop(A: T.Buffer((4,), "float32")):
    for i in range(4):
        A[i] = A[i] + T.float32(1)


def test_verbose_expr_defines_the_free_variables_of_an_expression():
    a, b = tir.Var("a", "int32"), tir.Var("b", "int32")
    assert (a + b).script() == "a + b"
    assert (a + b).script(verbose_expr=True) == "a = T.int32()\nb = T.int32()\na + b"
    x = relax.Var("x", relax.TensorStructInfo([1, tir.Var("n", "int64"), 3], "float32"))
    assert relax.op.add(x, x).script() == "R.add(x, x)"
    assert relax.op.add(x, x).script(verbose_expr=True) == (
        'n = T.int64()\nx: R.Tensor((1, n, 3), dtype="float32")\nR.add(x, x)'
    )
    # A statement shows its free variables' definitions either way, as upstream.
    assert tir.Evaluate(a).script() == "a = T.int32()\nT.evaluate(a)"


def test_int_and_float_dtype_name_the_literals_printed_bare():
    assert tir.const(3, "int64").script() == "T.int64(3)"
    assert tir.const(3, "int64").script(int_dtype="int64") == "3"
    assert tir.const(3, "int32").script(int_dtype="int64") == "T.int32(3)"
    assert tir.const(1.5, "float32").script() == "T.float32(1.5)"
    assert tir.const(1.5, "float32").script(float_dtype="float32") == "1.5"


def test_module_alias_and_indent_spaces():
    assert _Calls.script(module_alias="mod", indent_spaces=2).split("\n")[4:] == [
        "class Module:",
        "  @R.function",
        '  def helper(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):',
        "    return x",
        "",
        "  @R.function",
        '  def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):',
        "    mod = Module",
        '    y: R.Tensor((4,), dtype="float32") = mod.helper(x)',
        "    return y",
    ]
    # "" refers to the module by its class name, with no alias line.
    assert _Calls.script(module_alias="").split("\n")[-2:] == [
        '        y: R.Tensor((4,), dtype="float32") = Module.helper(x)',
        "        return y",
    ]


def test_obj_to_underline_marks_every_use_and_moves_with_indent_spaces():
    text = _loop.script(indent_spaces=2, obj_to_underline=[_loop.body.loop_var])
    assert text.split("\n")[3:] == [
        'def _loop(A: T.Buffer((4,), "float32")):',
        "  for i in range(4):",
        "    A[i] = A[i] + T.float32(1.0)",
        "      ^      ^",
    ]


def test_show_object_address_appends_the_address_to_each_name():
    text = _loop.script(show_object_address=True)
    buffer = _loop.buffer_map[_loop.params[0]]
    assert f"def _loop(A_{id(buffer):#x}: T.Buffer" in text
    assert re.search(r"for i_0x[0-9a-f]+ in range\(4\):", text)


def test_syntax_sugar_is_accepted_and_the_text_parses_back():
    assert _loop.script(syntax_sugar=False) == _loop.script()


def test_bad_option_values_are_type_errors():
    with pytest.raises(TypeError, match=r"PrimFunc.script: verbose_expr must be a bool, got 1"):
        _loop.script(verbose_expr=1)
    with pytest.raises(TypeError, match=r"IRModule.script: module_alias must be an identifier"):
        _Calls.script(module_alias="a b")
    with pytest.raises(TypeError, match=r"PrimFunc.script: indent_spaces must be an int >= 0"):
        _loop.script(indent_spaces=-1)
    with pytest.raises(TypeError, match=r"PrimFunc.script: obj_to_underline must be a list"):
        _loop.script(obj_to_underline=_loop.body)
    with pytest.raises(TypeError, match=r"unexpected option 'path_to_annotate'"):
        _loop.script(path_to_annotate={})
