# Runs every Python example of docs/compiler.md, relax.md, relax-lowering.md and
# te-tutorials.md, so the API they document stays true.
import pathlib
import re
import runpy

import pytest

DOCS_DIR = pathlib.Path(__file__).resolve().parents[3] / "docs"
DOC = DOCS_DIR / "compiler.md"
# Each page: a snippet one of its examples must contain, and how many examples it has at least.
PAGES = {
    "compiler.md": ("class LowerClamp(StmtExprMutator)", 2),
    "relax.md": ("relax.BlockBuilder()", 1),
    "relax-lowering.md": ("tvm.compile(bb.get()", 1),
    "te-tutorials.md": ("sch.reverse_compute_at(block_C, j0)", 6),
}


def _examples(doc=DOC):
    if not doc.exists():
        return []
    return re.findall(r"```python\n(.*?)```", doc.read_text(), flags=re.S)


_CASES = [(page, i) for page in PAGES for i in range(len(_examples(DOCS_DIR / page)))]


@pytest.mark.parametrize(("page", "index"), _CASES)
def test_python_example(page, index, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # examples may write files (export_library("add.so"))
    # Run from a file: TVMScript reads the source of the functions it parses.
    script = tmp_path / f"{page.removesuffix('.md').replace('-', '_')}_example_{index}.py"
    script.write_text(_examples(DOCS_DIR / page)[index])
    runpy.run_path(str(script), run_name=f"doc_example_{index}")


@pytest.mark.parametrize("page", sorted(PAGES))
def test_doc_has_the_examples(page):
    doc = DOCS_DIR / page
    if not doc.exists():
        pytest.skip(f"{doc} is not in this checkout (tests run outside the repository)")
    examples = _examples(doc)
    snippet, least = PAGES[page]
    assert len(examples) >= least
    assert any(snippet in code for code in examples)
