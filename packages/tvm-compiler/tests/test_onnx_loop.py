# ONNX Loop through from_onnx: unrolled (constant small trip count) and as a recursive Relax
# function (run-time trip count or condition), run on the Relax VM against onnxruntime, and
# the errors of the Loops it cannot convert.
import re

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402
from test_onnx_converters import _run_all  # noqa: E402
from test_onnx_frontend import _init, _model, _tensor  # noqa: E402
from tvm.error import OpNotImplemented  # noqa: E402

F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def _convert(model):
    from tvm.relax.frontend.onnx import from_onnx

    return from_onnx(model)


def _ort_all(model, feeds):
    ort = pytest.importorskip("onnxruntime")
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)


def _sym(name, rank, elem=F):
    """A value of the given rank, its dims symbolic (the checker wants a shape)."""
    return _tensor(name, [f"{name}_{k}" for k in range(rank)], elem)


def _body(nodes, carried, scans, inits=()):
    """A Loop body (iter_num, cond_in, carried...) -> (cond_out, carried..., scans...)."""
    inputs = [_tensor("i", [], I64), _tensor("cond_in", [], B)]
    inputs += [_tensor(name, shape, elem) for name, shape, elem in carried]
    outputs = [_tensor("cond_out", [], B)]
    outputs += [_sym(name + "_out", len(shape), elem) for name, shape, elem in carried]
    outputs += [_sym(name, rank, elem) for name, rank, elem in scans]
    return helper.make_graph(nodes, "body", inputs, outputs, initializer=list(inits))


def _accumulate_body(stop="sum"):
    """s += x * (i + 1); scan s and i; keep going while sum(s) < 20 (stop="sum"), while
    i < 2 (stop="index") or as cond_in says (stop="never")."""
    conds = {
        "sum": helper.make_node("Less", ["total", "limit"], ["cond_out"]),
        "index": helper.make_node("Less", ["i", "two"], ["cond_out"]),
        "never": helper.make_node("Identity", ["cond_in"], ["cond_out"]),
    }
    nodes = [
        helper.make_node("Add", ["i", "one"], ["i1"]),
        helper.make_node("Cast", ["i1"], ["i1f"], to=F),
        helper.make_node("Mul", ["x", "i1f"], ["step"]),  # x: a value of the outer graph
        helper.make_node("Add", ["s", "step"], ["s_out"]),
        helper.make_node("ReduceSum", ["s_out"], ["total"], keepdims=0),
        conds[stop],
        helper.make_node("Identity", ["s_out"], ["s_scan"]),
        helper.make_node("Identity", ["i"], ["i_scan"]),
    ]
    inits = [_init("one", np.array(1, "int64")), _init("limit", np.array(20, "float32"))]
    inits.append(_init("two", np.array(2, "int64")))
    return _body(nodes, [("s", [3], F)], [("s_scan", 1, F), ("i_scan", 0, I64)], inits)


def _loop_model(trip, cond, extra_inputs=(), inits=(), opset=17, stop="sum"):
    body = _accumulate_body(stop)
    node = helper.make_node("Loop", [trip, cond, "s0"], ["s_final", "s_rows", "i_rows"], body=body)
    inputs = [_tensor("x", [3]), _tensor("s0", [3]), *extra_inputs]
    outputs = [_tensor("s_final", [3]), _sym("s_rows", 2), _sym("i_rows", 1, I64)]
    return _model([node], inputs, outputs, inits, opset=opset)


def _check(model, feeds):
    mod = _convert(model)
    got = _run_all(mod, *feeds.values())
    want = _ort_all(model, feeds)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-6)
    return mod


def _local_functions(mod) -> int:
    """How many functions main binds (the recursive loop functions)."""
    from tvm import relax

    return sum(
        isinstance(binding.value, relax.Function)
        for block in mod["main"].body.blocks
        for binding in block.bindings
    )


X = np.array([0.5, 1.0, -0.25], "float32")
S0 = np.array([0.0, 1.0, 2.0], "float32")


@pytest.mark.parametrize("m", [0, 1, 2, 3, 40])
def test_run_time_trip_count_and_condition_match_onnxruntime(m):
    model = _loop_model("m", "c", [_tensor("m", [], I64), _tensor("c", [], B)])
    feeds = {"x": X, "s0": S0, "m": np.array(m, "int64"), "c": np.array(True)}
    _check(model, feeds)
    feeds["c"] = np.array(False)  # no iteration: the scans are empty
    _check(model, feeds)


def test_run_time_trip_count_without_condition_input_matches_onnxruntime():
    # the body's condition still ends the loop (as onnxruntime runs it)
    model = _loop_model("m", "", [_tensor("m", [], I64)])
    _check(model, {"x": X, "s0": S0, "m": np.array(7, "int64")})


def test_condition_without_trip_count_is_a_while_loop():
    model = _loop_model("", "c", [_tensor("c", [], B)])
    _check(model, {"x": X, "s0": S0, "c": np.array(True)})


