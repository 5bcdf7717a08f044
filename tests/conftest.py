# Shared fixtures for the cross-package tests: the repository, the wheel folder and throwaway venvs.
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "ci"))


def run(cmd, **kwargs) -> subprocess.CompletedProcess:
    """Run a command with a bounded time, capturing text output."""
    kwargs.setdefault("timeout", 300)
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kwargs)


@pytest.fixture(scope="session")
def dist_dir() -> Path:
    """The folder of built wheels: $TVM_STACK_DIST (set by nox) or <repo>/dist."""
    dist = Path(os.environ.get("TVM_STACK_DIST", ROOT / "dist"))
    if not any(dist.glob("*.whl")):
        pytest.skip(f"no wheels in {dist}: run `nox -s wheels` first")
    return dist


@pytest.fixture(scope="session")
def uv_bin() -> str:
    from uv import find_uv_bin

    return find_uv_bin()


class Venv:
    """A throwaway venv made with uv, for install experiments."""

    def __init__(self, uv: str, path: Path):
        self.uv = uv
        self.python = path / "bin" / "python"
        result = run([uv, "venv", "--quiet", "--python", sys.executable, path])
        assert result.returncode == 0, result.stderr

    def install(self, *args) -> subprocess.CompletedProcess:
        return run([self.uv, "pip", "install", "--python", self.python, *args])

    def install_local(self, dist_dir: Path, name: str) -> subprocess.CompletedProcess:
        """Install our package `name` from the wheel folder only. uv caches a find-links
        wheel by file name, and a rebuilt wheel keeps its name: refresh ours."""
        ours = {wheel.name.split("-")[0].replace("_", "-") for wheel in dist_dir.glob("*.whl")}
        refresh = [f"--refresh-package={n}" for n in sorted(ours)]
        return self.install("--no-index", "--find-links", dist_dir, *refresh, name)

    def distributions(self) -> set[str]:
        listing = run([self.uv, "pip", "list", "--python", self.python, "--format", "json"])
        assert listing.returncode == 0, listing.stderr
        return {d["name"] for d in json.loads(listing.stdout)}


@pytest.fixture
def make_venv(uv_bin, tmp_path):
    count = iter(range(100))
    return lambda: Venv(uv_bin, tmp_path / f"venv{next(count)}")
