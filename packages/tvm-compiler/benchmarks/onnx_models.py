"""ONNX models built with onnx.helper (a ResNet-style CNN, a transformer encoder layer) that the
ONNX model tests, bench_onnx.py and its reference helper share (onnx and NumPy only: the
reference venv has another tvm). Weights come from a seeded generator, so every run and venv
builds the same model."""

import numpy as np
from onnx import TensorProto, checker, helper, numpy_helper


class Graph:
    """Nodes and initializers of one model under construction, with fresh value names."""

    def __init__(self, seed=7):
        self.nodes, self.inits, self.count = [], [], 0
        self.rng = np.random.default_rng(seed)

    def init(self, array):
        name = f"p{len(self.inits)}"
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def weight(self, *shape, scale=0.3):
        return self.init((self.rng.standard_normal(shape) * scale).astype("float32"))

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
        model.ir_version = 8  # readable by older onnxruntime releases too
        checker.check_model(model)
        return model


def _conv_bn(g, x, c_in, c_out, stride, kernel=3, relu=True):
    pad = kernel // 2
    y = g.op(
        "Conv",
        x,
        g.weight(c_out, c_in, kernel, kernel, scale=1.0 / np.sqrt(c_in * kernel * kernel)),
        kernel_shape=[kernel, kernel],
        strides=[stride, stride],
        pads=[pad] * 4,
    )
    y = g.op(
        "BatchNormalization",
        y,
        g.init(g.rng.uniform(0.5, 1.5, c_out).astype("float32")),
        g.init(g.rng.standard_normal(c_out).astype("float32") * 0.1),
        g.init(g.rng.standard_normal(c_out).astype("float32") * 0.1),
        g.init(g.rng.uniform(0.5, 1.5, c_out).astype("float32")),
        epsilon=1e-5,
    )
    return g.op("Relu", y) if relu else y


def _residual(g, x, c_in, c_out, stride):
    y = _conv_bn(g, x, c_in, c_out, stride)
    y = _conv_bn(g, y, c_out, c_out, 1, relu=False)
    skip = x if stride == 1 and c_in == c_out else _conv_bn(g, x, c_in, c_out, stride, 1, False)
    return g.op("Relu", g.op("Add", y, skip))


def mlp(sizes=(12, 32, 32, 5)):
    """Gemm + Relu layers (the last without Relu) over (N, sizes[0]) with a symbolic N."""
    g = Graph()
    y = "x"
    for i, (k, m) in enumerate(zip(sizes[:-1], sizes[1:])):
        y = g.op("Gemm", y, g.weight(k, m, scale=1.0 / np.sqrt(k)), g.weight(m))
        if i < len(sizes) - 2:
            y = g.op("Relu", y)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", sizes[0]])
    return g.model([x], "y", ["N", sizes[-1]], opset=13)


def small_cnn(channels=6, image=12):
    """Conv-BN-ReLU, max pool, a second Conv-BN-ReLU, average pool, Flatten and MatMul + Add;
    input (N, 3, image, image) with a symbolic N."""
    g = Graph()
    y = _conv_bn(g, "x", 3, channels, 1)
    y = g.op("MaxPool", y, kernel_shape=[2, 2], strides=[2, 2])
    y = _conv_bn(g, y, channels, 2 * channels, 1)
    y = g.op("AveragePool", y, kernel_shape=[2, 2], strides=[2, 2])
    y = g.op("Flatten", y, axis=1)
    features = 2 * channels * (image // 4) ** 2
    g.op("Add", g.op("MatMul", y, g.weight(features, 10, scale=0.1)), g.weight(10))
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, image, image])
    return g.model([x], "y", ["N", 10], opset=15)


def resnet(width=8, image=8):
    """Conv-BN-ReLU stem, two residual blocks (the second strided, doubling the channels),
    global average pool and a 10-way Gemm; input (N, 3, image, image) with a symbolic N."""
    g = Graph()
    y = _conv_bn(g, "x", 3, width, 1)
    y = _residual(g, y, width, width, 1)
    y = _residual(g, y, width, 2 * width, 2)
    y = g.op("GlobalAveragePool", y)
    y = g.op("Flatten", y, axis=1)
    g.op("Gemm", y, g.weight(2 * width, 10), g.weight(10))
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, image, image])
    return g.model([x], "y", ["N", 10], opset=17)


def transformer(d=16, heads=2, hidden=32):
    """A pre-norm encoder layer (multi-head attention, GELU MLP, residuals); input (N, S, d)
    with symbolic N and S."""
    g = Graph()
    dh = d // heads

    def layer_norm(x):
        return g.op(
            "LayerNormalization",
            x,
            g.init(g.rng.uniform(0.5, 1.5, d).astype("float32")),
            g.init(g.rng.standard_normal(d).astype("float32") * 0.1),
            axis=-1,
            epsilon=1e-5,
        )

    def heads_first(x):  # (N, S, D) -> (N, H, S, dh)
        x = g.op("Reshape", x, g.init(np.array([0, 0, heads, dh], "int64")))
        return g.op("Transpose", x, perm=[0, 2, 1, 3])

    def dense(x, k, m):
        return g.op("MatMul", x, g.weight(k, m, scale=1.0 / np.sqrt(k)))

    h = layer_norm("x")
    q, k, v = (heads_first(dense(h, d, d)) for _ in range(3))
    scores = g.op("MatMul", q, g.op("Transpose", k, perm=[0, 1, 3, 2]))
    scores = g.op("Div", scores, g.init(np.array(np.sqrt(dh), "float32")))
    attn = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)
    attn = g.op("Transpose", attn, perm=[0, 2, 1, 3])
    attn = g.op("Reshape", attn, g.init(np.array([0, 0, d], "int64")))
    x1 = g.op("Add", "x", g.op("Add", dense(attn, d, d), g.weight(d)))
    m = g.op("Add", dense(layer_norm(x1), d, hidden), g.weight(hidden))
    m = g.op("Gelu", m)
    m = g.op("Add", dense(m, hidden, d), g.weight(d))
    g.op("Add", x1, m)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", "S", d])
    return g.model([x], "y", ["N", "S", d], opset=20)


# What bench_onnx.py measures: (name, builder, kwargs, input shapes).
BENCH_MODELS = (
    ("resnet w16 32x32", resnet, {"width": 16, "image": 32}, [(1, 3, 32, 32), (8, 3, 32, 32)]),
    (
        "transformer d128 h4",
        transformer,
        {"d": 128, "heads": 4, "hidden": 512},
        [(1, 32, 128), (8, 32, 128)],
    ),
)


def bench_input(shape):
    return np.random.default_rng(sum(shape)).standard_normal(shape).astype("float32")
