# Package discovery: DAG order, run-time closures and cycle detection.
from __future__ import annotations

import pytest
from monorepo import closure, discover, third_party_requirements
from test_build_wheels import write_package


def test_real_packages_come_in_dag_order():
    order = list(discover())
    assert order.index("tvm-ffi") < order.index("tvm-runtime")
    for upper in ("tvm-compiler", "tvm-rpc", "tvm-backend-example"):
        if upper in order:
            assert order.index("tvm-runtime") < order.index(upper)


def test_closure_and_third_party_requirements(tmp_path):
    write_package(tmp_path, "b-top", deps=["a-mid", "numpy>=1"])
    write_package(tmp_path, "a-mid", deps=["c-low", "packaging"])
    write_package(tmp_path, "c-low")
    write_package(tmp_path, "d-aside", deps=["c-low"])
    found = discover(tmp_path / "packages")
    assert list(found).index("c-low") < list(found).index("a-mid") < list(found).index("b-top")
    assert closure("b-top", found) == ["c-low", "a-mid", "b-top"]
    assert third_party_requirements(closure("b-top", found), found) == ["packaging", "numpy>=1"]


def test_cycle_is_reported(tmp_path):
    write_package(tmp_path, "x-one", deps=["x-two"])
    write_package(tmp_path, "x-two", deps=["x-one"])
    with pytest.raises(ValueError, match="dependency cycle"):
        discover(tmp_path / "packages")


def test_layers_page_lists_each_packages_versions_and_dependencies():
    # docs/layers.md's table says what each package needs at run time: keep it true.
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "layers.md").read_text()
    rows = {m[0]: m[1:] for m in re.findall(r"^\| ([a-z-]+) \| ([0-9.]+) \| (.*?) \|", page, re.M)}
    for name, pkg in discover().items():
        version, needs = rows[name]
        assert version == pkg.version, name
        from packaging.requirements import Requirement

        listed = {str(Requirement(r)) for r in re.findall(r"`([^`]+)`", needs.split("(")[0])}
        assert listed == {str(r) for r in pkg.requires}, name
