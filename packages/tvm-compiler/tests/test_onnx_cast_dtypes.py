# ONNX on the narrow types (int4/uint4/int2/uint2, bfloat16, float16, float8): Cast, CastLike
# and BitCast semantics, folded constant casts, float32 accumulation, and the bad-input errors.
import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ml_dtypes = pytest.importorskip("ml_dtypes", reason="narrow-type test data needs ml_dtypes")
from onnx import TensorProto, helper  # noqa: E402
from test_onnx_frontend import _init, _model, _tensor  # noqa: E402


def _convert(model):
    from tvm.relax.frontend.onnx import from_onnx

    return from_onnx(model)


def _run(mod, *arrays):
    import tvm
    from tvm import relax

    if not hasattr(relax, "VirtualMachine"):
        pytest.skip("the Relax VM is not in this build yet")
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    return vm["main"](*[tvm.runtime.tensor(a) for a in arrays]).numpy()


def _cast_model(src_elem, to_elem, n, opset=23):
    node = helper.make_node("Cast", ["x"], ["y"], to=to_elem)
    return _model([node], [_tensor("x", [n], src_elem)], [_tensor("y", [n], to_elem)], opset=opset)


# values around and beyond each type's range, fractions (truncated toward zero), NaN and inf
EDGES = [-9.0, -8.5, -8.0, -3.0, -2.9, -2.0, -1.0, -0.5, 0.0, 0.7, 1.0, 1.9, 2.0, 3.0, 3.5]
EDGES += [4.0, 7.0, 7.9, 8.0, 15.0, 15.9, 16.0, 1e10, -1e10, np.nan, np.inf, -np.inf]


@pytest.mark.parametrize(
    "name, elem",
    [
        ("int4", TensorProto.INT4),
        ("uint4", TensorProto.UINT4),
        ("int2", TensorProto.INT2),
        ("uint2", TensorProto.UINT2),
    ],
)
@pytest.mark.parametrize("src", ["float32", "float16"])
def test_float_to_sub_byte_int_is_zero_out_of_range_as_the_onnx_reference(name, elem, src):
    with np.errstate(over="ignore"):  # 1e10 is +inf in float16
        x = np.array(EDGES, dtype=src)
    src_elem = TensorProto.FLOAT if src == "float32" else TensorProto.FLOAT16
    got = _run(_convert(_cast_model(src_elem, elem, len(x))), x)
    with np.errstate(invalid="ignore", over="ignore"):
        expected = x.astype(getattr(ml_dtypes, name))  # what onnx.reference computes
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got.astype("int64"), expected.astype("int64"))
    # in range, a float is truncated toward zero (not rounded): 1.9 -> 1, -2.9 -> -2 (int4)
    if name == "int4":
        assert got[EDGES.index(1.9)] == 1 and got[EDGES.index(-2.9)] == -2
        assert got[EDGES.index(8.0)] == 0 and got[EDGES.index(-9.0)] == 0  # no wrapping


def test_sub_byte_int_to_float_and_wider_int_keeps_every_value():
    x = np.arange(-8, 8, dtype="int8").astype(ml_dtypes.int4)
    got = _run(_convert(_cast_model(TensorProto.INT4, TensorProto.FLOAT, 16)), x)
    np.testing.assert_array_equal(got, np.arange(-8, 8, dtype="float32"))
    got = _run(_convert(_cast_model(TensorProto.INT4, TensorProto.INT8, 16)), x)
    np.testing.assert_array_equal(got, np.arange(-8, 8, dtype="int8"))


