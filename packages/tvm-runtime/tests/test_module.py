"""Library modules: load_module, export_library, time_evaluator."""

from __future__ import annotations

import subprocess
import sys

import pytest
import tvm
from conftest import build_ffi_library
from tvm import runtime

ADD_ONE = """
#include <tvm_ffi/c_api.h>
TVM_FFI_LIBRARY_ABI_TAG();

TVM_FFI_DLL_EXPORT int __tvm_ffi_add_one(void* self, const TVMFFIAny* args, int32_t n,
                                         TVMFFIAny* out) {
  if (n != 1 || args[0].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "add_one: expected one int");
    return -1;
  }
  out->type_index = kTVMFFIInt;
  out->zero_padding = 0;
  out->v_int64 = args[0].v_int64 + 1;
  return 0;
}
"""


@pytest.fixture
def lib_path(tmp_path):
    return build_ffi_library(tmp_path, ADD_ONE, "libaddone_mod.so")


def test_load_and_call(lib_path):
    mod = runtime.load_module(lib_path)
    assert isinstance(mod, runtime.Module)
    assert mod["add_one"](41) == 42
    with pytest.raises(TypeError, match="add_one: expected one int"):
        mod["add_one"]("x")


def test_export_library_copies_and_reloads(lib_path, tmp_path):
    mod = runtime.load_module(lib_path)
    out = tmp_path / "exported" / "libaddone_copy.so"
    assert mod.export_library(out) == str(out)
    assert out.read_bytes() == lib_path.read_bytes()
    assert runtime.load_module(out)["add_one"](1) == 2
    with pytest.raises(TypeError, match="export_library: argument 'file_name' must be a path"):
        mod.export_library(5)


def test_export_library_keeps_the_library_mode_and_refuses_a_directory(lib_path, tmp_path):
    import os
    import stat

    lib_path.chmod(0o755)
    mod = runtime.load_module(lib_path)
    out = tmp_path / "libaddone_mode.so"
    mod.export_library(out)
    # The partial file mkstemp made kept its 0600: no other user could load the export.
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o755
    folder = tmp_path / "a_folder"
    folder.mkdir()
    with pytest.raises(IsADirectoryError, match="argument 'file_name' .* is a directory"):
        mod.export_library(folder)
    assert not list(tmp_path.glob(".export-*"))  # no partial file left beside the folder


ADD_TWO = ADD_ONE.replace("args[0].v_int64 + 1", "args[0].v_int64 + 2")


def test_export_over_a_loaded_library_loads_the_new_one(lib_path, tmp_path):
    # Rewriting a loaded library in place would crash its next call, and loading the same
    # path again would silently return the old code.
    target = tmp_path / "libshared_name.so"
    first = runtime.load_module(lib_path)
    first.export_library(target)
    old = runtime.load_module(target)
    second = runtime.load_module(build_ffi_library(tmp_path, ADD_TWO, "libaddtwo_mod.so"))
    second.export_library(target)
    new = runtime.load_module(target)
    assert new["add_one"](1) == 3
    assert old["add_one"](1) == 2
    new.export_library(tmp_path / "again.so")
    assert runtime.load_module(tmp_path / "again.so")["add_one"](1) == 3
    assert not [p for p in target.parent.iterdir() if p.name.startswith(".export-")]


def test_load_module_bad_input(tmp_path):
    with pytest.raises(FileNotFoundError, match="load_module: no file at"):
        runtime.load_module(tmp_path / "none.so")
    with pytest.raises(TypeError, match="load_module: argument 'path' must be a path"):
        runtime.load_module(None)
    bad = tmp_path / "libbad_module.so"
    bad.write_bytes(b"\x7fELF nope")
    with pytest.raises(Exception, match="libbad_module.so"):
        runtime.load_module(bad)


def test_a_truncated_library_is_a_value_error_not_a_crash(lib_path, tmp_path):
    # dlopen maps a file cut short past its end, and the process died of SIGBUS. Each load
    # runs in a child so that a crash fails the test instead of ending pytest.
    data = lib_path.read_bytes()
    script = (
        "import sys, tvm\n"
        "try:\n    tvm.runtime.load_module(sys.argv[1])\n"
        "except ValueError as err:\n    print('ValueError', err)\n"
    )
    for fifth in range(1, 5):
        cut = tmp_path / f"libcut{fifth}.so"
        cut.write_bytes(data[: len(data) * fifth // 5])
        out = subprocess.run(
            [sys.executable, "-c", script, str(cut)], capture_output=True, text=True, timeout=60
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.startswith(
            f"ValueError tvm.runtime.load_module: {str(cut)!r} is truncated: its "
        ), out.stdout


def test_time_evaluator(lib_path):
    mod = runtime.load_module(lib_path)
    evaluator = mod.time_evaluator("add_one", tvm.cpu(0), number=5, repeat=3)
    result = evaluator(1)
    assert len(result.results) == 3
    assert all(r > 0 for r in result.results)
    assert result.min <= result.median <= result.max
    assert result.min <= result.mean <= result.max
    assert result.std >= 0


def test_time_evaluator_min_repeat_ms_grows_number():
    calls = []
    evaluator = runtime.time_evaluator.make_time_evaluator(
        lambda: calls.append(1), tvm.cpu(0), number=1, repeat=2, min_repeat_ms=5
    )
    result = evaluator()
    assert len(result.results) == 2
    assert len(calls) > 3  # one warm-up plus at least two repeats, grown to fill 5 ms


def test_profile_result_statistics():
    result = runtime.ProfileResult([1.0, 3.0, 2.0, 6.0])
    assert (result.mean, result.median, result.min, result.max) == (3.0, 2.5, 1.0, 6.0)
    assert result.std == pytest.approx((((1 - 3) ** 2 + 0 + 1 + 9) / 4) ** 0.5)


@pytest.mark.parametrize(
    "kwargs, error, text",
    [
        ({"number": 0}, ValueError, "'number' must be an int >= 1"),
        ({"repeat": 1.5}, TypeError, "'repeat' must be an int >= 1, got float 1.5"),
        ({"number": "3"}, TypeError, "'number' must be an int >= 1, got str '3'"),
        ({"min_repeat_ms": -1}, ValueError, "'min_repeat_ms' must be an int >= 0"),
    ],
)
def test_time_evaluator_bad_arguments(lib_path, kwargs, error, text):
    mod = runtime.load_module(lib_path)
    with pytest.raises(error, match=text):
        mod.time_evaluator("add_one", tvm.cpu(0), **kwargs)
    with pytest.raises(TypeError, match="'dev' must be a Device"):
        mod.time_evaluator("add_one", "cpu")
