# Discovers the monorepo's packages from packages/*/pyproject.toml and orders them by the layer DAG.
from __future__ import annotations

import dataclasses
import graphlib
import re
import sys
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10 ships no TOML reader; nox depends on tomli there.
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PACKAGES_DIR = ROOT / "packages"
DIST_DIR = ROOT / "dist"


@dataclasses.dataclass(frozen=True)
class Package:
    """One distribution of the monorepo, as its pyproject.toml declares it."""

    name: str
    path: Path
    version: str
    requires: tuple[Requirement, ...]
    build_requires: tuple[Requirement, ...]
    extras: dict[str, tuple[Requirement, ...]]
    build_backend: str

    @property
    def is_native(self) -> bool:
        """True for packages built with scikit-build-core (CMake)."""
        return self.build_backend.startswith("scikit_build_core")

    @property
    def wheel_prefix(self) -> str:
        """File-name prefix of this package's wheels (`tvm_ffi-`)."""
        return self.name.replace("-", "_") + "-"


def _requirements(strings) -> tuple[Requirement, ...]:
    env = default_environment()
    reqs = (Requirement(s) for s in strings)
    return tuple(r for r in reqs if r.marker is None or r.marker.evaluate({**env, "extra": ""}))


VERSION_LINE = re.compile(r'^__version__ = "([^"]+)"$', re.M)


def _version(path: Path, data: dict) -> str:
    """The version a build of the package gets: [project] version, or, when it is dynamic,
    the `__version__ = "..."` line of the file the build backend reads it from."""
    project = data["project"]
    if "version" in project:
        return project["version"]
    tool = data.get("tool", {})
    source = tool.get("hatch", {}).get("version", {}).get("path") or tool.get(
        "scikit-build", {}
    ).get("metadata", {}).get("version", {}).get("input")
    if "version" not in project.get("dynamic", []) or not source:
        raise ValueError(
            f"load_package: {path}/pyproject.toml needs [project] version, or a "
            "dynamic version read from a file ([tool.hatch.version] path or "
            "[tool.scikit-build.metadata.version] input)"
        )
    match = VERSION_LINE.search((path / source).read_text(encoding="utf-8"))
    if not match:
        raise ValueError(f'load_package: {path / source} has no line __version__ = "X.Y.Z"')
    return match.group(1)


def load_package(path: Path) -> Package:
    """Read one package's pyproject.toml."""
    with open(path / "pyproject.toml", "rb") as f:
        data = tomllib.load(f)
    project = data.get("project")
    if not project or "name" not in project:
        raise ValueError(f"load_package: {path}/pyproject.toml needs [project] name")
    build = data.get("build-system", {})
    extras = project.get("optional-dependencies", {})
    return Package(
        name=canonicalize_name(project["name"]),
        path=path,
        version=_version(path, data),
        requires=_requirements(project.get("dependencies", [])),
        build_requires=_requirements(build.get("requires", [])),
        extras={k: _requirements(v) for k, v in extras.items()},
        build_backend=build.get("build-backend", ""),
    )


def discover(packages_dir: Path = PACKAGES_DIR) -> dict[str, Package]:
    """Every package under packages_dir, in DAG order (a package after all it needs)."""
    found = {}
    for pyproject in sorted(packages_dir.glob("*/pyproject.toml")):
        pkg = load_package(pyproject.parent)
        found[pkg.name] = pkg
    graph = {
        name: internal_names(pkg.requires + pkg.build_requires, found)
        for name, pkg in found.items()
    }
    try:
        order = list(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as err:
        raise ValueError(f"discover: dependency cycle {' -> '.join(err.args[1])}") from None
    return {name: found[name] for name in order}


def internal_names(reqs, packages) -> list[str]:
    """Names of the requirements that are packages of this monorepo."""
    return [canonicalize_name(r.name) for r in reqs if canonicalize_name(r.name) in packages]


def closure(name: str, packages: dict[str, Package]) -> list[str]:
    """The run-time closure of `name` inside the monorepo, in DAG order, `name` last."""
    needed = {name}
    stack = [name]
    while stack:
        for dep in internal_names(packages[stack.pop()].requires, packages):
            if dep not in needed:
                needed.add(dep)
                stack.append(dep)
    return [n for n in packages if n in needed]


def third_party_requirements(names, packages, extras=()) -> list[str]:
    """Requirements from outside the monorepo of `names`, plus the listed extras of each."""
    out: list[str] = []
    for name in names:
        pkg = packages[name]
        reqs = list(pkg.requires)
        for extra in extras:
            reqs.extend(pkg.extras.get(extra, ()))
        for r in reqs:
            if canonicalize_name(r.name) not in packages and str(r) not in out:
                out.append(str(r))
    return out
