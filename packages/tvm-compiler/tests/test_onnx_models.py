# The whole models of benchmarks/onnx_models.py (an MLP, a small CNN, a ResNet-style network,
# a transformer encoder layer) and torch.nn models exported with torch.onnx.export, converted
# with from_onnx, compiled, and run on the Relax VM against onnxruntime (or torch) with symbolic
# batch (and sequence) sizes changing between calls.
import sys
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from onnx_models import mlp, resnet, small_cnn, transformer  # noqa: E402

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
        (mlp, [(1, 12), (7, 12), (3, 12)]),
        (small_cnn, [(1, 3, 12, 12), (5, 3, 12, 12), (2, 3, 12, 12)]),
        (resnet, [(1, 3, 8, 8), (4, 3, 8, 8), (2, 3, 8, 8)]),
        (transformer, [(1, 5, 16), (3, 7, 16), (2, 1, 16)]),
    ],
    ids=["mlp", "small_cnn", "resnet", "transformer"],
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


def _torch_models(torch):
    nn = torch.nn
    torch.manual_seed(0)
    mlp_ = nn.Sequential(
        nn.Linear(10, 24), nn.ReLU(), nn.Linear(24, 24), nn.GELU(), nn.Linear(24, 3)
    )
    cnn = nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1),
        nn.BatchNorm2d(8),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(8, 8, 3, stride=2, padding=1, groups=2),
        nn.ReLU(),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(8, 5),
    )
    with torch.no_grad():  # batch norm with statistics that are not the identity
        cnn[1].running_mean.uniform_(-0.5, 0.5)
        cnn[1].running_var.uniform_(0.5, 1.5)
    return {
        "mlp": (mlp_, (2, 10), [(1, 10), (6, 10)]),
        "cnn": (cnn, (2, 3, 16, 16), [(1, 3, 16, 16), (4, 3, 16, 16)]),
    }


@pytest.mark.parametrize("name", ["mlp", "cnn"])
def test_a_torch_nn_model_exported_to_onnx_matches_torch(name):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed in this venv")
    import io
    import warnings

    import tvm

    module, example, shapes = _torch_models(torch)[name]
    module.eval()
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the TorchScript exporter is deprecated, not gone
        torch.onnx.export(
            module,
            (torch.randn(*example),),
            buffer,
            input_names=["x"],
            output_names=["y"],
            dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}},
            opset_version=17,
            dynamo=False,
        )
    vm = _compiled(onnx.load_from_string(buffer.getvalue()))
    for shape in shapes:
        x = RNG.standard_normal(shape).astype("float32")
        with torch.no_grad():
            want = module(torch.from_numpy(x)).numpy()
        got = vm["main"](tvm.runtime.tensor(x)).numpy()
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
