"""Builds tiny shared libraries with the system compiler for module tests; runs child Pythons."""

import shutil
import subprocess
import sys

import pytest


def compiler(kind):
    """Path of the system C (kind="c") or C++ compiler; skips the test when there is none."""
    names = ["cc", "gcc", "clang"] if kind == "c" else ["c++", "g++", "clang++"]
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    pytest.skip(f"no system {'C' if kind == 'c' else 'C++'} compiler ({', '.join(names)}) on PATH")


def config_flags(*names):
    """Flags from tvm-ffi-config, as the CLI prints them."""
    args = [f"--{name}" for name in names]
    cmd = [sys.executable, "-m", "tvm_ffi.config", *args]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=60)
    return out.stdout.split()


def build_library(tmp_path, name, source, kind, link_ffi=False):
    """Compiles `source` into lib<name>.so under tmp_path and returns its path."""
    suffix = "c" if kind == "c" else "cc"
    src = tmp_path / f"{name}.{suffix}"
    src.write_text(source)
    out = tmp_path / f"lib{name}.so"
    flags = config_flags("cflags") if kind == "c" else config_flags("cxxflags")
    cmd = [compiler(kind), "-shared", "-fPIC", "-O0", *flags, str(src), "-o", str(out)]
    if link_ffi:
        cmd += config_flags("ldflags", "libs")
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return out


def run_python(code, *args, timeout=60):
    """Runs `code` in a child Python (for crashes and hangs); returns the CompletedProcess."""
    return subprocess.run(
        [sys.executable, "-c", code, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
