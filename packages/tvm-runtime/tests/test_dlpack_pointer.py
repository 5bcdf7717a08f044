"""tensor_from_pointer / data_pointer: wrapping raw memory as a Tensor and reading its address."""

from __future__ import annotations

import gc

import numpy as np
import pytest
import tvm
from tvm import runtime


def test_wrap_host_memory_without_copy():
    host = np.arange(6, dtype="float32").reshape(2, 3)
    freed = []
    t = runtime.tensor_from_pointer(
        host.ctypes.data,
        (2, 3),
        "float32",
        tvm.cpu(0),
        keepalive=host,
        on_free=lambda: freed.append(1),
    )
    assert isinstance(t, runtime.Tensor)
    assert t.shape == (2, 3) and str(t.dtype) == "float32"
    assert runtime.data_pointer(t) == host.ctypes.data
    host[0, 0] = 42
    assert t.numpy()[0, 0] == 42
    del t
    gc.collect()
    assert freed == [1]


def test_data_pointer_of_an_allocated_tensor():
    t = runtime.tensor(np.arange(8, dtype="int64"))
    base = runtime.data_pointer(t)
    assert base % 64 == 0  # CPU tensors are 64-byte aligned


def test_bad_address():
    with pytest.raises(
        ValueError, match="tensor_from_pointer: argument 'address' must be an int >= 0"
    ):
        runtime.tensor_from_pointer(-1, (1,), "float32", tvm.cpu(0))


def test_a_tensor_alive_at_exit_does_not_crash_the_interpreter():
    # Regression: a tensor over a pointer that outlived the module's globals read its freed
    # ctypes struct during interpreter teardown (a segfault at exit; how soon depended on
    # unrelated objects, here an extra meta-path finder, as a VM output kept to the end had).
    import subprocess
    import sys

    code = (
        "import sys, importlib.abc\n"
        "class F(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        return None\n"
        "sys.meta_path.insert(0, F())\n"
        "import ctypes, tvm\n"
        "from tvm.runtime.dlpack_pointer import tensor_from_pointer\n"
        "buf = ctypes.create_string_buffer(64)\n"
        "t = tensor_from_pointer(ctypes.addressof(buf), (4,), 'float32', tvm.cpu(),"
        " keepalive=buf)\n"
        "print('alive', tuple(t.shape))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    assert "alive (4,)" in proc.stdout
