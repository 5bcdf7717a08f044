# Across the layers: compile with tvm-compiler, ship the library over tvm-rpc, run it in a child.
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

tvm = pytest.importorskip("tvm", reason="tvm-runtime is not installed in this environment")
te = pytest.importorskip("tvm.te", reason="tvm-compiler is not installed in this environment")
rpc = pytest.importorskip("tvm.rpc", reason="tvm-rpc is not installed in this environment")


def vector_add(n: int):
    a = te.placeholder((n,), "float32", name="A")
    b = te.placeholder((n,), "float32", name="B")
    c = te.compute((n,), lambda i: a[i] + b[i], name="C")
    return te.create_prim_func([a, b, c])


def test_compiled_library_runs_in_an_rpc_child(tmp_path):
    n = 1000
    library = tvm.compile(vector_add(n), target="c").export_library(str(tmp_path / "add.so"))
    rng = np.random.default_rng(7)
    a, b = rng.random(n, dtype="float32"), rng.random(n, dtype="float32")
    with rpc.PopenSession() as sess:
        sess.upload(library, "add.so")
        remote_add = sess.load_module("add.so")["main"]
        dev = sess.cpu()
        ra, rb = tvm.runtime.tensor(a, dev), tvm.runtime.tensor(b, dev)
        rc = tvm.runtime.empty((n,), "float32", dev)
        remote_add(ra, rb, rc)
        np.testing.assert_allclose(rc.numpy(), a + b, rtol=1e-6)


def test_every_layer_shares_one_tvm_package():
    import tvm.runtime
    import tvm.tir
    import tvm_ffi

    # The compiler and rpc wheels add subpackages to the tvm package that the runtime installs.
    homes = {Path(m.__file__).parent.parent for m in (tvm.runtime, tvm.tir, rpc)}
    assert homes == {Path(tvm.__file__).parent}
    assert tvm_ffi.get_global_func("testing.add_one")(1) == 2
    backends = {b.name: b.state for b in tvm.backend.list_backends()}
    assert backends.get("example") == "loaded", backends
