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
