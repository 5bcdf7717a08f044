# The whole models of benchmarks/onnx_models.py (a ResNet-style residual network, a transformer
# encoder layer), converted with from_onnx, compiled, and run on the Relax VM against onnxruntime
# with symbolic batch (and sequence) sizes changing between calls.
import sys
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from onnx_models import resnet, transformer  # noqa: E402

RNG = np.random.default_rng(7)


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
