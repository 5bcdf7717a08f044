# The built wheels: one per package, and each pulls in only the layers below it.
from __future__ import annotations

import zipfile
from email.parser import Parser

from conftest import run
from monorepo import discover
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename

PACKAGES = discover()


def wheel_metadata(dist_dir):
    """name -> (version, run-time Requires-Dist) for every wheel in dist_dir."""
    found = {}
    for wheel in sorted(dist_dir.glob("*.whl")):
        name, version, _, _ = parse_wheel_filename(wheel.name)
        with zipfile.ZipFile(wheel) as zf:
            meta_path = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
            meta = Parser().parsestr(zf.read(meta_path).decode())
        reqs = [Requirement(r) for r in meta.get_all("Requires-Dist") or []]
        # Run-time requirements only: an `extra == "test"` marker is false without extras.
        plain = [r for r in reqs if r.marker is None or r.marker.evaluate({"extra": ""})]
        found[canonicalize_name(name)] = (str(version), plain)
    return found


def internal_closure(name, metadata) -> set[str]:
    seen, stack = {name}, [name]
    while stack:
        for req in metadata[stack.pop()][1]:
            dep = canonicalize_name(req.name)
            if dep in metadata and dep not in seen:
                seen.add(dep)
                stack.append(dep)
    return seen


def test_one_wheel_per_package_at_its_version(dist_dir):
    metadata = wheel_metadata(dist_dir)
    assert {n: m[0] for n, m in metadata.items()} == {n: p.version for n, p in PACKAGES.items()}


def test_tvm_ffi_wheel_declares_no_runtime_dependency(dist_dir):
    assert wheel_metadata(dist_dir)["tvm-ffi"][1] == []


def test_tvm_ffi_alone_in_an_empty_venv(dist_dir, make_venv):
    venv = make_venv()
    result = venv.install_local(dist_dir, "tvm-ffi")
    assert result.returncode == 0, result.stderr
    assert {canonicalize_name(d) for d in venv.distributions()} == {"tvm-ffi"}
    imported = run([venv.python, "-c", "import tvm_ffi; print(tvm_ffi.__name__)"])
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.strip() == "tvm_ffi"


def test_rpc_metadata_closure_leaves_out_the_compiler(dist_dir):
    closure = internal_closure("tvm-rpc", wheel_metadata(dist_dir))
    assert closure == {"tvm-rpc", "tvm-runtime", "tvm-ffi"}


def test_installing_rpc_does_not_install_the_compiler(dist_dir, make_venv):
    metadata = wheel_metadata(dist_dir)
    ours = internal_closure("tvm-rpc", metadata)
    third_party = {
        str(r) for n in ours for r in metadata[n][1] if canonicalize_name(r.name) not in metadata
    }
    venv = make_venv()
    if third_party:  # from the package index, as a user's pip would
        assert venv.install(*sorted(third_party)).returncode == 0
    result = venv.install_local(dist_dir, "tvm-rpc")
    assert result.returncode == 0, result.stderr
    installed = {canonicalize_name(d) for d in venv.distributions()}
    assert "tvm-compiler" not in installed
    assert {"tvm-rpc", "tvm-runtime", "tvm-ffi"} <= installed


def test_documented_install_command_works(dist_dir, tmp_path):
    # docs/layers.md "Installing from this repository", run as written in a fresh venv with pip.
    import re
    import sys
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "layers.md").read_text()
    section = page.split("## Installing from this repository", 1)[1]
    (command,) = re.findall(r"^python -m pip install --find-links dist .*$", section, flags=re.M)
    command = command.split("#", 1)[0].split()
    venv = tmp_path / "venv"
    assert run([sys.executable, "-m", "venv", venv]).returncode == 0
    python = str(venv / "bin" / "python")
    args = [python if word == "python" else word for word in command]
    args[args.index("dist")] = str(dist_dir)  # the page runs from the repository root
    installed = run([*args, "--disable-pip-version-check", "--quiet"])
    assert installed.returncode == 0, installed.stderr
    code = "import tvm; from tvm import te; print(tvm.tir.Var('x').dtype, tvm.compile.__name__)"
    result = run([python, "-c", code])
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["int32", "compile"]
    # tvm.ir.save_json / load_json need nothing beyond the wheels (no NumPy).
    code = "import tvm; x = tvm.tir.Var('x'); print(tvm.ir.load_json(tvm.ir.save_json(x + 1)))"
    result = run([python, "-c", code])
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "x + 1"
