"""Demo: a small CNN written as an ONNX graph (conv, batch norm, relu, max pool, flatten, gemm)
with a symbolic batch, imported with from_onnx, compiled once and run on the Relax VM for
three batch sizes, each checked against onnx's reference evaluator."""

import time

import numpy as np
import onnx
import tvm
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from tvm import relax
from tvm.relax.frontend.onnx import from_onnx

rng = np.random.default_rng(0)


def const(name, array):
    return numpy_helper.from_array(np.asarray(array, dtype="float32"), name)


channels = 8
initializers = [
    const("conv_w", rng.standard_normal((channels, 3, 3, 3)) / np.sqrt(27)),
    const("bn_scale", rng.uniform(0.5, 1.5, channels)),
    const("bn_bias", rng.standard_normal(channels) * 0.1),
    const("bn_mean", rng.standard_normal(channels) * 0.1),
    const("bn_var", rng.uniform(0.5, 1.5, channels)),
    const("fc_w", rng.standard_normal((channels * 8 * 8, 10)) / np.sqrt(channels * 64)),
    const("fc_b", rng.standard_normal(10) * 0.1),
]
nodes = [
    helper.make_node("Conv", ["image", "conv_w"], ["conv"], kernel_shape=[3, 3], pads=[1] * 4),
    helper.make_node(
        "BatchNormalization", ["conv", "bn_scale", "bn_bias", "bn_mean", "bn_var"], ["bn"]
    ),
    helper.make_node("Relu", ["bn"], ["relu"]),
    helper.make_node("MaxPool", ["relu"], ["pool"], kernel_shape=[2, 2], strides=[2, 2]),
    helper.make_node("Flatten", ["pool"], ["flat"], axis=1),
    helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["logits"]),
]
graph = helper.make_graph(
    nodes,
    "small_cnn",
    [helper.make_tensor_value_info("image", TensorProto.FLOAT, ["batch", 3, 16, 16])],
    [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 10])],
    initializer=initializers,
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
onnx.checker.check_model(model)

start = time.perf_counter()
mod = relax.transform.DecomposeOpsForInference()(from_onnx(model))
vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
print(f"from_onnx + tvm.compile: {time.perf_counter() - start:.2f} s")
print(f"main takes {mod['main'].params[0].struct_info}")

reference = ReferenceEvaluator(model)
for batch in (1, 4, 9):  # one compiled function, the batch size known only at run time
    images = rng.standard_normal((batch, 3, 16, 16)).astype("float32")
    logits = vm["main"](tvm.runtime.tensor(images)).numpy()
    (expected,) = reference.run(None, {"image": images})
    np.testing.assert_allclose(logits, expected, rtol=1e-4, atol=1e-5)
    print(f"batch {batch}: logits {logits.shape}, predicted classes {logits.argmax(1).tolist()}")
print("the VM's results match onnx's reference evaluator")
