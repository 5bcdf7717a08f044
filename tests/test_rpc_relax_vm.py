# A Relax executable run by the VM on the far side of an RPC session, as upstream's
# VirtualMachine(rpc_mod, remote.cpu()): upload the exported library, load it, call main.
from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
rpc = pytest.importorskip("tvm.rpc", reason="tvm-rpc is not installed")
relax = pytest.importorskip("tvm.relax", reason="tvm-compiler is not installed")
import tvm  # noqa: E402
from tvm import te, tir  # noqa: E402


def _dense_module():
    n = tir.Var("n", "int64")
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo((n, 4), "float32"))
    w = relax.Var("w", relax.TensorStructInfo((4, 3), "float32"))

    def dense(a, b):
        k = te.reduce_axis((0, 4), "k")
        return te.compute((a.shape[0], 3), lambda i, j: te.sum(a[i, k] * b[k, j], axis=k))

    with bb.function("main", [x, w]):
        with bb.dataflow():
            out = bb.emit_output(bb.emit_te(dense, x, w))
        bb.emit_func_output(out)
    return bb.get()


@pytest.fixture(scope="module")
def server():
    with rpc.Server(port=0, silent=True) as srv:
        yield srv


@pytest.mark.parametrize("exec_mode", ["bytecode", "compiled"])
def test_remote_vm_runs_an_uploaded_executable(server, tmp_path, exec_mode):
    ex = relax.build(_dense_module(), "llvm", exec_mode=exec_mode)
    path = ex.export_library(str(tmp_path / "dense.so"))
    with rpc.connect("127.0.0.1", server.port) as remote:
        remote.upload(path)
        rt_mod = remote.load_module("dense.so")
        vm = relax.VirtualMachine(rt_mod, remote.cpu())
        a = np.arange(20, dtype="float32").reshape(5, 4)
        b = np.ones((4, 3), "float32")
        out = vm["main"](tvm.runtime.tensor(a, remote.cpu()), tvm.runtime.tensor(b, remote.cpu()))
        np.testing.assert_allclose(out.numpy(), a @ b)
        with pytest.raises(ValueError, match="param=w"):
            vm["main"](
                tvm.runtime.tensor(a, remote.cpu()),
                tvm.runtime.tensor(np.ones((5, 3), "float32"), remote.cpu()),
            )


def test_remote_vm_needs_a_device_of_the_session_and_only_calls_functions(server, tmp_path):
    path = relax.build(_dense_module(), "llvm").export_library(str(tmp_path / "d.so"))
    with rpc.connect("127.0.0.1", server.port) as remote:
        remote.upload(path)
        rt_mod = remote.load_module("d.so")
        with pytest.raises(ValueError, match="argument 'device' must be a device of the module"):
            relax.VirtualMachine(rt_mod, tvm.cpu())
        with pytest.raises(NotImplementedError, match=r"runs functions with vm\[name\]"):
            relax.VirtualMachine(rt_mod, remote.cpu()).set_input("main", 1, 2)
