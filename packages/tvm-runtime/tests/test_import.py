"""`import tvm`: lean (no numpy/torch), namespace extension, no TVMError."""

from __future__ import annotations

import pytest
from conftest import check_ok, run_python


def test_import_loads_neither_numpy_nor_torch():
    out = check_ok(
        run_python(
            "import sys, tvm\n"
            "tvm.cpu(0)\n"
            "print(sorted(m for m in ('numpy', 'torch') if m in sys.modules))\n"
        )
    )
    assert out.strip() == "[]"


def test_empty_tensor_needs_no_numpy():
    out = check_ok(
        run_python(
            "import sys, tvm\n"
            "t = tvm.runtime.empty((2, 3), 'float32')\n"
            "print(t.shape, 'numpy' in sys.modules)\n"
        )
    )
    assert out.split() == ["(2,", "3)", "False"]


def test_namespace_is_extensible(tmp_path):
    extra = tmp_path / "tvm" / "extra_subpackage"
    extra.mkdir(parents=True)
    (extra / "__init__.py").write_text("VALUE = 7\n")
    out = check_ok(
        run_python(
            "import tvm.extra_subpackage as m, tvm\nprint(m.VALUE, tvm.cpu(0).device_id)\n",
            tmp_path,
        )
    )
    assert out.split() == ["7", "0"]


def test_public_names():
    import tvm

    assert not hasattr(tvm, "TVMError")
    for name in ("device", "cpu", "cuda", "runtime", "error", "base", "backend"):
        assert hasattr(tvm, name)


def test_data_type_is_tvm_ffi_dtype():
    # upstream 0.27: tvm.DataType and tvm.runtime.DataType are tvm_ffi.dtype
    import tvm
    import tvm_ffi

    assert tvm.DataType is tvm.runtime.DataType is tvm_ffi.dtype
    f32 = tvm.DataType("float32")
    assert (f32.bits, f32.lanes, f32 == "float32") == (32, 1, True)
    with pytest.raises((ValueError, TypeError)):
        tvm.DataType("not_a_dtype")
