# ONNX Sequence and Optional ops through from_onnx (sequences as tuples of known length,
# optionals of known presence), run on the Relax VM against onnxruntime, and their errors.
import re

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402
from test_onnx_frontend import _init, _model, _tensor  # noqa: E402
from tvm.error import OpNotImplemented  # noqa: E402

F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL
RNG = np.random.default_rng(11)


def _seq(name, rank, elem=F):
    """A sequence-of-tensors value info, its element dims symbolic."""
    shape = [f"{name}_{k}" for k in range(rank)]
    return helper.make_tensor_sequence_value_info(name, elem, shape)


def _sym(name, rank, elem=F):
    return _tensor(name, [f"{name}_{k}" for k in range(rank)], elem)


def _convert(model, shape_dict=None):
    from tvm.relax.frontend.onnx import from_onnx

    return from_onnx(model, shape_dict=shape_dict)


def _flatten(value):
    if hasattr(value, "numpy"):
        return [value.numpy()]
    return [a for item in value for a in _flatten(item)]


def _run(mod, *args):
    """main's outputs, nested tuples flattened, as NumPy arrays; a list argument is a
    sequence (a tuple of tensors)."""
    import tvm
    from tvm import relax

    if not hasattr(relax, "VirtualMachine"):
        pytest.skip("the Relax VM is not in this build yet")

    def arg(a):
        return [arg(x) for x in a] if isinstance(a, list) else tvm.runtime.tensor(a)

    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    return _flatten(vm["main"](*[arg(a) for a in args]))


def _ort_flat(model, feeds):
    ort = pytest.importorskip("onnxruntime")
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    out = []
    for value in sess.run(None, feeds):
        out.extend(value if isinstance(value, list) else [value])
    return out


def _check(model, feeds, shape_dict=None):
    got = _run(_convert(model, shape_dict), *feeds.values())
    want = _ort_flat(model, feeds)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-6)


def test_construct_insert_erase_at_and_length_match_onnxruntime():
    nodes = [
        helper.make_node("SequenceConstruct", ["a", "b"], ["s0"]),
        helper.make_node("SequenceInsert", ["s0", "c", "front"], ["s1"]),  # c, a, b
        helper.make_node("SequenceInsert", ["s1", "a"], ["s2"]),  # c, a, b, a
        helper.make_node("SequenceErase", ["s2", "second"], ["s3"]),  # c, b, a
        helper.make_node("SequenceErase", ["s3"], ["s4"]),  # c, b
        helper.make_node("SequenceAt", ["s3", "last"], ["at"]),  # a
        helper.make_node("SequenceLength", ["s3"], ["n"]),
    ]
    inits = [_init("front", np.array(0, "int64")), _init("second", np.array([1], "int64"))]
    inits.append(_init("last", np.array(-1, "int64")))
    inputs = [_tensor("a", [2, 3]), _tensor("b", [4, 3]), _tensor("c", [1, 3])]
    outputs = [_seq("s4", 2), _sym("at", 2), _tensor("n", [], I64)]
    model = _model(nodes, inputs, outputs, inits)
    feeds = {
        k: RNG.standard_normal(s).astype("float32") for k, s in zip("abc", [[2, 3], [4, 3], [1, 3]])
    }
    _check(model, feeds)


@pytest.mark.parametrize("axis, new_axis", [(0, 0), (1, 0), (0, 1), (-1, 1)])
def test_concat_from_sequence_matches_onnxruntime(axis, new_axis):
    shape = [2, 3] if new_axis else None
    nodes = [
        helper.make_node("SequenceConstruct", ["a", "b", "c"], ["s"]),
        helper.make_node("ConcatFromSequence", ["s"], ["y"], axis=axis, new_axis=new_axis),
    ]
    shapes = [shape or [2, 3]] * 3 if new_axis or axis == 1 else [[2, 3], [1, 3], [4, 3]]
    if axis == 1 and not new_axis:
        shapes = [[2, 3], [2, 1], [2, 5]]
    inputs = [_tensor(k, s) for k, s in zip("abc", shapes)]
    model = _model(nodes, inputs, [_sym("y", 3 if new_axis else 2)])
    feeds = {k: RNG.standard_normal(s).astype("float32") for k, s in zip("abc", shapes)}
    _check(model, feeds)


@pytest.mark.parametrize(
    "split, keepdims",
    [(np.array(2, "int64"), 1), (np.array([1, 4, 0], "int64"), 1), (None, 0), (None, 1)],
)
def test_split_to_sequence_matches_onnxruntime(split, keepdims):
    inputs = ["x"] if split is None else ["x", "split"]
    inits = [] if split is None else [_init("split", split)]
    node = helper.make_node("SplitToSequence", inputs, ["s"], axis=1, keepdims=keepdims)
    rank = 2 if split is None and not keepdims else 3
    model = _model([node], [_tensor("x", [2, 5, 3])], [_seq("s", rank)], inits)
    _check(model, {"x": RNG.standard_normal([2, 5, 3]).astype("float32")})


