# The import-time version guard: the function itself, and each upper layer wired to it.
from __future__ import annotations

import os
import sys
from importlib.metadata import PackageNotFoundError, version

import pytest
from conftest import run
from tvm._version_guard import require


def fake_distribution(folder, name: str, version: str):
    """Write dist-info metadata that makes `name` look installed at `version`."""
    info = folder / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    return folder


def test_in_range_returns_the_installed_version(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(fake_distribution(tmp_path, "guard-lower", "0.3.2")))
    assert require("guard-lower", ">=0.3,<0.4", "guard-upper") == "0.3.2"


def test_prerelease_inside_the_range_is_accepted(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(fake_distribution(tmp_path, "guard-lower", "0.3.1rc1")))
    assert require("guard-lower", ">=0.3,<0.4", "guard-upper") == "0.3.1rc1"


@pytest.mark.parametrize("version", ["0.2.9", "0.4.0"])
def test_out_of_range_names_both_versions_and_the_fix(tmp_path, monkeypatch, version):
    monkeypatch.syspath_prepend(str(fake_distribution(tmp_path / "lo", "guard-lower", version)))
    monkeypatch.syspath_prepend(str(fake_distribution(tmp_path / "up", "guard-upper", "1.2.0")))
    with pytest.raises(ImportError) as err:
        require("guard-lower", ">=0.3,<0.4", "guard-upper")
    message = str(err.value)
    assert f"guard-lower {version} is installed" in message
    assert "guard-upper 1.2.0 needs guard-lower" in message
    assert 'pip install --find-links dist "guard-lower<0.4,>=0.3"' in message


def test_missing_lower_distribution_says_so():
    with pytest.raises(ImportError, match="guard-absent is not installed"):
        require("guard-absent", ">=1", "guard-upper")


@pytest.mark.parametrize(
    ("args", "error", "pattern"),
    [
        ((None, ">=1", "x"), TypeError, "argument 'dist_name' must be a non-empty str"),
        (("x", "", "y"), TypeError, "argument 'spec' must be a non-empty str"),
        (("x", "=>1", "y"), ValueError, "argument 'spec' must be a PEP 440 range"),
        (("x", ">=1", 3), TypeError, "argument 'needed_by' must be a non-empty str"),
    ],
)
def test_bad_arguments_are_rejected(args, error, pattern):
    with pytest.raises(error, match=pattern):
        require(*args)


# Each upper layer checks its lower one when imported: (import, lower, upper).
WIRED = [
    ("import tvm", "tvm-ffi", "tvm-runtime"),
    ("import tvm.tir", "tvm-runtime", "tvm-compiler"),
    ("import tvm.rpc", "tvm-runtime", "tvm-rpc"),
]


@pytest.mark.parametrize(("statement", "lower", "upper"), WIRED)
def test_import_fails_when_the_lower_layer_is_out_of_range(tmp_path, statement, lower, upper):
    try:
        version(upper)
    except PackageNotFoundError:
        pytest.skip(f"{upper} is not installed in this environment")
    fake = fake_distribution(tmp_path, lower, "0.0.1")
    env = {**os.environ, "PYTHONPATH": str(fake), "TVM_DEVICE_BACKEND_AUTOLOAD": "0"}
    result = run([sys.executable, "-c", statement], env=env)
    assert result.returncode != 0
    assert "ImportError" in result.stderr
    assert f"needs {lower}" in result.stderr
    assert f"{lower} 0.0.1 is installed" in result.stderr
    assert "pip install" in result.stderr


def test_without_a_range_the_one_the_upper_metadata_declares_is_checked(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(fake_distribution(tmp_path / "lo", "guard-lower", "0.4.0")))
    upper = fake_distribution(tmp_path / "up", "guard-upper", "1.2.0")
    metadata = upper / "guard_upper-1.2.0.dist-info" / "METADATA"
    metadata.write_text(
        metadata.read_text() + "Requires-Dist: other>=1\n"
        "Requires-Dist: guard-lower<0.4,>=0.3\n"
        "Requires-Dist: guard-lower>=9; extra == 'test'\n\nLong description\n"
        "Requires-Dist: guard-lower>=5 (in the description, not a header)\n"
    )
    monkeypatch.syspath_prepend(str(upper))
    with pytest.raises(
        ImportError,
        match="guard-upper 1.2.0 needs guard-lower<0.4,>=0.3, but guard-lower 0.4.0 is installed",
    ):
        require("guard-lower", needed_by="guard-upper")


def test_without_a_range_and_an_upper_package_that_declares_none_nothing_is_checked(
    tmp_path, monkeypatch
):
    monkeypatch.syspath_prepend(str(fake_distribution(tmp_path / "lo", "guard-lower", "0.4.0")))
    assert require("guard-lower", needed_by="guard-not-installed") == "0.4.0"
    monkeypatch.syspath_prepend(str(fake_distribution(tmp_path / "up", "guard-upper", "1.0")))
    assert require("guard-lower", needed_by="guard-upper") == "0.4.0"


def test_each_range_of_the_wired_guards_is_the_installed_metadata_one():
    from monorepo import discover
    from tvm._version_guard import declared_range

    packages = discover()
    for upper, lower in (
        ("tvm-runtime", "tvm-ffi"),
        ("tvm-compiler", "tvm-runtime"),
        ("tvm-rpc", "tvm-runtime"),
    ):
        (declared,) = [str(r.specifier) for r in packages[upper].requires if r.name == lower]
        assert declared_range(lower, upper) == declared
