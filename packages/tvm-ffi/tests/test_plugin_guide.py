"""Builds and calls every C, C++ and CMake example of docs/plugin-guide.md, so the page stays true.

A block the page marks with `<!-- fragment: ... -->` just before it is part of another
example and is not built on its own.
"""

import pathlib
import re
import shutil
import subprocess
import sys
import textwrap

import pytest
from native_build import build_library, config_flags

DOC = pathlib.Path(__file__).resolve().parents[3] / "docs" / "plugin-guide.md"
_BLOCK = re.compile(r"(<!-- fragment[^>]*-->\n\s*)?```(\w+)\n(.*?)```", re.S)


def examples(language):
    """The whole (not fragment) code blocks of one language, dedented."""
    if not DOC.exists():
        pytest.skip(f"{DOC} is not in this checkout (tests run outside the repository)")
    return [
        textwrap.dedent(code)
        for fragment, lang, code in _BLOCK.findall(DOC.read_text())
        if lang == language and not fragment
    ]


def _run(code, cwd):
    # In a child process: a loaded library stays in the process (see test_module.py).
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_cpp_typed_functions_example(tmp_path):
    (source,) = examples("cpp")
    lib = build_library(tmp_path, "add_one", source, "c++", link_ffi=True)
    out = _run(
        f"""
import numpy as np, tvm_ffi
mod = tvm_ffi.load_module({str(lib)!r})
x = np.arange(5, dtype="float32"); y = np.empty_like(x)
mod.add_one(x, y)
assert (y == x + 1).all()
print(mod.fibonacci(10), mod.fibonacci(92))
for bad, message in ((np.arange(5), "dtype float32"), (np.zeros((2, 2), "float32"), "1-D")):
    try:
        mod.add_one(bad, y)
    except ValueError as err:
        assert message in str(err), err
    else:
        raise AssertionError("no ValueError")
try:
    mod.add_one(x, np.empty(3, "float32"))
except ValueError as err:
    assert "argument `y` must have 5 elements, got 3" in str(err), err
try:
    mod.fibonacci(93)
except ValueError as err:
    print("ValueError", err)
""",
        tmp_path,
    )
    lines = out.splitlines()
    assert lines[0] == "55 7540113804746346429"
    assert lines[1] == "ValueError fibonacci: argument `n` must be in [0, 92], got 93"


def test_documented_build_line_makes_a_loadable_library(tmp_path):
    # The page's own command: c++ -shared -fPIC add_one.cc $(--cxxflags) $(--ldflags --libs).
    (source,) = examples("cpp")
    (tmp_path / "add_one.cc").write_text(source)
    cxx = shutil.which("c++") or pytest.skip("no c++ compiler on PATH")
    # --as-needed first, as distributions that default to it (Ubuntu's gcc) have it.
    cmd = [
        cxx,
        "-Wl,--as-needed",
        "-shared",
        "-fPIC",
        "add_one.cc",
        *config_flags("cxxflags"),
        *config_flags("ldflags", "libs"),
        "-o",
        "libadd_one.so",
    ]
    built = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    assert (
        _run(
            "import tvm_ffi; print(tvm_ffi.load_module('./libadd_one.so').fibonacci(7))", tmp_path
        ).strip()
        == "13"
    )


def test_c_abi_example(tmp_path):
    (source,) = examples("c")
    lib = build_library(tmp_path, "gcd", source, "c", link_ffi=True)
    out = _run(
        f"""
import tvm_ffi
gcd = tvm_ffi.load_module({str(lib)!r}).gcd
print(gcd(12, -18), gcd(0, 0), gcd(-7, 0))
for args, kind in (((1.5, 2), TypeError), ((1,), TypeError), ((-2**63, 4), OverflowError)):
    try:
        gcd(*args)
    except kind:
        pass
    else:
        raise AssertionError(args)
""",
        tmp_path,
    )
    assert out.split() == ["6", "0", "7"]


def test_cmake_project_of_the_wheel_section(tmp_path):
    cmake = shutil.which("cmake") or pytest.skip("cmake is not on PATH")
    (cmakelists,) = examples("cmake")
    (cpp,) = examples("cpp")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "add_one.cc").write_text(cpp)
    (tmp_path / "CMakeLists.txt").write_text(cmakelists)
    cmake_dir = subprocess.run(
        [sys.executable, "-m", "tvm_ffi.config", "--cmakedir"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    build = tmp_path / "build"
    for cmd in (
        [
            cmake,
            "-S",
            tmp_path,
            "-B",
            build,
            f"-Dtvm_ffi_DIR={cmake_dir}",
            "-DCMAKE_BUILD_TYPE=Release",
        ],
        [cmake, "--build", build],
        [cmake, "--install", build, "--prefix", tmp_path / "site"],
    ):
        done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
    lib = tmp_path / "site" / "my_plugin" / "lib" / "libmy_plugin.so"
    assert lib.exists()
    assert (
        _run(
            f"import tvm_ffi; print(tvm_ffi.load_module({str(lib)!r}).fibonacci(20))", tmp_path
        ).strip()
        == "6765"
    )
