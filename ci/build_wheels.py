# Builds each package's wheel into dist/ once per source state, reusing one build venv and dirs.
"""Usage: python ci/build_wheels.py [--python PYTHON] [PACKAGE ...]   (default: every package)

Every package builds with --no-build-isolation inside one persistent venv (build/wheel-env)
that holds the union of the packages' build requirements, so scikit-build-core's build
directory stays valid between runs and C++ rebuilds are incremental. A package whose
sources (tests and benchmarks aside), build environment and in-repo build inputs hash the
same as at its last build is skipped (stamp files in dist/.stamps/).

--python builds for another interpreter (its version X.Y) into dist/pyX.Y/, inside its own
persistent venv build/wheel-env-pyX.Y; native packages keep one build dir per wheel tag.
"""

from __future__ import annotations

import argparse
import dataclasses
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from monorepo import DIST_DIR, ROOT, Package, closure, discover, internal_names  # noqa: E402

# Not part of the wheel: changing them must not trigger a rebuild.
UNHASHED_TOP_LEVEL = {"tests", "benchmarks", "demo.py", "build", "dist"}
NATIVE_BUILD_TOOLS = ["cmake>=3.18", "ninja"]
RUN_ID_VAR = "TVM_STACK_BUILD_RUN"  # set by noxfile.py: one value per nox invocation


@dataclasses.dataclass(frozen=True)
class Target:
    """Where wheels for one interpreter are built: its build venv and its wheel folder."""

    interpreter: str
    env: Path
    dist: Path

    @property
    def stamps(self) -> Path:
        return self.dist / ".stamps"


DEFAULT_TARGET = Target(sys.executable, ROOT / "build" / "wheel-env", DIST_DIR)


def target_for(python: str) -> Target:
    """The Target of another interpreter, named by its X.Y version. The build venv is made
    from the real interpreter behind `python`, so it outlives a venv that `python` sits in."""
    code = "import os, sys; print('%d.%d' % sys.version_info[:2], os.path.realpath(sys.executable))"
    try:
        out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        raise SystemExit(
            f"build_wheels: --python {python} is not a runnable Python ({error})"
        ) from error
    version, interpreter = out.stdout.strip().split(" ", 1)
    return Target(interpreter, ROOT / "build" / f"wheel-env-py{version}", DIST_DIR / f"py{version}")


def find_uv() -> str | None:
    """The uv executable nox[uv] brought along, or one on PATH; None without uv."""
    try:
        from uv import find_uv_bin

        return find_uv_bin()
    except (ImportError, FileNotFoundError):
        return shutil.which("uv")


def run(cmd, **kwargs) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, **kwargs)


def env_python(env: Path) -> Path:
    return env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def pip_install(python: Path, args, uv: str | None) -> None:
    """Install into the venv of `python` with uv when present, else with that venv's pip."""
    if uv:
        run([uv, "pip", "install", "--python", python, *args])
    else:
        run([python, "-m", "pip", "install", "--disable-pip-version-check", *args])


def source_files(pkg: Package) -> list[Path]:
    """Files that go into pkg's wheel: git-visible ones when in a checkout, else a walk."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "."],
            cwd=pkg.path,
            capture_output=True,
            check=True,
        ).stdout.decode()
        rel = [Path(p) for p in out.split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        rel = [p.relative_to(pkg.path) for p in pkg.path.rglob("*") if p.is_file()]
    keep = [p for p in rel if p.parts[0] not in UNHASHED_TOP_LEVEL and "__pycache__" not in p.parts]
    return sorted(p for p in keep if (pkg.path / p).is_file())


def source_hash(pkg: Package, build_reqs: list[str], dep_hashes: list[str]) -> str:
    h = hashlib.sha256()
    for item in build_reqs + dep_hashes:
        h.update(item.encode() + b"\0")
    for rel in source_files(pkg):
        h.update(rel.as_posix().encode() + b"\0")
        h.update((pkg.path / rel).read_bytes())
    return h.hexdigest()


def wheels_of(pkg: Package, target: Target) -> list[Path]:
    return sorted(target.dist.glob(pkg.wheel_prefix + "*.whl"))


def read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def prepare_build_env(target: Target, requirements: list[str], uv: str | None) -> Path:
    """Create the target's build venv once; install the build requirements when they change."""
    python = env_python(target.env)
    if not python.exists():
        if uv:
            run([uv, "venv", "--quiet", "--python", target.interpreter, target.env])
        else:
            run([target.interpreter, "-m", "venv", target.env])
    stamp = target.env / "requirements.json"
    if read_json(stamp).get("requirements") != requirements:
        pip_install(python, requirements, uv)
        stamp.write_text(json.dumps({"requirements": requirements}))
    return python