def test_constant_small_trip_count_is_unrolled():
    model = _loop_model("m", "", inits=[_init("m", np.array(5, "int64"))], stop="never")
    mod = _check(model, {"x": X, "s0": S0})
    assert _local_functions(mod) == 0  # five copies of the body, no loop function


def test_constant_condition_that_stops_early_is_unrolled():
    inits = [_init("m", np.array(6, "int64")), _init("c", np.array(True))]
    model = _loop_model("m", "c", inits=inits, stop="index")  # 3 of the 6 iterations run
    mod = _check(model, {"x": X, "s0": S0})
    assert _local_functions(mod) == 0


def test_large_constant_trip_count_is_a_real_loop():
    model = _loop_model("m", "", inits=[_init("m", np.array(100, "int64"))], stop="never")
    mod = _check(model, {"x": X, "s0": S0})
    assert _local_functions(mod) == 1


def test_ten_thousand_iterations_stay_within_the_vm_call_depth():
    body = _body(
        [
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
            helper.make_node("Add", ["s", "one"], ["s_out"]),
            helper.make_node("Identity", ["s"], ["scan"]),
        ],
        [("s", [], F)],
        [("scan", 0, F)],
        [_init("one", np.array(1, "float32"))],
    )
    node = helper.make_node("Loop", ["m", "", "s0"], ["s", "rows"], body=body)
    model = _model(
        [node], [_tensor("m", [], I64), _tensor("s0", [])], [_tensor("s", []), _sym("rows", 1)]
    )
    n = 10_000
    s, rows = _run_all(_convert(model), np.array(n, "int64"), np.array(0, "float32"))
    assert s == n
    np.testing.assert_array_equal(rows, np.arange(n, dtype="float32"))


def test_carried_value_that_grows_each_iteration():
    body = _body(
        [
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
            helper.make_node("Cast", ["i"], ["fi"], to=F),
            helper.make_node("Unsqueeze", ["fi", "axes"], ["row"]),
            helper.make_node("Concat", ["v", "row"], ["v_out"], axis=0),
        ],
        [("v", [1], F)],
        [],
        [_init("axes", np.array([0], "int64"))],
    )
    node = helper.make_node("Loop", ["m", "", "v0"], ["v"], body=body)
    model = _model([node], [_tensor("m", [], I64), _tensor("v0", [1])], [_sym("v", 1)])
    for m in (0, 4):
        feeds = {"m": np.array(m, "int64"), "v0": np.array([7.0], "float32")}
        (got,) = _run_all(_convert(model), *feeds.values())
        np.testing.assert_array_equal(got, _ort_all(model, feeds)[0])


def test_loop_without_trip_count_or_condition_is_op_not_implemented():
    model = _loop_model("", "")
    with pytest.raises(OpNotImplemented, match=r"op Loop, opset 17\): a Loop with neither"):
        _convert(model)


def test_body_with_the_wrong_number_of_inputs_is_a_value_error():
    model = _loop_model("m", "", [_tensor("m", [], I64)])
    node = model.graph.node[0]
    node.input.append("x")  # a second carried value the body does not take
    node.output.insert(1, "x_final")
    with pytest.raises(ValueError, match=re.escape("with 2 loop-carried value(s) it must take 4")):
        _convert(model)


def test_carried_value_whose_rank_changes_is_op_not_implemented():
    body = _body(
        [
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
            helper.make_node("Unsqueeze", ["v", "axes"], ["v_out"]),
        ],
        [("v", [2], F)],
        [],
        [_init("axes", np.array([0], "int64"))],
    )
    node = helper.make_node("Loop", ["m", "", "v0"], ["v"], body=body)
    model = _model([node], [_tensor("m", [], I64), _tensor("v0", [2])], [_sym("v", 1)])
    with pytest.raises(OpNotImplemented, match="whose rank or dtype changes"):
        _convert(model)


def test_scan_output_of_changing_shape_is_op_not_implemented():
    body = _body(
        [
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
            helper.make_node("Concat", ["v", "v"], ["v_out"], axis=0),
            helper.make_node("Identity", ["v"], ["scan"]),
        ],
        [("v", [1], F)],
        [("scan", 1, F)],
    )
    node = helper.make_node("Loop", ["m", "", "v0"], ["v", "rows"], body=body)
    inputs = [_tensor("m", [], I64), _tensor("v0", [1])]
    model = _model([node], inputs, [_sym("v", 1), _sym("rows", 2)])
    with pytest.raises(OpNotImplemented, match=r"a scan output of shape .* \(not static\)"):
        _convert(model)


def test_run_time_loop_without_scan_outputs_or_symbolic_dims():
    body = _body(
        [
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
            helper.make_node("Add", ["s", "s"], ["s_out"]),
        ],
        [("s", [2], F)],
        [],
    )
    node = helper.make_node("Loop", ["m", "", "x"], ["r"], body=body)
    model = _model([node], [_tensor("x", [2]), _tensor("m", [], I64)], [_tensor("r", [2])])
    _check(model, {"x": np.array([1.0, -2.0], "float32"), "m": np.array(3, "int64")})
