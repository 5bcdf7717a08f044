# ci/build_wheels.py builds each wheel once per source state (run on a throwaway monorepo).
from __future__ import annotations

import os
import shutil
import sys

import pytest
from conftest import ROOT, run


def write_package(root, name, deps=()):
    pkg = root / "packages" / name
    module = name.replace("-", "_")
    (pkg / "python" / module).mkdir(parents=True)
    (pkg / "python" / module / "__init__.py").write_text("VALUE = 1\n")
    (pkg / "tests").mkdir()
    (pkg / "tests" / "test_it.py").write_text("def test_it():\n    assert True\n")
    requires = ", ".join(f'"{d}"' for d in deps)
    (pkg / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n'
        f'[project]\nname = "{name}"\nversion = "0.1.0"\ndependencies = [{requires}]\n'
        f'[tool.hatch.build.targets.wheel]\npackages = ["python/{module}"]\n'
    )
    return pkg


@pytest.fixture
def monorepo(tmp_path):
    shutil.copytree(ROOT / "ci", tmp_path / "ci", ignore=shutil.ignore_patterns("__pycache__"))
    write_package(tmp_path, "demo-lower")
    write_package(tmp_path, "demo-upper", deps=["demo-lower>=0.1"])
    return tmp_path


def build(root, *names):
    result = run([sys.executable, root / "ci" / "build_wheels.py", *names])
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_builds_every_wheel_then_reuses_them(monorepo):
    first = build(monorepo)
    assert "built demo_lower-0.1.0" in first and "built demo_upper-0.1.0" in first
    assert sorted(p.name for p in (monorepo / "dist").glob("*.whl")) == [
        "demo_lower-0.1.0-py2.py3-none-any.whl",
        "demo_upper-0.1.0-py2.py3-none-any.whl",
    ]
    second = build(monorepo)
    assert "built" not in second
    assert second.count("is up to date") == 2


def test_rebuilds_only_the_changed_package(monorepo):
    build(monorepo)
    (monorepo / "packages/demo-upper/python/demo_upper/__init__.py").write_text("VALUE = 2\n")
    (monorepo / "packages/demo-lower/tests/test_it.py").write_text("def test_x():\n    pass\n")
    again = build(monorepo)
    assert "built demo_upper-0.1.0" in again
    assert "demo-lower: demo_lower-0.1.0-py2.py3-none-any.whl is up to date" in again


def test_one_package_builds_with_its_closure_only(monorepo):
    write_package(monorepo, "demo-other")
    out = build(monorepo, "demo-upper")
    assert "demo_lower" in out and "demo_other" not in out


def test_unknown_package_is_an_error(monorepo):
    result = run([sys.executable, monorepo / "ci" / "build_wheels.py", "no-such-package"])
    assert result.returncode != 0
    assert "unknown package(s) ['no-such-package']" in result.stderr


def test_failed_build_is_not_retried_in_the_same_run(monorepo):
    pyproject = monorepo / "packages/demo-lower/pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace("hatchling.build", "hatchling.no_such_backend")
    )
    script = monorepo / "ci" / "build_wheels.py"
    env = {**os.environ, "TVM_STACK_BUILD_RUN": "run-1"}
    first = run([sys.executable, script, "demo-lower"], env=env)
    assert first.returncode != 0 and "+ " in first.stdout  # it really tried
    again = run([sys.executable, script, "demo-lower"], env=env)
    assert again.returncode != 0
    assert "failed to build earlier in this run" in again.stderr
    fresh = run([sys.executable, script, "demo-lower"], env={**env, "TVM_STACK_BUILD_RUN": "run-2"})
    assert "failed to build earlier" not in fresh.stderr


def test_python_option_builds_into_a_folder_of_that_version(monorepo):
    version = "{}.{}".format(*sys.version_info[:2])
    out = build(monorepo, "--python", sys.executable, "demo-lower")
    assert "built demo_lower-0.1.0" in out
    assert [p.name for p in (monorepo / "dist" / f"py{version}").glob("*.whl")] == [
        "demo_lower-0.1.0-py2.py3-none-any.whl"
    ]
    assert (monorepo / "build" / f"wheel-env-py{version}").is_dir()
    assert not list((monorepo / "dist").glob("*.whl"))  # the default folder stays untouched
    assert "is up to date" in build(monorepo, "--python", sys.executable, "demo-lower")


def test_python_option_rejects_a_missing_interpreter(monorepo):
    script = monorepo / "ci" / "build_wheels.py"
    result = run([sys.executable, script, "--python", monorepo / "no-python", "demo-lower"])
    assert result.returncode != 0
    assert "--python" in result.stderr and "is not a runnable Python" in result.stderr
