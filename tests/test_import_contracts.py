# The lint session's import contracts catch a layer importing upward (on a planted copy).
from __future__ import annotations

import os
import shutil
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
from conftest import ROOT, run
from lint_imports import load_config

LINT = ROOT / "ci" / "lint_imports.py"


@pytest.fixture
def installed_copy(tmp_path) -> Path:
    """A copy of the installed root packages the contracts cover, safe to plant violations in."""
    for name in load_config(ROOT / "pyproject.toml")["root_packages"]:
        spec = find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            pytest.skip(f"package {name} is not installed in this environment")
        shutil.copytree(
            spec.submodule_search_locations[0],
            tmp_path / name,
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    return tmp_path


def lint(copy: Path):
    env = {**os.environ, "PYTHONPATH": str(copy)}
    return run([sys.executable, LINT], env=env, cwd=copy)


def test_installed_tree_keeps_every_contract(installed_copy):
    result = lint(installed_copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_planted_upward_import_in_runtime_breaks_the_lint(installed_copy):
    runtime = installed_copy / "tvm" / "runtime"
    assert runtime.is_dir(), "tvm.runtime is expected to be a package"
    assert (installed_copy / "tvm" / "tir").is_dir(), "tvm.tir (tvm-compiler) must be installed"
    (runtime / "planted_violation.py").write_text("import tvm.tir\n")
    result = lint(installed_copy)
    assert result.returncode != 0
    assert "tvm.runtime.planted_violation -> tvm.tir" in result.stdout


def test_planted_import_of_tvm_in_tvm_ffi_breaks_the_lint(installed_copy):
    (installed_copy / "tvm_ffi" / "planted_violation.py").write_text("import tvm\n")
    result = lint(installed_copy)
    assert result.returncode != 0
    assert "tvm_ffi.planted_violation -> tvm" in result.stdout


def test_contracts_forbid_every_compiler_subpackage_below_it():
    # A compiler subpackage left out of a contract could be imported by the runtime unseen.
    shipped = ROOT / "packages" / "tvm-compiler" / "python" / "tvm"
    names = {f"tvm.{p.name.removesuffix('.py')}" for p in shipped.iterdir()}
    names = {n for n in names if not n.startswith("tvm._") and n != "tvm.__pycache__"}
    contracts = load_config(ROOT / "pyproject.toml")["contracts"]
    for contract in contracts:
        if contract["id"] in (
            "runtime-below-compiler-and-rpc",
            "rpc-beside-compiler",
            "backend-on-runtime",
        ):
            assert names <= set(contract["forbidden_modules"]), contract["id"]
