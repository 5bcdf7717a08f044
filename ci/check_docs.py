# Checks the Markdown docs: every relative link and #anchor resolves, every page is in the index.
"""Usage: python ci/check_docs.py [ROOT]

Looks at the pages ci/doc_blocks.py names (README.md, docs/**/*.md, the packages' READMEs and
their examples') under ROOT (default: this repository). Web links are not fetched (the CI
machine has no general network access).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from doc_blocks import doc_pages  # noqa: E402

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|!\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"`[^`]*`")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")


def slug(heading: str) -> str:
    """The anchor a Markdown renderer gives a heading (GitHub's rule)."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def prose_lines(path: Path):
    """(line number, text) of the lines outside fenced code blocks, inline code removed."""
    in_fence = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if not in_fence:
            yield number, INLINE_CODE.sub("", line)


def anchors(path: Path) -> set[str]:
    return {slug(m.group(1)) for _, line in prose_lines(path) if (m := HEADING.match(line))}


def broken_links(path: Path) -> list[str]:
    problems = []
    for number, line in prose_lines(path):
        for match in LINK.finditer(line):
            target = match.group(1) or match.group(2)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            dest = (path.parent / file_part).resolve() if file_part else path
            where = f"{path}:{number}: {target}"
            if not dest.exists():
                problems.append(f"{where} -> no such file")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                problems.append(f"{where} -> no heading #{anchor} in {dest.name}")
    return problems


def linked_files(path: Path) -> set[Path]:
    found = set()
    for _, line in prose_lines(path):
        for match in LINK.finditer(line):
            target = (match.group(1) or match.group(2)).partition("#")[0]
            if target and not re.match(r"^[a-z][a-z0-9+.-]*:", target):
                found.add((path.parent / target).resolve())
    return found


def check(root: Path) -> list[str]:
    docs = sorted((root / "docs").rglob("*.md"))
    problems = [p for page in doc_pages(root) for p in broken_links(page)]
    index = root / "docs" / "index.md"
    if not index.exists():
        return problems + [f"{index}: missing (docs/ needs an index page)"]
    listed = linked_files(index)
    problems += [
        f"{doc}: not linked from docs/index.md"
        for doc in docs
        if doc != index and doc.resolve() not in listed
    ]
    return problems


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    root = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent
    problems = check(root)
    for problem in problems:
        print(problem)
    pages = len(list((root / "docs").rglob("*.md")))
    print(f"check_docs: {pages} docs pages, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
