"""Native frames in Python tracebacks carry source file and line when the library has line info."""

import ctypes.util
import subprocess
import traceback

import pytest
import tvm_ffi
from native_build import compiler, config_flags

SOURCE = """
#include <tvm_ffi/function.h>
namespace lines_demo {
void Inner(int64_t x) {
  if (x < 0) TVM_FFI_THROW(ValueError) << "negative input " << x;
}
void Middle(int64_t x) {
  Inner(x);  // MIDDLE-CALL
}
int64_t Outer(int64_t x) {
  Middle(x);
  return x;
}
}  // namespace lines_demo
TVM_FFI_DLL_EXPORT_TYPED_FUNC(outer, lines_demo::Outer);
"""


def has_libdw():
    try:
        ctypes.CDLL("libdw.so.1")
        return True
    except OSError:
        return ctypes.util.find_library("dw") is not None


@pytest.fixture(scope="module")
def nested_library(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lines")
    src = folder / "lines_demo.cc"
    src.write_text(SOURCE)
    out = folder / "liblines_demo.so"
    cmd = [
        compiler("c++"),
        "-shared",
        "-fPIC",
        "-O0",
        "-g",
        *config_flags("cxxflags"),
        str(src),
        "-o",
        str(out),
    ]
    cmd += config_flags("ldflags", "libs")
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return out, src


def native_frames(err):
    return [
        f
        for f in traceback.extract_tb(err.__traceback__)
        if f.filename.endswith(("lines_demo.cc", ".so"))
    ]


def test_every_native_frame_names_its_function(nested_library):
    path, _ = nested_library
    with pytest.raises(ValueError, match="negative input -3") as info:
        tvm_ffi.load_module(path)["outer"](-3)
    names = [f.name for f in native_frames(info.value)]
    assert names[-1] == "Inner"
    assert any("Middle" in n for n in names) and any("Outer" in n for n in names)
    # Most recent call last, as Python shows frames; dispatch frames are dropped.
    assert [n for n in names if "lines_demo" in n or n == "Inner"] == names
    assert names.index(next(n for n in names if "Outer" in n)) < names.index(
        next(n for n in names if "Middle" in n)
    )


@pytest.mark.skipif(
    not has_libdw(),
    reason="libdw.so.1 (elfutils) is not on this machine: frames show the library path",
)
def test_frames_have_source_lines_with_libdw(nested_library):
    path, src = nested_library
    with pytest.raises(ValueError) as info:
        tvm_ffi.load_module(path)["outer"](-1)
    middle = next(f for f in native_frames(info.value) if "Middle" in f.name)
    assert middle.filename == str(src)
    expected = SOURCE.splitlines().index("  Inner(x);  // MIDDLE-CALL") + 1
    assert middle.lineno == expected


def test_lines_can_be_turned_off(nested_library):
    path, _ = nested_library
    code = (
        "import tvm_ffi, traceback\n"
        f"m = tvm_ffi.load_module({str(path)!r})\n"
        "try:\n    m['outer'](-1)\n"
        "except ValueError as e:\n"
        "    frames = traceback.extract_tb(e.__traceback__)\n"
        "    print([f.lineno for f in frames if 'Middle' in f.name])\n"
    )
    import os
    import sys

    env = dict(os.environ, TVM_FFI_BACKTRACE_LINES="0")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[0]"
