# ONNX NonZero (an output length known only at run time) against onnxruntime, and integer
# Div / Mod by zero and of the minimum by -1: a defined result (0; the minimum wraps), never a
# crash (the division cases run in a child, its exit status asserted).
import subprocess
import sys
import textwrap

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402
from test_onnx_frontend import _model, _ort, _run, _tensor  # noqa: E402

RNG = np.random.default_rng(11)


def _nonzero_model(shape, elem):
    node = helper.make_node("NonZero", ["x"], ["y"])
    return _model(
        [node], [_tensor("x", shape, elem)], [_tensor("y", ["r", "n"], TensorProto.INT64)]
    )


@pytest.mark.parametrize(
    "dtype, shape",
    [
        ("float32", [4, 5]),
        ("bool", [2, 3, 4]),
        ("uint8", [7]),
        ("float32", [3, 0]),
        ("int64", [2, 2, 2]),
    ],
)
def test_nonzero_matches_onnxruntime(dtype, shape):
    from tvm.relax.frontend.onnx import from_onnx

    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    x = (RNG.integers(0, 2, shape) * RNG.integers(1, 9, shape)).astype(dtype)
    model = _nonzero_model(shape, elem)
    got = _run(from_onnx(model), x)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, _ort(model, {"x": x}))


def test_nonzero_with_a_symbolic_shape_changes_length_between_calls():
    import tvm
    from tvm import relax
    from tvm.relax.frontend.onnx import from_onnx

    model = _nonzero_model(["a", "b"], TensorProto.FLOAT)
    vm = relax.VirtualMachine(tvm.compile(from_onnx(model), target="llvm"), tvm.cpu())
    for shape in ([5, 7], [1, 1], [0, 4], [3, 3]):
        x = RNG.standard_normal(shape).astype("float32") * RNG.integers(0, 2, shape)
        got = vm["main"](tvm.runtime.tensor(x.astype("float32"))).numpy()
        np.testing.assert_array_equal(got, np.array(np.nonzero(x)))


def test_nonzero_of_a_constant_folds():
    from tvm.relax.frontend.onnx import from_onnx

    value = np.array([[0, 3], [2, 0]], "int64")
    nodes = [
        helper.make_node("Constant", [], ["c"], value=onnx.numpy_helper.from_array(value)),
        helper.make_node("NonZero", ["c"], ["y"]),
    ]
    model = _model(nodes, [], [_tensor("y", [2, 2], TensorProto.INT64)])
    np.testing.assert_array_equal(_run(from_onnx(model)), np.array(np.nonzero(value)))


_CHILD = textwrap.dedent(
    """
    import sys, numpy as np, onnx, tvm
    from onnx import helper
    from tvm import relax
    from tvm.relax.frontend.onnx import from_onnx
    op, dtype, fmod = sys.argv[1], sys.argv[2], int(sys.argv[3])
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    attrs = {"fmod": fmod} if op == "Mod" else {}
    node = helper.make_node(op, ["a", "b"], ["y"], **attrs)
    vi = [helper.make_tensor_value_info(n, elem, [6]) for n in "aby"]
    graph = helper.make_graph([node], "g", vi[:2], vi[2:])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    vm = relax.VirtualMachine(tvm.compile(from_onnx(model), target="llvm"), tvm.cpu())
    low = np.iinfo(dtype).min
    a = np.array([7, -7 if low else 7, low, low, 9, 5], dtype)
    b = np.array([0, 0, -1 if low else 0, 0, 4, 1], dtype)
    print(vm["main"](tvm.runtime.tensor(a), tvm.runtime.tensor(b)).numpy().tolist())
    """
)


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint16"])
@pytest.mark.parametrize("op, fmod", [("Div", 0), ("Mod", 0), ("Mod", 1)])
def test_integer_division_by_zero_is_zero_and_never_crashes(op, fmod, dtype):
    result = subprocess.run(
        [sys.executable, "-c", _CHILD, op, dtype, str(fmod)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, f"exit {result.returncode}: {result.stderr[-2000:]}"
    got = eval(result.stdout.strip().splitlines()[-1])
    low = int(np.iinfo(dtype).min)
    if op == "Div":  # x / 0 = 0; the minimum over -1 wraps to itself
        want = [0, 0, low, 0, 2, 5] if low else [0, 0, 0, 0, 2, 5]
    else:  # x % 0 = 0 in both conventions; 9 mod 4 = 1
        want = [0, 0, 0, 0, 1, 0]
    assert got == want