def test_sequence_input_and_sequence_map_match_onnxruntime():
    body = helper.make_graph(
        [helper.make_node("Mul", ["e", "t"], ["prod"]), helper.make_node("Shape", ["e"], ["sh"])],
        "body",
        [_sym("e", 1), _sym("t", 1)],
        [_sym("prod", 1), _sym("sh", 1, I64)],
    )
    node = helper.make_node("SequenceMap", ["xs", "t"], ["prods", "shapes"], body=body)
    model = _model(
        [node], [_seq("xs", 1), _tensor("t", [1])], [_seq("prods", 1), _seq("shapes", 1, I64)]
    )
    xs = [RNG.standard_normal(n).astype("float32") for n in (3, 1, 5)]
    t = np.array([2.5], "float32")
    _check(model, {"xs": xs, "t": t}, shape_dict={"xs": [[3], [1], [5]]})


def _branch(name, out, nodes):
    return helper.make_graph(nodes, name, [], [_seq(out, 1)])


def test_if_with_sequence_branches_matches_onnxruntime():
    then_g = _branch("then", "ts", [helper.make_node("SequenceConstruct", ["x", "x"], ["ts"])])
    neg = helper.make_node("Neg", ["x"], ["nx"])
    else_g = _branch(
        "else", "es", [neg, helper.make_node("SequenceConstruct", ["nx", "x"], ["es"])]
    )
    node = helper.make_node("If", ["c"], ["s"], then_branch=then_g, else_branch=else_g)
    model = _model([node], [_tensor("c", [], B), _tensor("x", [3])], [_seq("s", 1)])
    x = RNG.standard_normal(3).astype("float32")
    for c in (True, False):
        _check(model, {"c": np.array(c), "x": x})


def test_unrolled_loop_builds_a_sequence():
    body = helper.make_graph(
        [
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
            helper.make_node("Cast", ["i"], ["fi"], to=F),
            helper.make_node("Mul", ["x", "fi"], ["row"]),
            helper.make_node("SequenceInsert", ["acc", "row"], ["acc_out"]),
        ],
        "body",
        [_tensor("i", [], I64), _tensor("cond_in", [], B), _seq("acc", 1)],
        [_tensor("cond_out", [], B), _seq("acc_out", 1)],
    )
    nodes = [
        helper.make_node("SequenceEmpty", [], ["empty"], dtype=F),
        helper.make_node("Loop", ["m", "", "empty"], ["rows"], body=body),
        helper.make_node("ConcatFromSequence", ["rows"], ["y"], axis=0, new_axis=1),
    ]
    model = _model(
        nodes, [_tensor("x", [2])], [_seq("rows", 1), _sym("y", 2)], [_init("m", np.array(4))]
    )
    _check(model, {"x": np.array([1.0, -2.0], "float32")})


def test_optional_ops_with_known_presence():
    elem = helper.make_tensor_type_proto(F, [3])
    nodes = [
        helper.make_node("Optional", ["x"], ["full"]),
        helper.make_node("Optional", [], ["empty"], type=elem),
        helper.make_node("OptionalHasElement", ["full"], ["has_full"]),
        helper.make_node("OptionalHasElement", ["empty"], ["has_empty"]),
        helper.make_node("OptionalGetElement", ["full"], ["got"]),
        helper.make_node("OptionalHasElement", [], ["has_nothing"]),
    ]
    outputs = [_tensor(n, [], B) for n in ("has_full", "has_empty", "has_nothing")]
    model = _model(nodes, [_tensor("x", [3])], [*outputs, _tensor("got", [3])], opset=18)
    x = RNG.standard_normal(3).astype("float32")
    got = _run(_convert(model), x)
    assert [bool(v) for v in got[:3]] == [True, False, False]
    np.testing.assert_array_equal(got[3], x)


def test_get_element_of_an_empty_optional_is_a_value_error():
    elem = helper.make_tensor_type_proto(F, [3])
    nodes = [
        helper.make_node("Optional", [], ["empty"], type=elem),
        helper.make_node("OptionalGetElement", ["empty"], ["y"]),
    ]
    model = _model(nodes, [], [_tensor("y", [3])], opset=18)
    with pytest.raises(
        ValueError, match=r"op OptionalGetElement, opset 18\): the optional input is empty"
    ):
        _convert(model)


def test_sequence_at_out_of_range_is_an_index_error():
    nodes = [
        helper.make_node("SequenceConstruct", ["x", "x"], ["s"]),
        helper.make_node("SequenceAt", ["s", "pos"], ["y"]),
    ]
    model = _model(nodes, [_tensor("x", [2])], [_tensor("y", [2])], [_init("pos", np.array(2))])
    with pytest.raises(IndexError, match=r"op SequenceAt.*position 2 is out of range .* length 2"):
        _convert(model)


