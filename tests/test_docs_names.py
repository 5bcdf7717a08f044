# Every `tvm.X` / `tvm_ffi.X` a page names exists, unless the line says it is planned.
from __future__ import annotations

import importlib
import re

from conftest import ROOT
from doc_blocks import doc_pages

NAME = re.compile(r"`[^`\n]*?\b((?:tvm|tvm_ffi)\.[A-Za-z_][\w.]*)")
# Names that are not Python objects: the backends' entry-point group, header file names.
NOT_OBJECTS = re.compile(r"^tvm\.backends$|\.h$")


def resolves(name: str) -> bool:
    """Whether `name` is an importable module or an attribute chain on one."""
    parts = name.rstrip(".").split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attribute in parts[cut:]:
                found = getattr(found, attribute)
        except AttributeError:
            return False
        return True
    return False


def missing_names(pages, root=ROOT) -> list[str]:
    missing = []
    for page in pages:
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if "planned" in line:
                continue
            for match in NAME.finditer(line):
                name = match.group(1)
                if not NOT_OBJECTS.search(name) and not resolves(name):
                    missing.append(f"{page.relative_to(root)}:{number}: {name}")
    return missing


def test_every_name_the_docs_give_exists():
    assert missing_names(doc_pages(ROOT)) == []


def test_a_name_that_does_not_exist_is_reported(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "Use `tvm.tir.no_such_thing(x)` and `tvm.runtime.tensor`.\n`tvm.later` is planned.\n"
    )
    assert missing_names([page], root=tmp_path) == ["page.md:1: tvm.tir.no_such_thing"]
