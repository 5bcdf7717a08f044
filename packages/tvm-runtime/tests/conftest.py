"""Test helpers: throwaway distributions with entry points, and Python subprocesses using them."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SUBPROCESS_TIMEOUT_S = 60


def make_dist(
    root: Path,
    name: str,
    entry_points: dict[str, str],
    modules: dict[str, str] | None = None,
    group: str = "tvm.backends",
    version: str = "1.0",
) -> Path:
    """Write `name-version.dist-info` (METADATA + entry_points.txt) and module files under root."""
    root.mkdir(parents=True, exist_ok=True)
    info = root / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    lines = [f"[{group}]"] + [f"{key} = {value}" for key, value in entry_points.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    for module, source in (modules or {}).items():
        (root / f"{module}.py").write_text(textwrap.dedent(source))
    return info


def run_python(
    code: str, *paths: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """Run `code` in a fresh interpreter with `paths` in front of PYTHONPATH."""
    full_env = dict(os.environ)
    full_env.pop("TVM_DEVICE_BACKEND_AUTOLOAD", None)
    full_env.pop("TVM_BACKTRACE", None)
    full_env.update(env or {})
    extra = [str(p) for p in paths]
    if full_env.get("PYTHONPATH"):
        extra.append(full_env["PYTHONPATH"])
    full_env["PYTHONPATH"] = os.pathsep.join(extra)
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=full_env,
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT_S,
    )


def check_ok(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 0, (
        f"subprocess failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    )
    return proc.stdout


@pytest.fixture
def site(tmp_path) -> Path:
    """A folder for throwaway distributions, put on PYTHONPATH by run_python."""
    path = tmp_path / "site"
    path.mkdir()
    return path


def c_compiler() -> str | None:
    import shutil

    return os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")


def build_ffi_library(tmp_path: Path, source: str, name: str = "libtestmod.so") -> Path:
    """Compile C source against the tvm-ffi headers into a shared library (skips without cc)."""
    compiler = c_compiler()
    if compiler is None:
        pytest.skip("no C compiler (cc/gcc) on this machine to build a test FFI library")
    from tvm_ffi import libinfo

    src = tmp_path / (name + ".c")
    src.write_text(textwrap.dedent(source))
    out = tmp_path / name
    proc = subprocess.run(
        [
            compiler,
            "-shared",
            "-fPIC",
            "-O2",
            "-I",
            libinfo.find_include_path(),
            str(src),
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT_S,
    )
    assert proc.returncode == 0, proc.stderr
    return out
