# ci/check_docs.py: broken links, missing anchors and pages left out of the index are reported.
from __future__ import annotations

from check_docs import check, slug
from conftest import ROOT


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_repository_docs_are_clean():
    assert check(ROOT) == []


def test_slug_follows_heading_rules():
    assert slug("Versions & compatibility policy") == "versions--compatibility-policy"


def test_broken_link_missing_anchor_and_orphan_page(tmp_path):
    write(tmp_path / "README.md", "[docs](docs/index.md) [gone](docs/gone.md)\n")
    write(tmp_path / "docs/index.md", "# Index\n[layers](layers.md#no-such-part)\n")
    write(tmp_path / "docs/layers.md", "# Layers\n## The DAG\n[back](index.md#index)\n")
    write(tmp_path / "docs/orphan.md", "# Orphan\n")
    problems = check(tmp_path)
    assert any("docs/gone.md -> no such file" in p for p in problems)
    assert any("no heading #no-such-part in layers.md" in p for p in problems)
    assert any("orphan.md: not linked from docs/index.md" in p for p in problems)
    assert len(problems) == 3


def test_links_inside_code_are_ignored(tmp_path):
    write(tmp_path / "docs/index.md", "# I\n```\n[x](nowhere.md)\n```\n`[y](nowhere.md)`\n")
    assert check(tmp_path) == []
