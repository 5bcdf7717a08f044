# .script() and .show() on every IR node, as upstream's Scriptable: statements, expressions,
# buffers, Relax expressions and struct info print on their own.
import numpy as np
import pytest
import tvm
from tvm import relax, tir


def _parts():
    x = tir.Var("x", "int32")
    a = tir.decl_buffer((4,), "float32", name="A")
    store = tir.BufferStore(a, tir.FloatImm("float32", 1.0), [x])
    v = relax.Var("v", relax.TensorStructInfo([2, 3], "float32"))
    return x, a, store, v


def test_tir_expressions_statements_and_buffers():
    x, a, store, _ = _parts()
    assert (x + 1).script() == "x + 1"
    assert store.script() == 'A = T.Buffer((4,), "float32")\nx = T.int32()\nA[x] = T.float32(1.0)'
    assert a.script() == 'A: T.Buffer((4,), "float32")'
    assert tir.Range(0, 4).script() == "T.Range(0, 4)"


def test_relax_expressions_and_struct_info():
    _, _, _, v = _parts()
    assert v.script() == "v"
    assert relax.op.add(v, v).script() == "R.add(v, v)"
    assert relax.TensorStructInfo([2, 3], "float32").script() == 'R.Tensor((2, 3), dtype="float32")'
    assert relax.ShapeStructInfo(ndim=2).script() == "R.Shape(ndim=2)"
    assert relax.PrimValue(3).script() == "R.prim_value(3)"


def test_a_global_var_prints_as_upstream():
    assert tvm.ir.GlobalVar("main").script() == 'I.GlobalVar("main")'


def test_a_relax_constant_on_its_own_carries_the_metadata_comment_or_section():
    const = relax.const(np.ones((2,), "float32"))
    omitted = "# Metadata omitted. Use show_meta=True in script() method to show it."
    assert const.script() == 'metadata["relax.expr.Constant"][0]\n' + omitted
    shown = const.script(show_meta=True)
    assert shown.startswith('metadata = tvm.ir.load_json("""{')
    assert shown.endswith('""")\nmetadata["relax.expr.Constant"][0]')


def test_script_is_what_str_shows_and_takes_upstreams_options():
    x, _, store, v = _parts()
    for node in (x + 1, store, v, relax.op.multiply(v, v)):
        assert node.script() == str(node)
    assert store.script(tir_prefix="tir") == (
        'A = tir.Buffer((4,), "float32")\nx = tir.int32()\nA[x] = tir.float32(1.0)'
    )
    assert relax.op.add(v, v).script(relax_prefix="rx") == "rx.add(v, v)"


def test_show_prints_the_script(capsys):
    x, *_ = _parts()
    (x * 2).show()
    assert capsys.readouterr().out == "x * 2\n"


def test_an_unknown_option_is_a_type_error_naming_the_node_class():
    x, *_ = _parts()
    with pytest.raises(TypeError, match=r"Add.script: unexpected option 'verbose'"):
        (x + 1).script(verbose=True)