def test_run_time_position_is_op_not_implemented():
    nodes = [
        helper.make_node("SequenceConstruct", ["x"], ["s"]),
        helper.make_node("SequenceAt", ["s", "pos"], ["y"]),
    ]
    model = _model(nodes, [_tensor("x", [2]), _tensor("pos", [], I64)], [_tensor("y", [2])])
    with pytest.raises(OpNotImplemented, match=r"a position \('pos'\) computed at run time"):
        _convert(model)


def test_tensor_op_on_a_sequence_is_op_not_implemented():
    nodes = [
        helper.make_node("SequenceConstruct", ["x"], ["s"]),
        helper.make_node("Relu", ["s"], ["y"]),
    ]
    model = _model(nodes, [_tensor("x", [2])], [_tensor("y", [2])])
    with pytest.raises(OpNotImplemented, match=r"op Relu, opset 17\): the sequence input 's'"):
        _convert(model)


def test_sequence_input_needs_its_shapes_in_shape_dict():
    node = helper.make_node("SequenceLength", ["xs"], ["n"])
    model = _model([node], [_seq("xs", 1)], [_tensor("n", [], I64)])
    with pytest.raises(OpNotImplemented, match="'xs' is a sequence of unknown length"):
        _convert(model)
    with pytest.raises(ValueError, match=re.escape("shape_dict['xs'] must be a list of shapes")):
        _convert(model, {"xs": [3, 4]})
    assert (
        int(_run(_convert(model, {"xs": [[3], [4]]}), [np.zeros(3, "f"), np.zeros(4, "f")])[0]) == 2
    )


def test_split_that_does_not_sum_to_the_dimension_is_a_value_error():
    node = helper.make_node("SplitToSequence", ["x", "split"], ["s"])
    model = _model(
        [node], [_tensor("x", [5])], [_seq("s", 1)], [_init("split", np.array([2, 2], "int64"))]
    )
    with pytest.raises(ValueError, match=r"split \[2, 2\] must be non-negative and sum to"):
        _convert(model)


def test_if_branches_of_different_sequence_lengths_are_op_not_implemented():
    then_g = _branch("then", "ts", [helper.make_node("SequenceConstruct", ["x", "x"], ["ts"])])
    else_g = _branch("else", "es", [helper.make_node("SequenceConstruct", ["x"], ["es"])])
    node = helper.make_node("If", ["c"], ["s"], then_branch=then_g, else_branch=else_g)
    model = _model([node], [_tensor("c", [], B), _tensor("x", [3])], [_seq("s", 1)])
    with pytest.raises(OpNotImplemented, match="sequences of different lengths"):
        _convert(model)


def test_if_with_an_empty_optional_branch_is_op_not_implemented():
    elem = helper.make_tensor_type_proto(F, [3])
    then_g = helper.make_graph(
        [helper.make_node("Optional", [], ["none"], type=elem)],
        "then",
        [],
        [helper.make_value_info("none", helper.make_optional_type_proto(elem))],
    )
    else_g = helper.make_graph(
        [helper.make_node("Optional", ["x"], ["some"])],
        "else",
        [],
        [helper.make_value_info("some", helper.make_optional_type_proto(elem))],
    )
    node = helper.make_node("If", ["c"], ["o"], then_branch=then_g, else_branch=else_g)
    out = helper.make_value_info("o", helper.make_optional_type_proto(elem))
    model = _model([node], [_tensor("c", [], B), _tensor("x", [3])], [out], opset=18)
    with pytest.raises(OpNotImplemented, match=r"op If, opset 18\): an If on a run-time condition"):
        _convert(model)


def test_sequence_map_whose_body_has_a_run_time_loop():
    loop_body = helper.make_graph(
        [helper.make_node("Identity", ["c"], ["co"]), helper.make_node("Add", ["s", "s"], ["so"])],
        "loop_body",
        [_tensor("i", [], I64), _tensor("c", [], B), _tensor("s", [2])],
        [_tensor("co", [], B), _tensor("so", [2])],
    )
    loop = helper.make_node("Loop", ["m", "", "e"], ["r"], body=loop_body)
    body = helper.make_graph([loop], "body", [_tensor("e", [2])], [_tensor("r", [2])])
    nodes = [
        helper.make_node("SequenceConstruct", ["x", "x"], ["xs"]),
        helper.make_node("SequenceMap", ["xs"], ["ys"], body=body),
    ]
    model = _model(nodes, [_tensor("x", [2]), _tensor("m", [], I64)], [_seq("ys", 1)])
    _check(model, {"x": np.array([1.0, 2.0], "float32"), "m": np.array(3, "int64")})