def test_a_constant_cast_to_bfloat16_is_folded_so_pad_can_read_it():
    # the expanded Attention function pads its bias with CastLike(-inf, bias): Pad needs the
    # constant_value at conversion time, so the cast of the constant must fold
    bias = np.array([[0.5, -1.25]], dtype=ml_dtypes.bfloat16)
    nodes = [
        helper.make_node("CastLike", ["neg_inf", "b"], ["fill"]),
        helper.make_node("Pad", ["b", "pads", "fill"], ["y"]),
    ]
    inits = [_init("neg_inf", np.array(-np.inf, "float32")), _init("pads", np.array([0, 0, 0, 2]))]
    model = _model(
        nodes,
        [_tensor("b", [1, 2], TensorProto.BFLOAT16)],
        [_tensor("y", [1, 4], TensorProto.BFLOAT16)],
        inits,
        opset=23,
    )
    mod = _convert(model)
    assert "astype" not in mod.script()
    got = _run(mod, bias)
    assert got.dtype == np.dtype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(got.astype("float32"), [[0.5, -1.25, -np.inf, -np.inf]])


def test_constant_casts_fold_with_round_to_nearest_even():
    # 1 + 2**-8 lies halfway between two bfloat16 values: nearest-even gives 1.0;
    # 1 + 3 * 2**-8 lies halfway too and goes up to 1 + 2**-6
    value = np.array([1.0 + 2**-8, 1.0 + 3 * 2**-8, 70000.0], "float32")
    nodes = [
        helper.make_node("Cast", ["c"], ["cb"], to=TensorProto.BFLOAT16),
        helper.make_node("Cast", ["c"], ["ch"], to=TensorProto.FLOAT16),
        helper.make_node("Cast", ["cb"], ["y0"], to=TensorProto.FLOAT),
        helper.make_node("Cast", ["ch"], ["y1"], to=TensorProto.FLOAT),
        helper.make_node("Concat", ["y0", "y1"], ["y"], axis=0),
    ]
    model = _model([*nodes], [], [_tensor("y", [6])], [_init("c", value)], opset=23)
    mod = _convert(model)
    assert "astype" not in mod.script()
    got = _run(mod)
    # float16 holds both exactly; 70000 is past its largest finite value (65504): +inf
    np.testing.assert_array_equal(
        got, [1.0, 1.0 + 2**-6, 70144.0, 1.0 + 2**-8, 1.0 + 3 * 2**-8, np.inf]
    )


@pytest.mark.parametrize(
    "to",
    [
        TensorProto.FLOAT8E4M3FN,
        TensorProto.FLOAT8E4M3FNUZ,
        TensorProto.FLOAT8E5M2,
        TensorProto.FLOAT8E5M2FNUZ,
    ],
)
@pytest.mark.parametrize(
    "src, elem",
    [("int32", TensorProto.INT32), ("int64", TensorProto.INT64), ("uint8", TensorProto.UINT8)],
)
def test_saturating_cast_of_integers_to_float8_clamps_as_the_onnx_reference(src, elem, to):
    # Only float sources were clamped: an integer past the range became NaN or inf.
    from onnx.reference import ReferenceEvaluator

    values = [0, 1, -3, 17, 200, 240, 241, 255, 448, 465, 480, 57344, 61440, 100000, -70000]
    if src == "int64":
        values += [2**40, -(2**62)]
    x = np.array([v for v in values if np.can_cast(np.min_scalar_type(v), src)], src)
    node = helper.make_node("Cast", ["x"], ["y"], to=to, saturate=1)
    model = _model([node], [_tensor("x", [len(x)], elem)], [_tensor("y", [len(x)], to)], opset=23)
    got = _run(_convert(model), x)
    expected = ReferenceEvaluator(model).run(None, {"x": x})[0]
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got.astype("float64"), expected.astype("float64"))
    assert np.isfinite(got.astype("float64")).all()


