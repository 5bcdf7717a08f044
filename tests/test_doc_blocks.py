# ci/doc_blocks.py and ci/run_docs.py: every docs block is run, claimed by a test, or says why not.
from __future__ import annotations

import sys

import pytest
from conftest import ROOT
from doc_blocks import blocks_of, check_claims, classify, nox_sessions
from run_docs import run_block, start_background, stop_background, venv_env


def page(tmp_path, text, name="docs/page.md"):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def repo(tmp_path, ci_line="nox -s tests lint"):
    (tmp_path / ".ci").mkdir()
    (tmp_path / ".ci" / "run").write_text(f"#!/bin/sh\n{ci_line} 2>&1 | tee log\n")
    page(tmp_path, "# Project\n", "README.md")
    return tmp_path


def test_every_block_of_the_repository_is_run_claimed_or_marked():
    assert check_claims(ROOT) == []


def test_blocks_keep_language_marker_line_and_indented_code(tmp_path):
    path = page(
        tmp_path,
        "# P\n\n1. step:\n   <!-- docs-run: file a/b.cc -->\n   ```cpp\n"
        "   int x;\n     int y;\n   ```\n\n<!-- fragment: a piece -->\n```python\n"
        "x = 1\n```\n",
    )
    first, second = blocks_of(path)
    assert (first.line, first.lang, first.file_name, first.code) == (
        5,
        "cpp",
        "a/b.cc",
        "int x;\n  int y;\n",
    )
    assert second.marker == "fragment: a piece"
    assert classify(first) == "file" and classify(second) == "fragment"


@pytest.mark.parametrize(
    "text, message",
    [
        ("```\nls\n```\n", "names no language"),
        ("<!-- fragment: -->\n```python\nx\n```\n", "must say why"),
        ("```cmake\nproject(x)\n```\n", "a cmake block that nothing runs"),
        ("<!-- docs-run: ci -->\n```python\nx\n```\n", "marks shell blocks only"),
        ("<!-- docs-run: sometimes -->\n```bash\nls\n```\n", "unknown marker"),
    ],
)
def test_blocks_that_say_nothing_true_are_refused(tmp_path, text, message):
    (block,) = blocks_of(page(tmp_path, text))
    with pytest.raises(ValueError, match=message):
        classify(block)


def test_text_python_and_shell_blocks(tmp_path):
    blocks = blocks_of(
        page(tmp_path, "```text\nout\n```\n```python\nx\n```\n```console\nls\n```\n")
    )
    assert [classify(b) for b in blocks] == ["text", "python", "shell"]


def test_ci_blocks_must_name_sessions_ci_runs(tmp_path):
    root = repo(tmp_path)
    page(
        root,
        '<!-- docs-run: ci -->\n```bash\npip install nox && nox -s tests "docs(x)" -- -k y\n```\n',
    )
    assert nox_sessions('nox -s tests "docs(x)" -- -k y') == ["tests", "docs"]
    assert check_claims(root) == [
        f"{root}/docs/page.md:2: .ci/run does not run nox session(s) docs"
    ]
    (root / ".ci" / "run").write_text("nox -s tests docs lint\n")
    assert check_claims(root) == []


def test_a_page_that_runs_blocks_must_say_how_to_install(tmp_path):
    root = repo(tmp_path)
    page(root, "```python\nimport tvm\n```\n")
    assert check_claims(root) == [
        f"{root}/docs/page.md: its blocks run, but no `docs-run: install` block says how to "
        "install what they need"
    ]
    page(root, "<!-- docs-run: install -->\n```bash\npip install x\n```\n```python\nx\n```\n")
    assert check_claims(root) == []


def test_tested_by_is_refused_every_page_runs_here(tmp_path):
    root = repo(tmp_path)
    page(root, "<!-- docs-run: tested-by tests/test_page.py -->\n```text\nout\n```\n")
    (problem,) = check_claims(root)
    assert "`docs-run: tested-by` is gone" in problem


def test_background_block_runs_until_the_page_ends(tmp_path):
    env = venv_env(ROOT / "no-such-venv")
    path = page(
        tmp_path,
        "<!-- docs-run: background -->\n```bash\necho ready; sleep 600\n```\n"
        "<!-- docs-run: background -->\n```bash\nexit 3\n```\n",
    )
    server, broken = blocks_of(path)
    assert classify(server) == "background"
    process, error = start_background(server, tmp_path, env)
    assert error is None and process.poll() is None
    stop_background(process)
    assert process.poll() is not None
    assert start_background(broken, tmp_path, env) == (
        None,
        "exited with status 3 before printing anything",
    )


def test_run_block_reports_failures_with_the_page_line_numbers(tmp_path):
    venv = venv_env(ROOT / "no-such-venv")  # PATH falls through to the interpreter running this
    venv["PATH"] = f"{sys.executable.rsplit('/', 1)[0]}:{venv['PATH']}"
    path = page(
        tmp_path,
        "text\n\n```python\nx = 1\nassert x == 2\n```\n"
        "<!-- docs-run: file out/f.txt -->\n```text-file\nhello\n```\n"
        "```bash\ncat out/f.txt\nfalse\n```\n",
    )
    python, file_block, shell = blocks_of(path)
    error = run_block(python, "python", tmp_path, venv)
    assert error.startswith("exit status 1") and "line 5" in error and "AssertionError" in error
    assert run_block(file_block, "file", tmp_path, venv) is None
    assert (tmp_path / "out" / "f.txt").read_text() == "hello\n"
    error = run_block(shell, "shell", tmp_path, venv)
    assert error.startswith("exit status 1") and "hello" in error
