"""Runs every example of docs/ffi-python.md, so the documented API stays true."""

import pathlib
import re
import subprocess
import sys

import pytest

from native_build import build_library

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
        (cxx_source,) = blocks("c++")
        build_library(tmp_path, "add_one", cxx_source, "c++", link_ffi=True)
        # In a child process: a loaded C++ library stays in the process (see test_module.py).
        subprocess.run([sys.executable, "-c", code], cwd=tmp_path, check=True, timeout=60)
        return
    exec(compile(code, f"{DOC.name}[python {index}]", "exec"), {"__name__": f"doc_example_{index}"})


def test_doc_has_examples():
    assert len(blocks("python")) >= 8
