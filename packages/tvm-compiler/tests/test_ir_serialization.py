"""tvm.ir.save_json / load_json: TIR, Relax and modules round-trip; malformed text is refused."""
# ruff: noqa: F821, F841  (TVMScript bodies are IR: their names are bindings, cls is the module)

import json
import math
import subprocess
import sys

import numpy as np
import pytest
import tvm
from relax_programs import mlp_module
from tvm import relax, tir
from tvm.script import ir as I  # noqa: N812
from tvm.script import relax as R  # noqa: N812
from tvm.script import tir as T  # noqa: N812


def _round_trip(node, map_free_vars=False):
    text = tvm.ir.save_json(node)
    again = tvm.ir.load_json(text)
    tvm.ir.assert_structural_equal(node, again, map_free_vars)
    hashes = [tvm.ir.structural_hash(n, map_free_vars) for n in (node, again)]
    assert hashes[0] == hashes[1]
    assert tvm.ir.save_json(again) == text  # loading and saving again changes nothing
    return again


@T.prim_func
def _tiled(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16,), "float32")):
    T.func_attr({"global_symbol": "tiled", "tir.noalias": True})
    for i, k in T.grid(16, 16):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = T.float32("-inf")
            B[vi] = T.max(B[vi], A[vi, vk] * T.float32(0.5))


def test_a_prim_func_round_trips_and_prints_the_same():
    again = _round_trip(_tiled)
    assert again.script() == _tiled.script()
    assert again is not _tiled


def test_an_ir_module_of_tir_and_relax_functions_round_trips():
    mod = mlp_module()
    again = _round_trip(mod)
    assert again.script() == mod.script()
    # The GlobalVar a call names is the very key of the module's function table.
    keys = {id(gv) for gv in again.functions}
    calls = [
        b.value
        for block in again["main"].body.blocks
        for b in block.bindings
        if isinstance(b.value, relax.Call)
    ]
    callees = [c.args[0] for c in calls if c.op.name == "relax.call_tir"]
    assert callees and all(id(gv) in keys for gv in callees)


def test_relax_constants_keep_their_values_dtype_and_shape():
    data = np.arange(6, dtype="float16").reshape(2, 3) / 4

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((2, 3), "float16")) -> R.Tensor((2, 3), "float16"):
            y = R.add(x, R.const(data, "float16"))
            return y

    again = _round_trip(Module)
    const = again["main"].body.blocks[0].bindings[0].value.args[1]
    assert isinstance(const, relax.Constant)
    assert str(const.data.dtype) == "float16" and tuple(const.data.shape) == (2, 3)
    np.testing.assert_array_equal(const.data.numpy(), data)


def test_shared_variables_and_subexpressions_stay_shared():
    x = tir.Var("x", "int32")
    shared = x + 1
    expr = tir.Mul(shared, shared)
    again = _round_trip(expr, map_free_vars=True)  # x itself is free: a new one is loaded
    assert again.a is again.b
    assert again.a.a is not x  # a fresh variable, used wherever the saved one was


def test_non_finite_floats_and_targets_round_trip():
    func = _tiled.with_attr("target", tvm.target.Target("c"))
    again = _round_trip(func)
    assert str(again.attrs["target"]) == str(func.attrs["target"])
    for value in (math.inf, -math.inf):
        assert _round_trip(tir.FloatImm("float32", value)).value == value
    assert _round_trip(tir.For(tir.Var("i", "int32"), 0, 4, tir.ForKind.UNROLLED, tir.Evaluate(0)))
    assert math.isnan(tvm.ir.load_json(tvm.ir.save_json(tir.FloatImm("float32", math.nan))).value)


def test_containers_and_scalars_round_trip_as_themselves():
    x = tir.Var("x", "int64")
    value = {"a": [1, 2.5, True, None], "b": (x, x), "c": "text"}
    again = tvm.ir.load_json(tvm.ir.save_json(value))
    assert again["a"] == [1, 2.5, True, None] and type(again["a"][2]) is bool
    assert again["c"] == "text"
    assert again["b"][0] is again["b"][1] and again["b"][0].name == "x"


def test_the_document_is_a_node_graph_with_its_format_named():
    document = json.loads(tvm.ir.save_json(tir.IntImm("int32", 3)))
    assert set(document) == {"root_index", "nodes", "metadata"}
    assert document["metadata"]["format"] == "tvm-stack.ir-json"
    assert document["metadata"]["version"] == 1
    root = document["nodes"][document["root_index"]]
    assert root["type"] == "tir.IntImm"
    value = document["nodes"][root["data"]["value"]]
    assert value == {"type": "int", "data": 3}


def test_a_chain_thousands_deep_saves_and_loads():
    # The writer keeps its own stack: no RecursionError however deep the IR is.
    expr = tir.Var("x", "int32")
    for i in range(3000):
        expr = expr + i
    text = tvm.ir.save_json(expr)
    assert tvm.ir.save_json(tvm.ir.load_json(text)) == text


def test_a_container_holding_itself_is_a_value_error_naming_where():
    cycle = [1]
    cycle.append(cycle)
    with pytest.raises(ValueError, match=r"save_json: node\[1\] holds itself"):
        tvm.ir.save_json(cycle)