@pytest.mark.parametrize(
    "src, to",
    [
        ("float8_e5m2", TensorProto.INT4),  # -9 rounds to -8 in e5m2: -8 was zeroed
        ("float8_e5m2fnuz", TensorProto.INT4),
        ("float4_e2m1fn", TensorProto.INT4),  # 8 saturates to 6 in float4: 6 was zeroed
        ("float4_e2m1fn", TensorProto.UINT4),
        ("float8_e5m2", TensorProto.FLOAT8E4M3FNUZ),  # 240 rounds to 256: inf gave NaN
        ("float8_e5m2fnuz", TensorProto.FLOAT8E4M3FNUZ),
        ("float8_e5m2", TensorProto.FLOAT8E4M3FN),
    ],
)
def test_cast_from_float8_and_float4_clamps_by_exact_bounds_as_the_onnx_reference(src, to):
    # The range bounds were built in the source type, which cannot hold all of them.
    from onnx.reference import ReferenceEvaluator

    elem = {
        "float8_e5m2": TensorProto.FLOAT8E5M2,
        "float8_e5m2fnuz": TensorProto.FLOAT8E5M2FNUZ,
        "float4_e2m1fn": TensorProto.FLOAT4E2M1,
    }[src]
    values = [-8.0, -6.0, -4.0, -1.5, -0.5, 0.0, 1.0, 3.0, 6.0, 7.0, 8.0, 12.0, 16.0, 240.0]
    values += [256.0, 448.0, 512.0, 57344.0, np.inf, -np.inf, -448.0, np.nan]
    with np.errstate(over="ignore", invalid="ignore"):
        x = np.array(values, "float32").astype(getattr(ml_dtypes, src))
    node = helper.make_node("Cast", ["x"], ["y"], to=to, saturate=1)
    model = _model([node], [_tensor("x", [len(x)], elem)], [_tensor("y", [len(x)], to)], opset=23)
    got = _run(_convert(model), x)
    expected = ReferenceEvaluator(model).run(None, {"x": x})[0]
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got.astype("float64"), expected.astype("float64"))


def test_cast_to_an_unknown_type_names_the_node_and_the_attribute():
    with pytest.raises(ValueError, match=r"op Cast.*attribute 'to' must be an onnx.TensorProto"):
        _convert(_cast_model(TensorProto.FLOAT, 9999, 2))
    with pytest.raises(ValueError, match=r"op BitCast.*'to' must be an onnx.TensorProto.*9999"):
        _convert(_bitcast_model(TensorProto.FLOAT, 9999, 2))


def test_astype_to_an_unknown_dtype_names_the_function_and_argument():
    from tvm import relax

    x = relax.Var("x", relax.TensorStructInfo([2], "float32"))
    with pytest.raises(ValueError, match="astype: argument 'dtype' must be a data type, got 'int3"):
        relax.op.astype(x, "int3x")
    call = relax.BlockBuilder().normalize(relax.op.astype(x, "int4"))
    assert str(call.struct_info.dtype) == "int4"


def _single_op_model(op, inputs, out_shape, elem, **attrs):
    names = [f"x{i}" for i in range(len(inputs))]
    node = helper.make_node(op, names, ["y"], **attrs)
    model = _model(
        [node],
        [_tensor(n, list(a.shape), elem) for n, a in zip(names, inputs)],
        [_tensor("y", out_shape, elem)],
        opset=18,
    )
    return _run(_convert(model), *inputs)


@pytest.mark.parametrize(
    "name, elem",
    [("float16", TensorProto.FLOAT16), ("bfloat16", TensorProto.BFLOAT16)],
)
def test_narrow_float_sums_accumulate_in_float32(name, elem):
    # 4096 ones: a float16 (or bfloat16) running sum stops growing at 2048 (256), as
    # 2048 + 1 rounds back to 2048; NumPy and onnxruntime accumulate in float32 and get 4096
    np_dtype = np.dtype(getattr(ml_dtypes, name, None) or name)
    ones = np.ones((1, 4096), np_dtype)
    got = _single_op_model("MatMul", [ones, ones.reshape(4096, 1)], [1, 1], elem)
    assert got.dtype == np_dtype and float(got[0, 0]) == 4096.0
    got = _single_op_model("ReduceSum", [ones], [1, 1], elem, keepdims=1)
    assert float(got[0, 0]) == 4096.0
    got = _single_op_model("Gemm", [ones, ones.reshape(4096, 1)], [1, 1], elem)
    assert float(got[0, 0]) == 4096.0
    got = _single_op_model(
        "Conv", [ones.reshape(1, 4096, 1), ones.reshape(1, 4096, 1)], [1, 1, 1], elem
    )
    assert float(got.ravel()[0]) == 4096.0
    # softmax of 4096 equal logits is 2**-12 each (a sum stuck at 2048 would give 2**-11)
    got = _single_op_model("Softmax", [np.zeros((1, 4096), np_dtype)], [1, 4096], elem)
    np.testing.assert_array_equal(got.astype("float32"), np.full((1, 4096), 2**-12, "float32"))
    got = _single_op_model("LogSoftmax", [np.zeros((1, 4096), np_dtype)], [1, 4096], elem)
    np.testing.assert_array_equal(
        got.astype("float32"),
        np.full((1, 4096), -12 * np.log(2), "float32").astype(np_dtype).astype("float32"),
    )


