# Finds the fenced code blocks of the Markdown docs and says how each one is tested.
"""Every fenced block of README.md, docs/*.md, packages/*/README.md and
packages/*/examples/*/README.md is one of:

- ``text``: output, a diagram or a file layout, not code (its fence says ```text);
- a fragment: the line before the fence is ``<!-- fragment: why -->``; not run;
- ``python``: run by ci/run_docs.py in the page's venv, each block in its own process;
- ``bash`` / ``sh`` / ``console``: run by ci/run_docs.py with bash in that venv, or, marked
  ``<!-- docs-run: install -->``, an install line that builds the page's venv: a fresh venv
  holding what the page's install lines install, shared only by pages whose install lines
  are the same; or, marked ``<!-- docs-run: background -->``, a long-running command (a
  server) started in the background, once its first line of output shows, and stopped after
  the page's last block; or, marked ``<!-- docs-run: ci -->``, a ``nox -s`` command whose
  sessions .ci/run itself runs (checked);
- any other language (C, C++, CMake, TOML, ...) marked ``<!-- docs-run: file NAME -->``:
  written to NAME in the page's work folder, for the page's later blocks to build.

A block that is none of these is an error, and so is a page that runs blocks without an
install line: a page is tested, as a reader would follow it, or says why not.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>```+|~~~+)(?P<lang>[^\s`]*)[^`]*$")
MARKER = re.compile(r"^\s*<!--\s*(?P<kind>fragment|docs-run)\s*:?\s*(?P<arg>.*?)\s*-->\s*$")
SHELLS = {"bash", "sh", "console", "shell"}
NOT_CODE = {"text", "output"}


@dataclasses.dataclass
class Block:
    """One fenced code block: where it is, its language, its marker and its code."""

    page: Path
    line: int  # line number of the opening fence (1-based)
    lang: str
    code: str
    marker: str = ""  # "fragment: ...", "ci", "install", "background", "file NAME", or ""

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def file_name(self) -> str | None:
        return self.marker[5:].strip() if self.marker.startswith("file ") else None


def doc_pages(root: Path) -> list[Path]:
    """The pages whose blocks CI runs: the root README, docs/*.md, each package's README and
    the READMEs of its examples."""
    pages = [
        root / "README.md",
        *sorted((root / "docs").glob("**/*.md")),
        *sorted((root / "packages").glob("*/README.md")),
        *sorted((root / "packages").glob("*/examples/*/README.md")),
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


def classify(block: Block) -> str:
    """How a block is tested: 'text', 'fragment', 'ci', 'install', 'background', 'file',
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
    if block.marker in ("ci", "install", "background"):
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


# Kinds of block that run in the page's venv, so a page holding one needs an install line.
RUN_KINDS = {"python", "shell", "file", "background"}


def check_claims(root: Path) -> list[str]:
    """Problems with what the pages claim: unclassifiable blocks, pages that run blocks but
    never say how to install what they need, `ci` blocks naming sessions .ci/run does not run."""
    problems = []
    run_by_ci = ci_sessions(root)
    for page in doc_pages(root):
        if "docs-run: tested-by" in page.read_text(encoding="utf-8"):
            problems.append(
                f"{page}: `docs-run: tested-by` is gone: ci/run_docs.py runs every page "
                "itself; give the page a `docs-run: install` block instead"
            )
        kinds = set()
        for block in blocks_of(page):
            try:
                kind = classify(block)
            except ValueError as err:
                problems.append(str(err))
                continue
            kinds.add(kind)
            if kind == "ci":
                missing = [s for s in nox_sessions(block.code) if s not in run_by_ci]
                if not nox_sessions(block.code):
                    problems.append(f"{block.where}: a `docs-run: ci` block with no nox -s command")
                if missing:
                    problems.append(
                        f"{block.where}: .ci/run does not run nox session(s) {', '.join(missing)}"
                    )
        if kinds & RUN_KINDS and "install" not in kinds:
            problems.append(
                f"{page}: its blocks run, but no `docs-run: install` block says how to "
                "install what they need"
            )
    return problems
