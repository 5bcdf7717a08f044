"""TVMScript's metadata section: Relax tensor constants print as metadata["relax.expr.Constant"][i],
with the section (show_meta=True) or a comment saying it was left out, and parse back."""
# ruff: noqa: F821, F841  (TVMScript bodies are IR: their names are bindings, cls is the module)

import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.script import from_source
from tvm.script import ir as I  # noqa: N812
from tvm.script import relax as R  # noqa: N812

WEIGHT = np.arange(6, dtype="float32").reshape(2, 3)
BIAS = np.array([1, 2, 3], dtype="float32")


def _module():
    w = relax.const(WEIGHT)  # one constant used twice: one metadata entry

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
            y = R.add(x, w)
            z = R.multiply(y, R.const(BIAS, "float32"))
            s = R.add(z, R.const(2.5, "float32"))
            t = R.add(s, w)
            return t

    return Module


BODY = """\
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        y: R.Tensor((2, 3), dtype="float32") = R.add(x, metadata["relax.expr.Constant"][0])
        z: R.Tensor((2, 3), dtype="float32") = R.multiply(y, metadata["relax.expr.Constant"][1])
        s: R.Tensor((2, 3), dtype="float32") = R.add(z, R.const(2.5, "float32"))
        t: R.Tensor((2, 3), dtype="float32") = R.add(s, metadata["relax.expr.Constant"][0])
        return t"""

OMITTED = "# Metadata omitted. Use show_meta=True in script() method to show it."


def _split_section(text):
    assert text.startswith('metadata = tvm.ir.load_json("""{')
    start = len('metadata = tvm.ir.load_json("""')
    end = text.index('""")\n')
    return text[start:end], text[end + len('""")\n') :]


def test_without_show_meta_constants_are_named_and_a_comment_ends_the_text():
    mod = _module()
    assert mod.script() == BODY + "\n\n\n" + OMITTED
    assert str(mod) == mod.script()


def test_a_function_ends_with_one_blank_line_before_the_comment():
    func = _module()["main"]
    text = func.script()
    assert text.endswith("\n    return t\n\n" + OMITTED)
    assert 'R.add(x, metadata["relax.expr.Constant"][0])' in text


def test_show_meta_puts_the_section_first_and_it_loads_the_constants():
    mod = _module()
    text = mod.script(show_meta=True)
    escaped, body = _split_section(text)
    assert body == BODY  # no trailing comment when the section is shown
    # The section is a JSON string inside a Python string: quotes and backslashes escaped.
    assert '\\"relax.expr.Constant\\"' in escaped and '"""' not in escaped
    table = tvm.ir.load_json(escaped.replace('\\"', '"').replace("\\\\", "\\"))
    assert list(table) == ["relax.expr.Constant"]
    consts = table["relax.expr.Constant"]
    assert len(consts) == 2  # the weight used twice is one entry
    np.testing.assert_array_equal(consts[0].data.numpy(), WEIGHT)
    np.testing.assert_array_equal(consts[1].data.numpy(), BIAS)


def test_a_printout_with_its_section_parses_back_equal_and_prints_the_same():
    mod = _module()
    text = mod.script(show_meta=True)
    again = from_source(text)
    tvm.ir.assert_structural_equal(mod, again)
    assert again.script(show_meta=True) == text


def test_a_function_printout_with_its_section_parses_back():
    func = _module()["main"]
    text = func.script(show_meta=True)
    assert text.startswith('metadata = tvm.ir.load_json("""{')
    again = from_source(text)
    tvm.ir.assert_structural_equal(func, again)


def test_scalars_of_literal_dtypes_print_inline_and_others_go_to_the_metadata():
    for value, dtype, text in [
        (3, "int32", 'R.const(3, "int32")'),
        (-2, "int8", 'R.const(-2, "int8")'),
        (True, "bool", 'R.const(True, "bool")'),
        (0.5, "float16", 'R.const(0.5, "float16")'),
        (0.25, "float64", 'R.const(0.25, "float64")'),
    ]:
        assert relax.const(value, dtype).script() == text
    # uint8 has no literal form upstream: even a scalar goes to the metadata.
    assert relax.const(7, "uint8").script() == 'metadata["relax.expr.Constant"][0]\n' + OMITTED


def test_the_metadata_section_must_be_a_load_json_call():
    src = BODY.replace(
        "# from tvm.script import ir as I", "metadata = {}\n# from tvm.script import ir as I"
    )
    with pytest.raises(tvm.error.DiagnosticError) as info:
        from_source(src)
    assert str(info.value).startswith(
        'error: expected the metadata section: metadata = tvm.ir.load_json("""...""")\n'
        " --> <string>:1:1\n"
    )


def test_a_broken_metadata_section_is_a_diagnostic_naming_load_json():
    src = 'metadata = tvm.ir.load_json("""{"nodes": []}""")\n' + BODY
    with pytest.raises(tvm.error.DiagnosticError) as info:
        from_source(src)
    message = str(info.value)
    assert message.startswith(
        "error: the metadata section does not load: load_json: the document has no 'root_index'"
    )


def test_text_naming_metadata_without_the_section_does_not_parse():
    with pytest.raises(tvm.error.DiagnosticError, match="metadata"):
        from_source(BODY)


CONST_DATA = [float(i) for i in range(202)]  # one more than upstream prints inline


def _allocate_const(data):
    from tvm.script import tir as T  # noqa: N812

    n = len(data)

    @T.prim_func
    def main(A: T.Buffer((n,), "float32")):
        K_data = T.allocate_const(data, "float32", [n])
        K = T.decl_buffer((n,), "float32", data=K_data)
        for i in range(n):
            A[i] = K[i]

    return main


def test_allocate_const_prints_up_to_201_elements_inline():
    func = _allocate_const(CONST_DATA[:201])
    line = func.script().split("\n")[4]
    values = ", ".join(f"{float(i)}" for i in range(201))
    assert line == f'    K_data = T.allocate_const([{values}], "float32", [201])'
    assert "metadata" not in func.script()
    tvm.ir.assert_structural_equal(from_source(func.script()), func)


def test_longer_allocate_const_data_goes_to_the_metadata_section_and_parses_back():
    func = _allocate_const(CONST_DATA)
    text = func.script()
    assert text.split("\n")[4:] == [
        '    K_data = T.allocate_const(metadata["ffi.Tensor"][0], "float32", [202])',
        "    K = T.decl_buffer((202,), data=K_data)",
        "    for i in range(202):",
        "        A[i] = K[i]",
        "",
        "# Metadata omitted. Use show_meta=True in script() method to show it.",
    ]
    shown = func.script(show_meta=True)
    assert shown.startswith('metadata = tvm.ir.load_json("""{')
    parsed = from_source(shown)
    tvm.ir.assert_structural_equal(parsed, func)
    np.testing.assert_array_equal(parsed.body.data.numpy(), np.array(CONST_DATA, "float32"))
    assert parsed.script(show_meta=True) == shown
    # In a module too, beside Relax constants (one section, one entry per tensor).
    mod = tvm.IRModule({"main": func})
    assert 'metadata["ffi.Tensor"][0]' in mod.script()
    tvm.ir.assert_structural_equal(from_source(mod.script(show_meta=True)), mod)
    # Without the section the reference has nothing to name: a diagnostic, not a crash.
    with pytest.raises(tvm.error.DiagnosticError, match="metadata"):
        from_source(text)
