# Whole models built with onnx.helper (a ResNet-style residual network, a transformer encoder
# layer), converted with from_onnx, compiled, and run on the Relax VM against onnxruntime with
# symbolic batch (and sequence) sizes changing between calls.
import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

RNG = np.random.default_rng(7)


class _Graph:
    """Nodes and initializers of one model under construction, with fresh value names."""

    def __init__(self):
        self.nodes, self.inits, self.count = [], [], 0

    def init(self, array):
        name = f"p{len(self.inits)}"
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def weight(self, *shape, scale=0.3):
        return self.init((RNG.standard_normal(shape) * scale).astype("float32"))

    def op(self, op_type, *inputs, **attrs):
        self.count += 1
        out = f"v{self.count}"
        self.nodes.append(helper.make_node(op_type, list(inputs), [out], **attrs))
        return out

    def model(self, inputs, output, out_shape, opset):
        self.nodes[-1].output[0] = output  # the last op writes the graph output
        graph = helper.make_graph(
            self.nodes,
            "g",
            inputs,
            [helper.make_tensor_value_info(output, TensorProto.FLOAT, out_shape)],
            initializer=self.inits,
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
        onnx.checker.check_model(model)
        return model


def _conv_bn(g, x, c_in, c_out, stride, kernel=3, relu=True):
    pad = kernel // 2
    y = g.op(
        "Conv",
        x,
        g.weight(c_out, c_in, kernel, kernel),
        kernel_shape=[kernel, kernel],
        strides=[stride, stride],
        pads=[pad] * 4,
    )
    y = g.op(
        "BatchNormalization",
        y,
        g.init(RNG.uniform(0.5, 1.5, c_out).astype("float32")),
        g.init(RNG.standard_normal(c_out).astype("float32") * 0.1),
        g.init(RNG.standard_normal(c_out).astype("float32") * 0.1),
        g.init(RNG.uniform(0.5, 1.5, c_out).astype("float32")),
        epsilon=1e-5,
    )
    return g.op("Relu", y) if relu else y


def _residual(g, x, c_in, c_out, stride):
    y = _conv_bn(g, x, c_in, c_out, stride)
    y = _conv_bn(g, y, c_out, c_out, 1, relu=False)
    skip = x if stride == 1 and c_in == c_out else _conv_bn(g, x, c_in, c_out, stride, 1, False)
    return g.op("Relu", g.op("Add", y, skip))


def resnet():
    g = _Graph()
    y = _conv_bn(g, "x", 3, 8, 1)
    y = _residual(g, y, 8, 8, 1)
    y = _residual(g, y, 8, 16, 2)
    y = g.op("GlobalAveragePool", y)
    y = g.op("Flatten", y, axis=1)
    g.op("Gemm", y, g.weight(16, 10), g.weight(10))
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 8, 8])
    return g.model([x], "y", ["N", 10], opset=17)


def transformer(d=16, heads=2, hidden=32):
    g = _Graph()
    dh = d // heads

    def layer_norm(x):
        return g.op(
            "LayerNormalization",
            x,
            g.init(RNG.uniform(0.5, 1.5, d).astype("float32")),
            g.init(RNG.standard_normal(d).astype("float32") * 0.1),
            axis=-1,
            epsilon=1e-5,
        )

    def heads_first(x):  # (N, S, D) -> (N, H, S, dh)
        x = g.op("Reshape", x, g.init(np.array([0, 0, heads, dh], "int64")))
        return g.op("Transpose", x, perm=[0, 2, 1, 3])

    h = layer_norm("x")
    q, k, v = (heads_first(g.op("MatMul", h, g.weight(d, d))) for _ in range(3))
    scores = g.op("MatMul", q, g.op("Transpose", k, perm=[0, 1, 3, 2]))
    scores = g.op("Div", scores, g.init(np.array(np.sqrt(dh), "float32")))
    attn = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)
    attn = g.op("Transpose", attn, perm=[0, 2, 1, 3])
    attn = g.op("Reshape", attn, g.init(np.array([0, 0, d], "int64")))
    x1 = g.op("Add", "x", g.op("Add", g.op("MatMul", attn, g.weight(d, d)), g.weight(d)))
    m = g.op("Add", g.op("MatMul", layer_norm(x1), g.weight(d, hidden)), g.weight(hidden))
    m = g.op("Gelu", m)
    m = g.op("Add", g.op("MatMul", m, g.weight(hidden, d)), g.weight(d))
    g.op("Add", x1, m)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", "S", d])
    return g.model([x], "y", ["N", "S", d], opset=20)


def _compiled(model):
    import tvm
    from tvm import relax
    from tvm.relax.frontend.onnx import from_onnx

    mod = from_onnx(model)
    mod = relax.transform.DecomposeOpsForInference()(mod)  # the recipe
    return relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())


@pytest.mark.parametrize(
    "build, shapes",
    [
        (resnet, [(1, 3, 8, 8), (4, 3, 8, 8), (2, 3, 8, 8)]),
        (transformer, [(1, 5, 16), (3, 7, 16), (2, 1, 16)]),
    ],
    ids=["resnet", "transformer"],
)
def test_model_matches_onnxruntime_with_dynamic_shapes(build, shapes):
    import tvm

    model = build()
    vm = _compiled(model)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for shape in shapes:  # one compiled function, the symbolic sizes changing between calls
        x = RNG.standard_normal(shape).astype("float32")
        got = vm["main"](tvm.runtime.tensor(x)).numpy()
        want = sess.run(None, {"x": x})[0]
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
