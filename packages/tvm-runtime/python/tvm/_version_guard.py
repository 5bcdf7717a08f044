# Import-time check that an installed lower-layer distribution is inside the declared range.
from __future__ import annotations

import os
import sys

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

# None of tvm-stack's wheels is on a package index: the fix points at a local wheel folder.
# Our wheels are on no index, but their third-party dependencies are: --find-links, not --no-index.
_WHEEL_HINT = "(tvm-stack wheels are on no index: `nox -s wheels` builds them into dist/)"


def _normalize(name: str) -> str:
    return name.replace("-", "_").replace(".", "_").lower()


def _installed_version(dist_name: str) -> str | None:
    """The version in the first `<name>-<version>.dist-info` folder on sys.path.

    Reading folder names instead of importing importlib.metadata keeps `import tvm` fast
    (importlib.metadata alone costs more than the rest of the import); the search order is
    the same, so the answer is too. Anything else (an egg-info install) falls back to it.
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
                    return version
    import importlib.metadata

    try:
        return importlib.metadata.version(dist_name)
    except importlib.metadata.PackageNotFoundError:
        return None


def require(dist_name: str, spec: str, needed_by: str) -> str:
    """Check that distribution `dist_name` is installed in the range `spec` (PEP 440, e.g.
    ">=0.3,<0.4"); `needed_by` is the distribution that declares the range. Returns the
    installed version; raises ImportError naming both versions and the pip command that
    fixes it."""
    for arg, value in (("dist_name", dist_name), ("spec", spec), ("needed_by", needed_by)):
        if not isinstance(value, str) or not value.strip():
            raise TypeError(f"require: argument {arg!r} must be a non-empty str, got {value!r}")
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