E8M0_PROBES = [0.0, -0.0, 1.0, -1.0, 1.1, 1.5, 1.4999, 1.5001, 3.0, 0.75, 0.124, 0.25, 6.0, 7.9]
E8M0_PROBES += [2.0**-126, 2.0**-127, 1.5 * 2.0**-127, 1.7 * 2.0**-127, 1e-45, 1e-40, 2.0**-128]
E8M0_PROBES += [2.0**127, 1.2 * 2.0**127, 1.5 * 2.0**127, 3e38, np.inf, -np.inf, np.nan, 1e30]


@pytest.mark.parametrize("round_mode", ["up", "down", "nearest"])
@pytest.mark.parametrize("saturate", [1, 0])
def test_cast_to_float8_e8m0_follows_round_mode_and_saturate(round_mode, saturate):
    from onnx.numpy_helper import to_float8e8m0

    x = np.array(E8M0_PROBES, dtype="float32")
    node = helper.make_node(
        "Cast", ["x"], ["y"], to=TensorProto.FLOAT8E8M0, saturate=saturate, round_mode=round_mode
    )
    model = _model(
        [node],
        [_tensor("x", [len(x)])],
        [_tensor("y", [len(x)], TensorProto.FLOAT8E8M0)],
        opset=25,
    )
    got = _run(_convert(model), x)
    expected = to_float8e8m0(x, saturate=bool(saturate), round_mode=round_mode)
    assert got.dtype == np.dtype(ml_dtypes.float8_e8m0fnu)
    np.testing.assert_array_equal(got.view("uint8"), expected.view("uint8"))


def test_float8_e8m0_decodes_to_its_power_of_two():
    codes = np.array([0, 1, 126, 127, 128, 254, 255], "uint8").view(ml_dtypes.float8_e8m0fnu)
    got = _run(_convert(_cast_model(TensorProto.FLOAT8E8M0, TensorProto.FLOAT, 7)), codes)
    np.testing.assert_array_equal(got, [2.0**-127, 2.0**-126, 0.5, 1.0, 2.0, 2.0**127, np.nan])


def test_cast_with_an_unknown_round_mode_names_the_attribute():
    node = helper.make_node("Cast", ["x"], ["y"], to=TensorProto.FLOAT8E8M0, round_mode="sideways")
    model = _model(
        [node], [_tensor("x", [2])], [_tensor("y", [2], TensorProto.FLOAT8E8M0)], opset=25
    )
    with pytest.raises(ValueError, match=r"op Cast.*attribute 'round_mode' must be one of"):
        _convert(model)


def _bitcast_model(src_elem, to_elem, n):
    node = helper.make_node("BitCast", ["x"], ["y"], to=to_elem)
    return _model([node], [_tensor("x", [n], src_elem)], [_tensor("y", [n], to_elem)], opset=26)


