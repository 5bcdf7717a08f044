# script(path_to_underline=, num_context_lines=, print_line_numbers=) and the message of a failed
# tvm.ir.assert_structural_equal, which prints both sides with the first mismatch underlined.
import pytest
import tvm
from tvm.ir import assert_structural_equal
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T
from tvm_ffi.access_path import AccessPath


def _failure(lhs, rhs) -> str:
    with pytest.raises(ValueError) as info:
        assert_structural_equal(lhs, rhs)
    return str(info.value)


def test_mismatch_in_a_module_is_underlined_on_both_sides_with_its_path():
    @I.ir_module
    class Module1:
        @T.prim_func
        def func():
            T.evaluate(0)

    @I.ir_module
    class Module2:
        @T.prim_func
        def func():
            T.evaluate(1)

    lhs_path, rhs_path = tvm.ir.get_first_structural_mismatch(Module1, Module2)
    expected_path = (
        AccessPath.root()
        .attr("functions")
        .map_item(Module1.get_global_var("func"))
        .attr("body")
        .attr("value")
        .attr("value")
    )
    assert lhs_path == expected_path
    assert rhs_path.to_steps()[1].key is Module2.get_global_var("func")
    assert _failure(Module1, Module2) == (
        "StructuralEqual check failed, caused by lhs at <root>.functions[@func].body.value.value:\n"
        "# from tvm.script import ir as I\n"
        "# from tvm.script import tir as T\n"
        "\n"
        "@I.ir_module\n"
        "class Module:\n"
        "    @T.prim_func\n"
        "    def func():\n"
        "        T.evaluate(0)\n"
        "                   ^\n"
        "and rhs at <root>.functions[@func].body.value.value:\n"
        "# from tvm.script import ir as I\n"
        "# from tvm.script import tir as T\n"
        "\n"
        "@I.ir_module\n"
        "class Module:\n"
        "    @T.prim_func\n"
        "    def func():\n"
        "        T.evaluate(1)\n"
        "                   ^"
    )


def test_message_is_the_script_of_each_side_with_upstreams_options():
    # Upstream's own test builds the expected message from script(path_to_underline=...).
    @T.prim_func
    def func1(a: T.handle, b: T.handle):
        A = T.match_buffer(a, (128, 128))  # noqa: F841
        B = T.match_buffer(b, (128, 128))  # noqa: F841

    @T.prim_func
    def func2(a: T.handle, b: T.handle):
        A = T.match_buffer(a, (128, 128))  # noqa: F841
        B = T.match_buffer(b, (128, 256))  # noqa: F841

    path1, path2 = (
        AccessPath.root()
        .attr("buffer_map")
        .map_item(f.params[1])
        .attr("shape")
        .array_item(1)
        .attr("value")
        for f in (func1, func2)
    )
    assert tvm.ir.get_first_structural_mismatch(func1, func2) == (path1, path2)
    assert _failure(func1, func2) == (
        f"StructuralEqual check failed, caused by lhs at {path1}:\n"
        f"{func1.script(path_to_underline=[path1], syntax_sugar=False)}\n"
        f"and rhs at {path2}:\n"
        f"{func2.script(path_to_underline=[path2], syntax_sugar=False)}"
    )
    signature = 'def func2(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 256), "float32")):'
    assert func2.script(path_to_underline=[path2]).split("\n")[3:5] == [
        signature,
        " " * signature.index("256") + "^^^",
    ]


def test_a_variable_is_underlined_where_the_path_reaches_it_only():
    @R.function
    def f1(x: R.Tensor((4,), "float32")):
        y = R.add(x, x)
        z = R.multiply(y, x)
        return z

    @R.function
    def f2(x: R.Tensor((4,), "float32")):
        y = R.add(x, x)
        z = R.multiply(y, y)
        return z

    message = _failure(f1, f2)
    assert message.split("\n")[:9] == [
        "StructuralEqual check failed, caused by lhs at "
        "<root>.body.blocks[0].bindings[1].value.args[1]:",
        "# from tvm.script import relax as R",
        "",
        "@R.function",
        'def f1(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):',
        '    y: R.Tensor((4,), dtype="float32") = R.add(x, x)',
        '    z: R.Tensor((4,), dtype="float32") = R.multiply(y, x)',
        "                                                       ^",
        "    return z",
    ]