def install_build_dependency(python: Path, pkg: Package, target: Target, uv: str | None) -> None:
    """Put our own wheel of pkg into the build env (e.g. tvm-ffi for a plugin build)."""
    stamp = target.env / f"installed-{pkg.name}.json"
    wheel = wheels_of(pkg, target)[-1]
    current = {
        "wheel": wheel.name,
        "hash": read_json(target.stamps / f"{pkg.name}.json").get("hash"),
    }
    if read_json(stamp) == current:
        return
    if uv:
        run(
            [
                uv,
                "pip",
                "install",
                "--python",
                python,
                "--no-deps",
                "--reinstall",
                "--refresh-package",
                pkg.name,
                wheel,
            ]
        )
    else:
        run([python, "-m", "pip", "install", "--no-deps", "--force-reinstall", wheel])
    stamp.write_text(json.dumps(current))


def build_one(pkg: Package, python: Path, target: Target, digest: str, uv: str | None) -> Path:
    for old in wheels_of(pkg, target):
        old.unlink()
    start = time.monotonic()
    if uv:
        run(
            [
                uv,
                "build",
                "--wheel",
                "--no-build-isolation",
                "--python",
                python,
                "--out-dir",
                target.dist,
                pkg.path,
            ]
        )
    else:
        run(
            [
                python,
                "-m",
                "pip",
                "wheel",
                "--no-build-isolation",
                "--no-deps",
                "--wheel-dir",
                target.dist,
                pkg.path,
            ]
        )
    built = wheels_of(pkg, target)
    if len(built) != 1:
        raise RuntimeError(
            f"build_one: expected one {pkg.name} wheel in {target.dist}, got {built}"
        )
    (target.stamps / f"{pkg.name}.json").write_text(
        json.dumps({"hash": digest, "wheel": built[0].name})
    )
    print(f"built {built[0].name} in {time.monotonic() - start:.1f}s", flush=True)
    return built[0]


def record_failure(pkg: Package, target: Target, digest: str) -> None:
    run_id = os.environ.get(RUN_ID_VAR, "")
    (target.stamps / f"{pkg.name}.failed.json").write_text(
        json.dumps({"hash": digest, "run": run_id})
    )


def check_not_failed_before(pkg: Package, target: Target, digest: str) -> None:
    """Within one nox run, a package that failed to build is not built again by every later
    session (a C++ build takes minutes); a new run or a source change tries again."""
    run_id = os.environ.get(RUN_ID_VAR, "")
    failed = read_json(target.stamps / f"{pkg.name}.failed.json")
    if run_id and failed == {"hash": digest, "run": run_id}:
        raise SystemExit(
            f"build_wheels: {pkg.name} failed to build earlier in this run "
            "(see that session's log); not trying the same sources again"
        )


def build_wheels(names: list[str] | None = None, target: Target = DEFAULT_TARGET) -> list[Path]:
    """Build (or reuse) the wheels of `names` and everything they need for `target`'s
    interpreter; return their paths."""
    packages = discover()
    unknown = sorted(set(names or ()) - set(packages))
    if unknown:
        raise SystemExit(f"build_wheels: unknown package(s) {unknown}; known: {list(packages)}")
    wanted: set[str] = set()
    for name in names or packages:
        wanted.update(closure(name, packages))
        for dep in internal_names(packages[name].build_requires, packages):
            wanted.update(closure(dep, packages))
    order = [p for n, p in packages.items() if n in wanted]
    # One build env for every package (not only those wanted now): its contents, and so
    # the source hashes, must not depend on which subset a session asks for.
    everything = packages.values()
    build_reqs = sorted(
        {str(r) for p in everything for r in p.build_requires if not internal_names([r], packages)}
        | (set(NATIVE_BUILD_TOOLS) if any(p.is_native for p in everything) else set())
    )
    target.stamps.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", "2")  # the machines have 2 cores
    uv = find_uv()
    hashes: dict[str, str] = {}
    with open(target.dist / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another checkout user may be building right now
        python = prepare_build_env(target, build_reqs, uv)
        for pkg in order:
            build_deps = internal_names(pkg.build_requires, packages)
            digest = source_hash(pkg, build_reqs, [hashes[d] for d in build_deps])
            hashes[pkg.name] = digest
            stamp = read_json(target.stamps / f"{pkg.name}.json")
            existing = wheels_of(pkg, target)
            if stamp.get("hash") == digest and [w.name for w in existing] == [stamp.get("wheel")]:
                print(f"{pkg.name}: {existing[0].name} is up to date", flush=True)
                continue
            check_not_failed_before(pkg, target, digest)
            for dep in build_deps:
                install_build_dependency(python, packages[dep], target, uv)
            try:
                build_one(pkg, python, target, digest, uv)
            except subprocess.CalledProcessError:
                record_failure(pkg, target, digest)
                raise
    return [wheels_of(p, target)[0] for p in order]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="*", help="package names (default: all)")
    parser.add_argument(
        "--python",
        help="build for this interpreter into dist/pyX.Y/ "
        "(default: the one running this script, into dist/)",
    )
    args = parser.parse_args(argv)
    target = target_for(args.python) if args.python else DEFAULT_TARGET
    for wheel in build_wheels(args.packages or None, target):
        print(wheel.relative_to(ROOT))


if __name__ == "__main__":
    main()