def test_bitcast_keeps_the_bits_of_narrow_floats_and_bools():
    x = np.array([1.0, -2.5, np.inf, np.nan, -0.0], ml_dtypes.bfloat16)
    got = _run(_convert(_bitcast_model(TensorProto.BFLOAT16, TensorProto.INT16, 5)), x)
    np.testing.assert_array_equal(got, x.view("int16"))
    h = np.array([0x7E00, 0xFC00, 0x8000, 0x3C00], "uint16")  # NaN, -inf, -0, 1
    got = _run(_convert(_bitcast_model(TensorProto.UINT16, TensorProto.FLOAT16, 4)), h)
    np.testing.assert_array_equal(got.view("uint16"), h)
    b = np.array([True, False, True])
    got = _run(_convert(_bitcast_model(TensorProto.BOOL, TensorProto.INT8, 3)), b)
    np.testing.assert_array_equal(got, [1, 0, 1])


def test_bitcast_to_another_width_names_the_attribute():
    with pytest.raises(ValueError, match=r"op BitCast.*attribute 'to' must be a type of the"):
        _convert(_bitcast_model(TensorProto.FLOAT, TensorProto.INT64, 2))


def test_celu_of_bfloat16_rounds_expm1_once():
    # exp(-0.25) rounded to bfloat16 and then less 1 gives -0.2227 (alpha times: -0.4453);
    # expm1 rounded once is -0.2212 -> -0.4434, what the ONNX reference computes
    x = np.array([-3.0, -0.5, 0.0, 0.5, 3.0], dtype=ml_dtypes.bfloat16)
    node = helper.make_node("Celu", ["x"], ["y"], alpha=2.0)
    model = _model(
        [node],
        [_tensor("x", [5], TensorProto.BFLOAT16)],
        [_tensor("y", [5], TensorProto.BFLOAT16)],
        opset=13,
    )
    got = _run(_convert(model), x)
    expected = np.maximum(0, x) + np.minimum(0, 2.0 * np.expm1(x / 2.0))
    np.testing.assert_array_equal(got.view("uint16"), expected.astype(x.dtype).view("uint16"))


def test_float16_average_pools_do_not_overflow_their_window_sum():
    # The window sum of 16 values of 60000 overflowed float16 (inf), where the mean fits and
    # the ONNX reference gives 60000.
    from onnx.reference import ReferenceEvaluator

    x = np.full((1, 1, 8, 8), 60000, "float16")
    for op, attrs, out_shape in [
        ("AveragePool", {"kernel_shape": [4, 4], "strides": [4, 4]}, [1, 1, 2, 2]),
        ("GlobalAveragePool", {}, [1, 1, 1, 1]),
        ("GlobalMaxPool", {}, [1, 1, 1, 1]),
    ]:
        node = helper.make_node(op, ["x"], ["y"], **attrs)
        model = _model(
            [node],
            [_tensor("x", list(x.shape), TensorProto.FLOAT16)],
            [_tensor("y", out_shape, TensorProto.FLOAT16)],
            opset=18,
        )
        got = _run(_convert(model), x)
        expected = ReferenceEvaluator(model).run(None, {"x": x})[0]
        assert got.dtype == np.float16
        np.testing.assert_array_equal(got, expected)
        assert np.isfinite(got).all()


def test_float16_group_normalization_keeps_its_statistics_in_float32():
    # stash_type defaults to 1 (float32): a float16 sum of squares of 64 values near 1000
    # overflowed, so every output was 0; the ONNX reference (NumPy's float16 mean and var
    # accumulate in float32) normalises them.
    from onnx.reference import ReferenceEvaluator

    x = (np.random.default_rng(0).standard_normal((1, 2, 64)) * 100 + 1000).astype("float16")
    node = helper.make_node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=2)
    inits = [_init("s", np.ones(2, "float16")), _init("b", np.zeros(2, "float16"))]
    model = _model(
        [node],
        [_tensor("x", [1, 2, 64], TensorProto.FLOAT16)],
        [_tensor("y", [1, 2, 64], TensorProto.FLOAT16)],
        inits,
        opset=21,
    )
    got = _run(_convert(model), x)
    expected = ReferenceEvaluator(model).run(None, {"x": x})[0]
    assert got.dtype == np.float16 and np.abs(expected).max() > 1
    np.testing.assert_allclose(got.astype("float32"), expected.astype("float32"), atol=2e-3)
