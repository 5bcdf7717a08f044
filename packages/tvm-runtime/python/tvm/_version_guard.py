# Import-time check that an installed lower-layer distribution is inside the declared range.
from __future__ import annotations

import os
import re
import sys

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

# None of tvm-stack's wheels is on a package index: the fix points at a local wheel folder.
# Our wheels are on no index, but their third-party dependencies are: --find-links, not --no-index.
_WHEEL_HINT = "(tvm-stack wheels are on no index: `nox -s wheels` builds them into dist/)"


_REQUIREMENT = re.compile(
    r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*"
    r"\(?(?P<spec>[^;()]*)\)?\s*$"
)


def _normalize(name: str) -> str:
    return name.replace("-", "_").replace(".", "_").lower()


def _dist_info(dist_name: str) -> tuple[str | None, str | None]:
    """(version, dist-info folder) of the first `<name>-<version>.dist-info` on sys.path.

    Reading folder names instead of importing importlib.metadata keeps `import tvm` fast
    (importlib.metadata alone costs more than the rest of the import); the search order is
    the same, so the answer is too. Anything else (an egg-info install) falls back to it,
    without a folder.
    """
    wanted = _normalize(dist_name)
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.endswith(".dist-info"):
                project, sep, version = name[: -len(".dist-info")].rpartition("-")
                if sep and _normalize(project) == wanted:
                    return version, os.path.join(entry or ".", name)
    import importlib.metadata

    try:
        return importlib.metadata.version(dist_name), None
    except importlib.metadata.PackageNotFoundError:
        return None, None


def _installed_version(dist_name: str) -> str | None:
    return _dist_info(dist_name)[0]


def declared_range(dist_name: str, needed_by: str) -> str | None:
    """The range `needed_by`'s installed metadata declares for `dist_name` (its Requires-Dist
    line), so each range is written once, in pyproject.toml; None when `needed_by` is not
    installed as a distribution (a source tree) or declares no such requirement."""
    version, folder = _dist_info(needed_by)
    if version is None:
        return None
    if folder is None:
        import importlib.metadata

        lines = importlib.metadata.requires(needed_by) or []
    else:
        try:
            with open(os.path.join(folder, "METADATA"), encoding="utf-8") as f:
                header = f.read().split("\n\n", 1)[0]
        except OSError:
            return None
        lines = [
            line[len("Requires-Dist:") :].strip()
            for line in header.splitlines()
            if line.startswith("Requires-Dist:")
        ]
    for line in lines:
        # "name[extras] (spec)" or "name[extras]spec"; a line with a marker (an extra, a
        # platform) is not an unconditional requirement. A hand-written parse: importing
        # packaging.requirements would take longer than the rest of `import tvm`.
        match = _REQUIREMENT.match(line)
        if match and _normalize(match["name"]) == _normalize(dist_name):
            return match["spec"].replace(" ", "") or None
    return None


def require(dist_name: str, spec: str | None = None, needed_by: str | None = None) -> str | None:
    """Check that distribution `dist_name` is installed in the range `spec` (PEP 440, e.g.
    ">=0.3,<0.4"); `needed_by` is the distribution that declares the range. Without `spec`,
    the range is the one `needed_by`'s installed metadata declares, and nothing is checked
    when it declares none (running from a source tree). Returns the installed version;
    raises ImportError naming both versions and the pip command that fixes it."""
    for arg, value in (("dist_name", dist_name), ("spec", spec), ("needed_by", needed_by)):
        if (value is not None or arg != "spec") and (
            not isinstance(value, str) or not value.strip()
        ):
            raise TypeError(f"require: argument {arg!r} must be a non-empty str, got {value!r}")
    if spec is None:
        spec = declared_range(dist_name, needed_by)
        if spec is None:
            return _installed_version(dist_name)
    try:
        allowed = SpecifierSet(spec)
    except InvalidSpecifier as err:
        raise ValueError(f"require: argument 'spec' must be a PEP 440 range, got {spec!r}") from err
    fix = f'pip install --find-links dist "{dist_name}{allowed}" {_WHEEL_HINT}'
    installed = _installed_version(dist_name)
    if installed is not None:
        try:
            if allowed.contains(Version(installed), prereleases=True):
                return installed
        except InvalidVersion:
            pass
    needer_version = _installed_version(needed_by) or "(not installed as a distribution)"
    if installed is None:
        raise ImportError(
            f"{needed_by} {needer_version} needs {dist_name}{allowed}, but {dist_name} is not "
            f"installed. Fix: {fix}"
        )
    raise ImportError(
        f"{needed_by} {needer_version} needs {dist_name}{allowed}, but {dist_name} "
        f"{installed} is installed. Fix: {fix}"
    )