def test_saving_something_that_is_not_ir_names_the_function_and_where_it_is():
    with pytest.raises(
        TypeError, match=r"save_json: cannot save a builtins.function \(found at node\['f'\]\)"
    ):
        tvm.ir.save_json({"f": lambda: 0})


def _document(nodes, root=None):
    root = len(nodes) - 1 if root is None else root
    return json.dumps({"root_index": root, "nodes": nodes})


@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json", "load_json: the text is not JSON"),
        ("[" * 100000 + "]" * 100000, "load_json: the text is not JSON"),
        ('{"a":' * 100000 + "1" + "}" * 100000, "load_json: the text is not JSON"),
        ("[1, 2]", "load_json: expected a JSON object, got list"),
        ('{"nodes": []}', "load_json: the document has no 'root_index'"),
        (
            _document([{"type": "int", "data": 1}], root=4),
            "load_json: 'root_index' refers to node 4",
        ),
        (_document([{"type": "ffi.Array", "data": [0]}]), "load_json: node 0 refers to node 0"),
        (_document([{"data": 1}]), "load_json: node 0 must be an object with a 'type' string"),
        (_document([{"type": "tir.Nonsense", "data": {}}]), "unknown type 'tir.Nonsense'"),
        (_document([{"type": "int", "data": "3"}]), r"node 0 \(int\) must hold an int"),
        (_document([{"type": "int", "data": True}]), r"node 0 \(int\) must hold an int"),
        (_document([{"type": "tir.IntImm", "data": {}}]), "lacks the field 'dtype'"),
        (
            _document(
                [
                    {"type": "DataType", "data": "int32"},
                    {"type": "int", "data": 1},
                    {"type": "None"},
                    {
                        "type": "tir.IntImm",
                        "data": {"dtype": 0, "value": 1, "span": 2, "script": 2},
                    },
                ]
            ),
            r"node 3 \(tir.IntImm\) has a field 'script' that would hide the class's own",
        ),
        (
            _document(
                [
                    {"type": "DataType", "data": "int32"},
                    {"type": "int", "data": 1},
                    {"type": "ffi.String", "data": "tir.FloatImm"},
                    {"type": "tir.IntImm", "data": {"dtype": 0, "value": 1, "_type_key": 2}},
                ]
            ),
            "has a field '_type_key' that would hide",
        ),
        (_document([{"type": "ir.Op", "data": "relax.nope"}]), "no operator named 'relax.nope'"),
        (_document([{"type": "enum", "data": ["os:sep", "x"]}]), "'os:sep' is not an enum defined"),
        (
            _document([{"type": "relax.Var", "class": "os:PathLike", "data": {}}]),
            "'os:PathLike' is not a subclass defined in tvm",
        ),
        (
            _document([{"type": "relax.Var", "class": "tvm.tir:Var", "data": {}}]),
            "'tvm.tir:Var' is not a subclass of Var",
        ),
        (
            _document(
                [{"type": "ffi.Tensor", "data": {"dtype": "float32", "shape": [2], "data": ""}}]
            ),
            "a float32 tensor of shape \\(2,\\) needs 8 bytes, its data has 0",
        ),
        (
            json.dumps({"root_index": 0, "nodes": [], "metadata": {"format": "x"}}),
            "load_json: unknown format 'x'",
        ),
        (
            json.dumps(
                {
                    "root_index": 0,
                    "nodes": [],
                    "metadata": {"format": "tvm-stack.ir-json", "version": 9},
                }
            ),
            "newer than this reader's 1; upgrade tvm-compiler",
        ),
    ],
)
def test_malformed_json_is_a_value_error_naming_load_json(text, message):
    with pytest.raises(ValueError, match=message):
        tvm.ir.load_json(text)


def test_load_json_of_a_non_string_is_a_type_error():
    with pytest.raises(TypeError, match="load_json: argument 'json_str' must be a str, got int"):
        tvm.ir.load_json(3)


def _function_names(mod):
    return sorted(gv.name_hint for gv in mod.functions)


def test_nodes_pickle_through_their_json_and_cross_to_a_child_process():
    import pickle

    from tvm.contrib.popen_pool import PopenWorker

    mod = mlp_module()
    again = pickle.loads(pickle.dumps(mod))
    tvm.ir.assert_structural_equal(mod, again)
    assert pickle.loads(pickle.dumps(tvm.ir.Op.get("relax.add"))) is tvm.ir.Op.get("relax.add")
    worker = PopenWorker()
    worker.send(_function_names, (mod,))
    assert worker.recv() == _function_names(mod)
    worker.kill()
    with pytest.raises(TypeError, match="save_json: cannot save a builtins.function"):
        pickle.dumps(_tiled.with_attr("callback", lambda: 0))


def test_save_and_load_work_without_numpy():
    # tvm-compiler does not depend on NumPy: an install without it saves and loads modules.
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "import tvm\n"
        "from tvm.script import from_source\n"
        f"mod = from_source({_tiled.script()!r})\n"
        "again = tvm.ir.load_json(tvm.ir.save_json(mod))\n"
        "tvm.ir.assert_structural_equal(mod, again)\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["ok"]
