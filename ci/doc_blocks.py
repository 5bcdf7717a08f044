# Finds the fenced code blocks of the Markdown docs and says how each one is tested.
"""Every fenced block of README.md, docs/*.md and packages/*/README.md is one of:

- ``text``: output, a diagram or a file layout, not code (its fence says ```text);
- a fragment: the line before the fence is ``<!-- fragment: why -->``; not run;
- ``python``: run by ci/run_docs.py in a fresh venv, each block in its own process;
- ``bash`` / ``sh`` / ``console``: run by ci/run_docs.py with bash in that venv, or, marked
  ``<!-- docs-run: ci -->``, a ``nox -s`` command whose sessions .ci/run itself runs
  (checked), or, marked ``<!-- docs-run: install -->``, an install line run first, to build
  the venv every other block runs in;
- any other language (C, C++, CMake, TOML, ...) marked ``<!-- docs-run: file NAME -->``:
  written to NAME in the page's work folder, for the page's later blocks to build;
- on a page that says ``<!-- docs-run: tested-by PATH -->``, every block but text and
  fragments is run by that test (which must exist and name the page), not here.

A block that is none of these is an error: a page is tested or says why not.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>```+|~~~+)(?P<lang>[^\s`]*)[^`]*$")
MARKER = re.compile(r"^\s*<!--\s*(?P<kind>fragment|docs-run)\s*:?\s*(?P<arg>.*?)\s*-->\s*$")
TESTED_BY = re.compile(r"<!--\s*docs-run:\s*tested-by\s+(\S+)\s*-->")
SHELLS = {"bash", "sh", "console", "shell"}
NOT_CODE = {"text", "output"}


@dataclasses.dataclass
class Block:
    """One fenced code block: where it is, its language, its marker and its code."""

    page: Path
    line: int  # line number of the opening fence (1-based)
    lang: str
    code: str
    marker: str = ""  # "fragment: ...", "ci", "install", "file NAME", or ""

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def file_name(self) -> str | None:
        return self.marker[5:].strip() if self.marker.startswith("file ") else None


def doc_pages(root: Path) -> list[Path]:
    """The pages whose blocks CI runs: the root README, docs/*.md, each package's README."""
    pages = [
        root / "README.md",
        *sorted((root / "docs").glob("**/*.md")),
        *sorted((root / "packages").glob("*/README.md")),
    ]
    return [p for p in pages if p.exists()]


def blocks_of(page: Path) -> list[Block]:
    """The fenced blocks of one page, with the marker comment just above each, if any."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, fence = opening["indent"], opening["fence"]
        end = i + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        body = [
            line[len(indent) :] if line.startswith(indent) else line.lstrip()
            for line in lines[i + 1 : end]
        ]
        marker = ""
        before = i - 1
        while before >= 0 and not lines[before].strip():
            before -= 1
        if before >= 0 and (m := MARKER.match(lines[before])):
            marker = f"fragment: {m['arg']}" if m["kind"] == "fragment" else m["arg"]
        found.append(Block(page, i + 1, opening["lang"].lower(), "\n".join(body) + "\n", marker))
        i = end + 1
    return found


def tested_by(page: Path) -> str | None:
    """The test a page names as the one that runs its blocks, if it names one."""
    match = TESTED_BY.search(page.read_text(encoding="utf-8"))
    return match.group(1) if match else None


def nox_sessions(code: str) -> list[str]:
    """The sessions named by the `nox -s ...` commands of a shell block."""
    sessions = []
    for command in re.findall(r"\bnox\s+-s\s+([^&|;\n]+)", code):
        for word in re.findall(r'"[^"]*"|\'[^\']*\'|\S+', command):
            if word.startswith("-"):
                break
            sessions.append(word.strip("\"'").split("(")[0])
    return sessions


def ci_sessions(root: Path) -> set[str]:
    """The sessions .ci/run passes to nox."""
    text = (root / ".ci" / "run").read_text(encoding="utf-8")
    found = set()
    for command in re.findall(r"^\s*nox\s+-s\s+([^|&;\n]+)", text, flags=re.M):
        found.update(w for w in command.split() if not w.startswith("-") and w != "2>&1")
    return found


def classify(block: Block, page_test: str | None) -> str:
    """How a block is tested: 'text', 'fragment', 'tested-by', 'ci', 'install', 'file',
    'python', 'shell'; raises ValueError for a block that is none of these."""
    if block.lang in NOT_CODE:
        return "text"
    if block.marker.startswith("fragment:"):
        if not block.marker[len("fragment:") :].strip():
            raise ValueError(f"{block.where}: a fragment marker must say why the block is one")
        return "fragment"
    if not block.lang:
        raise ValueError(
            f"{block.where}: the block names no language: name it (`text` for "
            "output, diagrams and layouts)"
        )
    if page_test:
        return "tested-by"
    if block.marker in ("ci", "install"):
        if block.lang not in SHELLS:
            raise ValueError(f"{block.where}: `docs-run: {block.marker}` marks shell blocks only")
        return block.marker
    if block.file_name:
        return "file"
    if block.marker:
        raise ValueError(f"{block.where}: unknown marker `docs-run: {block.marker}`")
    if block.lang == "python":
        return "python"
    if block.lang in SHELLS:
        return "shell"
    raise ValueError(
        f"{block.where}: a {block.lang} block that nothing runs: mark it "
        "`<!-- docs-run: file NAME -->` for a later block to build, or "
        "`<!-- fragment: why -->`"
    )


def check_claims(root: Path) -> list[str]:
    """Problems with what the pages claim: unclassifiable blocks, tested-by tests that do not
    exist or do not name the page, `ci` blocks naming sessions .ci/run does not run."""
    problems = []
    run_by_ci = ci_sessions(root)
    for page in doc_pages(root):
        page_test = tested_by(page)
        if page_test:
            test = root / page_test
            if not test.is_file():
                problems.append(f"{page}: tested-by {page_test}: no such file")
            elif page.name not in test.read_text(encoding="utf-8"):
                problems.append(f"{page}: tested-by {page_test}: that test never names {page.name}")
        for block in blocks_of(page):
            try:
                kind = classify(block, page_test)
            except ValueError as err:
                problems.append(str(err))
                continue
            if kind == "ci":
                missing = [s for s in nox_sessions(block.code) if s not in run_by_ci]
                if not nox_sessions(block.code):
                    problems.append(f"{block.where}: a `docs-run: ci` block with no nox -s command")
                if missing:
                    problems.append(
                        f"{block.where}: .ci/run does not run nox session(s) {', '.join(missing)}"
                    )
    return problems
