"""tvm.base: the loaded-library registry and load_backend_libs."""

from __future__ import annotations

import os

import pytest
from conftest import build_ffi_library
from tvm import base

SOURCE = """
#include <tvm_ffi/c_api.h>
TVM_FFI_LIBRARY_ABI_TAG();
TVM_FFI_DLL_EXPORT int base_test_marker(void) { return 42; }
"""


def test_libtvm_ffi_is_registered():
    from tvm_ffi import libinfo

    name = os.path.basename(libinfo.find_libtvm_ffi())
    assert name in base._LOADED_LIBS
    assert base.loaded_libs()[name].endswith(name)


def test_load_and_skip_already_loaded(tmp_path):
    lib = build_ffi_library(tmp_path, SOURCE, "libbase_marker.so")
    [handle] = base.load_backend_libs([lib])
    assert handle.base_test_marker() == 42
    assert base._LOADED_LIBS["libbase_marker.so"] is handle
    copy = tmp_path / "elsewhere"
    copy.mkdir()
    (copy / "libbase_marker.so").write_bytes(b"not even a library")
    # Same basename: the loaded handle is returned and the other file is never opened.
    assert base.load_backend_libs(str(copy / "libbase_marker.so")) == [handle]


def test_missing_library(tmp_path):
    with pytest.raises(
        FileNotFoundError, match="load_backend_libs: no shared library at .*libnothere.so"
    ):
        base.load_backend_libs([tmp_path / "libnothere.so"])


def test_corrupt_library(tmp_path):
    bad = tmp_path / "libbroken_for_base.so"
    bad.write_bytes(b"\x7fELF garbage")
    with pytest.raises(OSError, match="load_backend_libs: cannot load .*libbroken_for_base.so"):
        base.load_backend_libs([bad])
    assert "libbroken_for_base.so" not in base._LOADED_LIBS


@pytest.mark.parametrize("paths", [3, [3], [None]])
def test_bad_paths_argument(paths):
    with pytest.raises(TypeError, match="load_backend_libs: .*'paths'"):
        base.load_backend_libs(paths)


def test_no_legacy_helpers():
    for name in ("py_str", "__version__", "TVMError"):
        assert not hasattr(base, name)
