# A compiled C library (tvm-ffi's C ABI) run remotely through tvm-rpc: upload, load, call, time.
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
rpc = pytest.importorskip("tvm.rpc", reason="tvm-rpc is not installed")
import tvm  # noqa: E402
from tvm.error import RPCError  # noqa: E402
from tvm_ffi import libinfo  # noqa: E402

KERNEL = Path(__file__).resolve().parent.parent / "packages" / "tvm-rpc" / "demo_kernel.c"


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler (cc/gcc) on this machine to build the kernel library")
    lib_dir = Path(libinfo.find_libtvm_ffi()).parent
    out = tmp_path_factory.mktemp("rpc-kernel") / "axpy.so"
    subprocess.run(
        [
            compiler,
            "-shared",
            "-fPIC",
            "-O2",
            "-std=c99",
            "-I",
            libinfo.find_include_path(),
            str(KERNEL),
            "-o",
            str(out),
            "-L",
            str(lib_dir),
            "-ltvm_ffi",
            f"-Wl,-rpath,{lib_dir}",
        ],
        check=True,
        timeout=120,
    )
    return out


@pytest.fixture(scope="module")
def server():
    with rpc.Server(port=0, silent=True) as srv:
        yield srv


def _run_kernel(sess, library: Path):
    sess.upload(str(library))
    module = sess.load_module(library.name)
    x = tvm.runtime.tensor(np.linspace(0, 1, 1000, dtype="float32"), sess.cpu())
    y = tvm.runtime.empty((1000,), "float32", sess.cpu())
    module["axpy_one"](x, y, 3.0)
    np.testing.assert_allclose(y.numpy(), 3 * x.numpy() + 1, rtol=1e-6)
    return module, x, y


def test_kernel_over_socket(server, library):
    with rpc.connect("127.0.0.1", server.port) as sess:
        module, x, y = _run_kernel(sess, library)
        result = module.time_evaluator("axpy_one", sess.cpu(), number=20, repeat=2)(x, y, 1.0)
        assert len(result.results) == 2 and all(r > 0 for r in result.results)


def test_kernel_errors_arrive_with_their_kind(server, library):
    with rpc.connect("127.0.0.1", server.port) as sess:
        module, x, _ = _run_kernel(sess, library)
        wrong = tvm.runtime.empty((3,), "float32", sess.cpu())
        with pytest.raises(ValueError, match="differ in size") as info:
            module["axpy_one"](x, wrong, 1.0)
        assert isinstance(info.value, RPCError)
        with pytest.raises(TypeError, match="alpha must be a number"):
            module["axpy_one"](x, x, "two")
        with pytest.raises(AttributeError, match="no function 'nope'"):
            module["nope"]


def test_kernel_in_popen_session(library):
    with rpc.PopenSession() as sess:
        _run_kernel(sess, library)


def test_kernel_through_two_hops(library):
    with (
        rpc.Server(port=0, silent=True) as far,
        rpc.Server(port=0, silent=True, allow_connect=[("127.0.0.1", far.port)]) as first,
    ):
        hop = ["rpc.Connect", "127.0.0.1", far.port, ""]
        with rpc.connect("127.0.0.1", first.port, session_constructor_args=hop) as sess:
            _run_kernel(sess, library)


def test_remote_module_is_callable_like_a_local_one(server, tmp_path):
    import numpy as np
    import tvm
    from tvm import te

    a = te.placeholder((8,), name="A")
    b = te.compute((8,), lambda i: a[i] * 2.0, name="B")
    path = tvm.compile(te.create_prim_func([a, b])).export_library(tmp_path / "double.so")
    with rpc.connect("127.0.0.1", server.port) as sess:
        sess.upload(path)
        remote = sess.load_module("double.so")
        x = tvm.runtime.tensor(np.arange(8, dtype="float32"), sess.cpu())
        y = tvm.runtime.tensor(np.zeros(8, dtype="float32"), sess.cpu())
        remote(x, y)
        np.testing.assert_array_equal(y.numpy(), np.arange(8, dtype="float32") * 2)
