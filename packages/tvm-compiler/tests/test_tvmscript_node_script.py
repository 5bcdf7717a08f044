# .script() and .show() on every IR node, as upstream's Scriptable: statements, expressions,
# buffers, Relax expressions and struct info print on their own.
import numpy as np
import pytest
import tvm
from relax_programs import if_on_symbolic_module, mlp_module
from tvm import relax, tir
from tvm.ir.node import Node
from tvm.script import from_source


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


def test_a_global_var_and_an_op_print_as_upstream():
    assert tvm.ir.GlobalVar("main").script() == 'I.GlobalVar("main")'
    assert tvm.ir.Op.get("relax.add").script() == 'I.Op("relax.add")'


def _find(value, wanted, seen=None):
    seen = set() if seen is None else seen
    if id(value) in seen:
        return None
    seen.add(id(value))
    if isinstance(value, wanted):
        return value
    children = vars(value).values() if isinstance(value, Node) else ()
    if isinstance(value, (list, tuple)):
        children = value
    elif isinstance(value, dict):
        children = value.values()
    for child in children:
        found = _find(child, wanted, seen)
        if found is not None:
            return found
    return None


def test_a_block_outside_its_realize_prints_with_no_realize_as_upstream():
    func = from_source(
        "from tvm.script import tir as T\n"
        "@T.prim_func\n"
        'def f(A: T.Buffer((128, 64), "float32")):\n'
        "    for i, j in T.grid(128, 64):\n"
        '        with T.block("block"):\n'
        "            vi = T.axis.spatial(128, i)\n"
        "            vj = T.axis.reduce(64, j)\n"
        "            T.reads()\n"
        "            T.writes()\n"
        "            T.evaluate(0)\n"
    )
    block = _find(func.body, tir.stmt.Block)
    block = block if block.name_hint == "block" else _find(block.body, tir.stmt.Block)
    assert block.script() == (
        'with T.block("block", no_realize=True):\n'
        "    vi = T.axis.spatial(128)\n"
        "    vj = T.axis.reduce(64)\n"
        "    T.reads()\n"
        "    T.writes()\n"
        "    T.evaluate(0)"
    )


def test_a_relax_if_on_its_own_ends_each_branch_with_its_value():
    node = _find(if_on_symbolic_module(), relax.If)
    assert node.script() == (
        "if R.prim_value(N % 16 == 0):\n    R.prim_value(5)\nelse:\n    R.prim_value(10)"
    )


def test_every_node_of_a_module_prints_on_its_own():
    # Spans and source names are locations, not IR: upstream gives them no script either.
    for mod in (mlp_module(), if_on_symbolic_module()):
        nodes = []
        _collect(mod, set(), nodes)
        assert len(nodes) > 30
        for node in nodes:
            if isinstance(node, (tvm.ir.Span, tvm.ir.SourceName)):
                continue
            text = node.script()
            assert not text.startswith(f"{type(node).__name__}("), text


def _collect(value, seen, out):
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, Node):
        out.append(value)
        value = list(vars(value).values())
    if isinstance(value, dict):
        value = [*value.keys(), *value.values()]
    if isinstance(value, (list, tuple)):
        for item in value:
            _collect(item, seen, out)


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
