"""Entry-point discovery agrees with importlib.metadata, and works after a real pip install."""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest
from conftest import SUBPROCESS_TIMEOUT_S, make_dist
from tvm import _entry_points


def as_tuples(eps):
    return sorted((ep.name, ep.value) for ep in eps)


def test_matches_importlib_metadata(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    make_dist(first, "alpha", {"a": "alpha_mod:load", "b": "alpha_mod:obj.method [extra]"})
    make_dist(first, "other-group", {"x": "x:y"}, group="console_scripts")
    make_dist(second, "Alpha", {"shadowed": "alpha2:load"})  # same normalised name: hidden
    make_dist(second, "beta.pkg", {"beta": "beta_mod"})
    (second / "not_a_dist").mkdir()
    path = [str(first), str(second), str(tmp_path / "missing")]
    ours = _entry_points.entry_points("tvm.backends", path=path)
    reference = importlib.metadata.distributions(path=path)
    expected = []
    seen = set()
    for dist in reference:
        key = dist.metadata["Name"].lower().replace("_", "-").replace(".", "-")
        if key in seen:
            continue
        seen.add(key)
        expected.extend(
            (ep.name, ep.value) for ep in dist.entry_points if ep.group == "tvm.backends"
        )
    assert as_tuples(ours) == sorted(expected)
    assert as_tuples(ours) == [
        ("a", "alpha_mod:load"),
        ("b", "alpha_mod:obj.method [extra]"),
        ("beta", "beta_mod"),
    ]


def test_entry_point_parts(tmp_path):
    make_dist(tmp_path, "parts", {"p": "pkg.sub:obj.attr [x,y]"})
    [ep] = _entry_points.entry_points("tvm.backends", path=[str(tmp_path)])
    assert (ep.module, ep.attr, ep.dist, ep.group) == (
        "pkg.sub",
        "obj.attr",
        "parts",
        "tvm.backends",
    )


def test_comments_blank_lines_and_other_sections_are_ignored(tmp_path):
    info = make_dist(tmp_path, "commented", {})
    (info / "entry_points.txt").write_text(
        "# comment\n[console_scripts]\ntool = t:main\n\n[tvm.backends]\n; note\nkept = "
        "k:load\n[later]\nz = z:z\n"
    )
    eps = _entry_points.entry_points("tvm.backends", path=[str(tmp_path)])
    assert as_tuples(eps) == [("kept", "k:load")]


def _write_wheel(folder, name, version, module_source):
    """A minimal pure-Python wheel declaring one tvm.backends entry point."""
    dist_info = f"{name}-{version}.dist-info"
    files = {
        f"{name}_backend.py": module_source,
        f"{dist_info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        f"{dist_info}/WHEEL": (
            "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        ),
        f"{dist_info}/entry_points.txt": f"[tvm.backends]\n{name} = {name}_backend:load\n",
    }
    record = []
    for path, text in files.items():
        digest = (
            base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        )
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = "\n".join(record) + "\n"
    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for path, text in files.items():
            zf.writestr(path, text)
    return wheel


def _installer(python: str) -> list[str]:
    """An installer for the venv of `python`: this interpreter's pip, else uv; skip without."""
    if (
        subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode
        == 0
    ):
        return [
            sys.executable,
            "-m",
            "pip",
            "--python",
            python,
            "install",
            "--disable-pip-version-check",
        ]
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("neither pip nor uv is available to install a test wheel")
    return [uv, "pip", "install", "--python", python]


def test_wheel_installed_into_a_venv_is_autoloaded(tmp_path):
    # A fresh venv that sees this environment's packages (tvm, tvm_ffi) through a .pth file.
    venv_dir = tmp_path / "venv"
    venv.create(venv_dir, with_pip=False)
    python = str(venv_dir / "bin" / "python")
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    outer = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")} | {
        p for p in sys.path if p.endswith("-packages")
    }
    # addsitedir (not a bare path) so the outer env's own .pth files, e.g. editable installs, apply.
    (Path(purelib) / "outer_env.pth").write_text(
        f"import site; list(map(site.addsitedir, {sorted(outer)!r}))\n"
    )
    wheel = _write_wheel(
        tmp_path, "pipbackend", "0.1", "CALLS = []\n\ndef load():\n    CALLS.append(1)\n"
    )
    proc = subprocess.run(
        [*_installer(python), "--no-index", "--no-deps", "--quiet", str(wheel)],
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT_S,
    )
    assert proc.returncode == 0, proc.stderr
    code = (
        "import tvm, pipbackend_backend\n"
        "print(len(pipbackend_backend.CALLS), [b.state for b in tvm.backend.list_backends() if "
        "b.name == 'pipbackend'])\n"
    )
    proc = subprocess.run(
        [python, "-c", code], capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT_S
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["1", "['loaded']"]
    assert (Path(purelib) / "pipbackend_backend.py").is_file()  # really installed into the venv