def test_values_without_a_script_print_as_their_repr():
    assert _failure([1, 2], [1, 3]) == (
        "StructuralEqual check failed, caused by lhs at <root>[1]:\n"
        "[1, 2]\n"
        "and rhs at <root>[1]:\n"
        "[1, 3]"
    )


@T.prim_func
def _three(a: T.int32, b: T.int32):
    T.evaluate(a)
    T.evaluate(b)
    T.evaluate(a)


def test_statement_and_root_underlined_whole_lines_with_line_numbers():
    second = AccessPath.root().attr("body").attr("seq").array_item(1)
    assert _three.script(path_to_underline=[second]) == (
        "# from tvm.script import tir as T\n"
        "\n"
        "@T.prim_func\n"
        "def _three(a: T.int32, b: T.int32):\n"
        "    T.evaluate(a)\n"
        "    T.evaluate(b)\n"
        "    ^^^^^^^^^^^^^\n"
        "    T.evaluate(a)"
    )
    assert _three.script(path_to_underline=[AccessPath.root()], print_line_numbers=True) == (
        "1 # from tvm.script import tir as T\n"
        "2 \n"
        "3 @T.prim_func\n"
        "  ^^^^^^^^^^^^\n"
        "4 def _three(a: T.int32, b: T.int32):\n"
        "  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "5     T.evaluate(a)\n"
        "      ^^^^^^^^^^^^^\n"
        "6     T.evaluate(b)\n"
        "      ^^^^^^^^^^^^^\n"
        "7     T.evaluate(a)\n"
        "      ^^^^^^^^^^^^^"
    )


def test_context_lines_and_prefixes_with_underlining():
    second = AccessPath.root().attr("body").attr("seq").array_item(1)
    assert _three.script(path_to_underline=[second], num_context_lines=0, tir_prefix="tir") == (
        "(... 5 lines skipped ...)\n"
        "    tir.evaluate(b)\n"
        "    ^^^^^^^^^^^^^^^\n"
        "    tir.evaluate(a)"  # one hidden line is shown instead, as upstream
    )
    # A variable on the path: only the occurrence the path reaches.
    var = AccessPath.root().attr("body").attr("seq").array_item(2).attr("value")
    assert _three.script(path_to_underline=[var], tir_prefix="tir").split("\n")[-2:] == [
        "    tir.evaluate(a)",
        "                 ^",
    ]
    # Without an underline num_context_lines keeps every line; numbers are right-aligned.
    assert _three.script(num_context_lines=1) == _three.script()
    numbered = _three.script(print_line_numbers=True, path_to_underline=[])
    assert numbered.split("\n")[0] == "1 # from tvm.script import tir as T"


def test_function_in_module_underlined_whole():
    @I.ir_module
    class Module:
        @T.prim_func
        def func():
            T.evaluate(0)

    path = AccessPath.root().attr("functions").map_item(Module.get_global_var("func"))
    assert Module.script(path_to_underline=[path]).split("\n")[4:] == [
        "class Module:",
        "    @T.prim_func",
        "    ^^^^^^^^^^^^",
        "    def func():",
        "    ^^^^^^^^^^^",
        "        T.evaluate(0)",
        "        ^^^^^^^^^^^^^",
    ]


def test_bad_layout_options_are_type_errors():
    with pytest.raises(TypeError, match=r"PrimFunc.script: path_to_underline must be a list"):
        _three.script(path_to_underline="body")
    with pytest.raises(TypeError, match=r"PrimFunc.script: num_context_lines must be an int"):
        _three.script(num_context_lines=-2)
    with pytest.raises(TypeError, match=r"PrimFunc.script: print_line_numbers must be a bool"):
        _three.script(print_line_numbers=1)
    with pytest.raises(TypeError, match=r"unexpected option 'underline'"):
        _three.script(underline=True)
