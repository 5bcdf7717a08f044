# Runs every Python example of docs/relax-lowering.md, so the documented API stays true.
import pathlib
import re

import pytest

DOC = pathlib.Path(__file__).resolve().parents[3] / "docs" / "relax-lowering.md"


def _examples():
    if not DOC.exists():
        return []
    return re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


@pytest.mark.parametrize("index", range(len(_examples())))
def test_python_example(index, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = _examples()[index]
    exec(compile(code, f"{DOC.name}[python {index}]", "exec"), {"__name__": f"doc_example_{index}"})
