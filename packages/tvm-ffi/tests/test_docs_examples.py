"""Runs every example of docs/ffi-python.md, so the documented API stays true."""

import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest
from native_build import compiler
from tvm_ffi import config

DOC = pathlib.Path(__file__).resolve().parents[3] / "docs" / "ffi-python.md"


def blocks(language):
    if not DOC.exists():
        pytest.skip(f"{DOC} is not in this checkout (tests run outside the repository)")
    return re.findall(rf"```{re.escape(language)}\n(.*?)```", DOC.read_text(), flags=re.S)


def python_examples():
    if not DOC.exists():
        return []
    return re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


@pytest.mark.parametrize("index", range(len(python_examples())))
def test_python_example(index, tmp_path):
    code = blocks("python")[index]
    if "load_module" in code:
        run_documented_build(tmp_path)
        # In a child process: a loaded C++ library stays in the process (see test_module.py).
        subprocess.run([sys.executable, "-c", code], cwd=tmp_path, check=True, timeout=60)
        return
    exec(compile(code, f"{DOC.name}[python {index}]", "exec"), {"__name__": f"doc_example_{index}"})


def run_documented_build(tmp_path):
    """Builds the C++ example with the shell command its first line documents, word for word,
    with this venv's tvm-ffi-config first on PATH (Debian's c++ links --as-needed, so a
    library named before the sources is dropped and the result fails to load)."""
    (source,) = blocks("c++")
    first_line = source.splitlines()[0]
    match = re.fullmatch(r"// (\S+): (.+)", first_line)
    assert match, f"the C++ example must start with '// file: command', got {first_line!r}"
    filename, command = match.groups()
    (tmp_path / filename).write_text(source)
    compiler("c++")
    bash = shutil.which("bash") or pytest.skip("no bash to run the documented command")
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    result = subprocess.run(
        [bash, "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr


def test_config_prints_flags_in_the_order_asked(capsys):
    assert config.main(["--cxxflags", "--ldflags", "--libs"]) == 0
    words = capsys.readouterr().out.split()
    assert words[-1] == "-ltvm_ffi"
    assert words[0].startswith("-I")
    assert config.main(["--libs", "--includedir"]) == 0
    assert capsys.readouterr().out.split()[0] == "-ltvm_ffi"


def test_doc_has_examples():
    assert len(blocks("python")) >= 8
