# The one entry point for every task of the tvm-stack monorepo (tests, lint, wheels, demo, docs).
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import nox
from nox.command import CommandFailed

sys.path.insert(0, str(Path(__file__).resolve().parent / "ci"))
from build_wheels import RUN_ID_VAR, find_uv  # noqa: E402
from monorepo import DIST_DIR, ROOT, closure, discover, third_party_requirements  # noqa: E402

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = ["tests", "integration", "lint"]
# `compat` skips a Python this machine lacks instead of failing (nox's default on CI is to fail).
nox.options.error_on_missing_interpreters = False

PACKAGES = discover()
BUILD_RUN_ID = f"{os.getpid()}-{time.time()}"  # lets build_wheels skip a build that failed this run
# Test runner pieces every test venv gets, whatever a package's own `test` extra says.
# pip too: uv's venvs have none, and tests that install a package at run time need it.
TEST_TOOLS = ["pytest>=7", "pytest-timeout", "pip"]
PYTEST_TIMEOUT = "--timeout=300"  # a hung test fails instead of stalling CI
# Every pytest and ctest run writes JUnit XML here; ci/summarize_tests.py adds them up.
TEST_RESULTS = ROOT / "build" / "test-results"
# The supported Pythons besides the one nox runs on, which every other session uses.
COMPAT_PYTHONS = ["3.10", "3.12", "3.13"]


def add_inactive_pyenv_pythons(versions) -> None:
    """Let nox find pyenv-installed Pythons that pyenv has not activated: nox only sees
    pyenv's active versions. Appended to PATH, so they never shadow what PATH finds now."""
    root = os.environ.get("PYENV_ROOT")
    if not root:
        return
    found = []
    for wanted in versions:
        installs = [
            p
            for p in Path(root, "versions").glob(f"{wanted}.*")
            if p.name.removeprefix(f"{wanted}.").isdigit()
        ]
        newest = max(installs, key=lambda p: int(p.name.rsplit(".", 1)[1]), default=None)
        if newest and (newest / "bin" / f"python{wanted}").exists():
            found.append(str(newest / "bin"))
    os.environ["PATH"] = os.pathsep.join([os.environ.get("PATH", ""), *found])


add_inactive_pyenv_pythons(COMPAT_PYTHONS)


def build_wheels(session: nox.Session, *names: str, python: str | None = None) -> None:
    """Build (or reuse, per source hash) our wheels into dist/; runs outside the session venv.
    With `python`, builds for that interpreter into dist/pyX.Y/ instead."""
    target = ["--python", python] if python else []
    session.run(
        sys.executable,
        str(ROOT / "ci" / "build_wheels.py"),
        *target,
        *names,
        external=True,
        env={RUN_ID_VAR: BUILD_RUN_ID},
    )


def install_ours(session: nox.Session, names, extras=(), dist: Path = DIST_DIR) -> None:
    """Install our packages `names` with their closure: third-party requirements from the
    package index, our own packages only from dist/ (never an index). `extras` apply to
    `names` where a package declares them."""
    everything = list(dict.fromkeys(dep for name in names for dep in closure(name, PACKAGES)))
    third_party = third_party_requirements(everything, PACKAGES)
    for name in names:
        third_party += third_party_requirements([name], PACKAGES, extras)
    if third_party:
        session.install(*dict.fromkeys(third_party))
    wanted = []
    for name in names:
        declared = [e for e in extras if e in PACKAGES[name].extras]
        wanted.append(f"{name}[{','.join(declared)}]" if declared else name)
    # uv caches a find-links wheel by its file name, and a rebuilt wheel keeps its name.
    refresh = [f"--refresh-package={n}" for n in everything] if session.venv_backend == "uv" else []
    session.install("--no-index", "--find-links", str(dist), *refresh, *wanted)


def installed_cmake_prefixes(session: nox.Session) -> str:
    code = "import sysconfig as s; print(s.get_path('purelib'), s.get_path('platlib'), sep=';')"
    return session.run("python", "-c", code, silent=True).strip()


def run_cpp_tests(session: nox.Session, name: str) -> None:
    """Configure, build and ctest packages/<name>/tests/cpp against the installed wheels."""
    source = PACKAGES[name].path / "tests" / "cpp"
    build = ROOT / "build" / "cpp-tests" / name  # kept between runs: rebuilds are incremental
    session.install("cmake>=3.18", "ninja")
    session.run(
        "cmake",
        "-S",
        str(source),
        "-B",
        str(build),
        "-G",
        "Ninja",
        "-DCMAKE_BUILD_TYPE=Release",
        f"-DCMAKE_PREFIX_PATH={installed_cmake_prefixes(session)}",
        f"-DPython_EXECUTABLE={session.virtualenv.bin}/python",
    )
    session.run("cmake", "--build", str(build), "--parallel", "2")
    session.run(
        "ctest",
        "--test-dir",
        str(build),
        "--output-on-failure",
        "--no-tests=error",
        "--output-junit",
        junit_xml(session, "ctest"),
    )


@nox.session
@nox.parametrize("package", list(PACKAGES), ids=list(PACKAGES))
def tests(session: nox.Session, package: str) -> None:
    """One package's tests in a venv holding only that package's dependency closure."""
    tests_dir = PACKAGES[package].path / "tests"
    if not tests_dir.is_dir():
        session.error(f"packages/{package} has no tests/ folder")
    build_wheels(session, package)
    session.install(*TEST_TOOLS)
    install_ours(session, [package], extras=["test", "onnx"])
    if package in ONNX_TESTED:
        session.install(*ONNX_TEST_REFERENCE)
    if package in TORCH_TESTED:
        install_local_torch(session)
    run_pytest(session, package)
    if (tests_dir / "cpp" / "CMakeLists.txt").exists():
        run_cpp_tests(session, package)


# Packages whose tests check the ONNX frontend (the onnx extra) against onnxruntime.
ONNX_TESTED = {"tvm-compiler"}
ONNX_TEST_REFERENCE = ("onnxruntime",)

# Packages whose tests also exchange tensors with PyTorch (they skip, naming it, without it).
TORCH_TESTED = {"tvm-ffi", "tvm-compiler"}
# A folder of wheels this machine keeps on disk; this image holds a CPU build of PyTorch
# there. Installing torch from an index would fetch a multi-GB CUDA build instead.
LOCAL_WHEELS = Path(os.environ.get("TVM_LOCAL_WHEELS", "/opt/wheels"))


def install_local_torch(session: nox.Session) -> None:
    """Install PyTorch from LOCAL_WHEELS when a wheel for this Python lies there."""
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    found = sorted(LOCAL_WHEELS.glob(f"torch-*-{tag}-{tag}-*.whl"))
    if not found:
        session.log(f"no PyTorch wheel for {tag} in {LOCAL_WHEELS}: the PyTorch tests will skip")
        return
    session.install(str(found[-1]))


def junit_xml(session: nox.Session, tool: str) -> str:
    """This session's JUnit XML file for `tool`: "tests(tvm-ffi)" -> tests-tvm-ffi.pytest.xml."""
    TEST_RESULTS.mkdir(parents=True, exist_ok=True)
    name = "".join(c if c.isalnum() or c in "._-" else "-" for c in session.name).strip("-")
    return str(TEST_RESULTS / f"{name}.{tool}.xml")


def run_pytest(session: nox.Session, package: str) -> None:
    tests_dir = PACKAGES[package].path / "tests"
    try:
        session.run(
            "pytest",
            str(tests_dir.relative_to(ROOT)),
            PYTEST_TIMEOUT,
            f"--junitxml={junit_xml(session, 'pytest')}",
            *session.posargs,
        )
    except CommandFailed as failure:
        if failure.return_code == 5:  # pytest's exit code for "no test collected"
            session.error(f"pytest collected no test in packages/{package}/tests")
        raise


# CPUs that stand in for the host in `host_targets`: AVX2 and plain x86-64 (SSE2).
HOST_STAND_INS = ["x86-64-v3", "x86-64"]


@nox.session
@nox.parametrize("cpu", HOST_STAND_INS, ids=HOST_STAND_INS)
def host_targets(session: nox.Session, cpu: str) -> None:
    """The compiler's tests with the host's default target forced to an older CPU
    (TVM_STACK_HOST_TARGET), so a test that secretly depends on this machine's ISA fails
    here, on every machine, not only on the one that lacks it."""
    build_wheels(session, "tvm-compiler")
    session.install(*TEST_TOOLS)
    install_ours(session, ["tvm-compiler"], extras=["test"])
    probe = "from tvm.target.simd import host_target_override as h; h()"
    if not passes(session, ["python", "-c", probe], env={"TVM_STACK_HOST_TARGET": cpu}):
        session.skip(f"this machine's CPU cannot run code built for {cpu}")
    session.env["TVM_STACK_HOST_TARGET"] = cpu
    run_pytest(session, "tvm-compiler")


@nox.session(python=COMPAT_PYTHONS, download_python="never")
def compat(session: nox.Session) -> None:
    """tvm-ffi's pytest suite on each other supported Python found on this machine, against
    a wheel built for that Python (kept per source state in dist/pyX.Y/)."""
    python = str(Path(session.bin) / "python")
    build_wheels(session, "tvm-ffi", python=python)
    session.install(*TEST_TOOLS)
    install_ours(session, ["tvm-ffi"], extras=["test"], dist=DIST_DIR / f"py{session.python}")
    run_pytest(session, "tvm-ffi")


def install_everything(session: nox.Session, extras=()) -> None:
    build_wheels(session)
    install_ours(session, list(PACKAGES), extras)


@nox.session
def integration(session: nox.Session) -> None:
    """Cross-package tests (top-level tests/) with every package installed from its wheel."""
    install_everything(session, extras=["test"])
    session.install("-r", "tests/requirements.txt", *TEST_TOOLS)
    session.run(
        "pytest",
        "tests",
        PYTEST_TIMEOUT,
        f"--junitxml={junit_xml(session, 'pytest')}",
        *session.posargs,
        env={"TVM_STACK_DIST": str(DIST_DIR)},
    )


@nox.session
def lint(session: nox.Session) -> None:
    """ruff's checks, `ruff format --check` and clang-format over the whole tree, then the
    import contracts on a regular install of every wheel."""
    session.install("ruff", "import-linter", "clang-format", "tomli; python_version < '3.11'")
    install_everything(session)
    checks = {
        "ruff": ["ruff", "check", "."],
        "ruff format": ["ruff", "format", "--check", "."],
        "clang-format": ["python", "ci/check_cpp_format.py"],
        "import contracts": ["python", "ci/lint_imports.py"],
    }
    failed = [name for name, command in checks.items() if not passes(session, command)]
    if failed:  # both checks ran, so one report shows every problem
        session.error(f"lint failed: {', '.join(failed)}")


def passes(session: nox.Session, command, env=None) -> bool:
    try:
        session.run(*command, env=env)
    except CommandFailed:
        return False
    return True


@nox.session
def wheels(session: nox.Session) -> None:
    """Every package's wheel into dist/ (reused when its sources did not change)."""
    build_wheels(session, *session.posargs)


def scripts_in_dag_order(pattern: str) -> list[Path]:
    return [s for pkg in PACKAGES.values() for s in sorted(pkg.path.glob(pattern))]


def run_scripts(session: nox.Session, scripts, env_for=lambda script: {}) -> None:
    """Run every script, even after one fails; then fail naming the ones that did."""
    failed = []
    for script in scripts:
        session.log(f"=== {script.relative_to(ROOT)} ===")
        if not passes(session, ["python", str(script), *session.posargs], env=env_for(script)):
            failed.append(str(script.relative_to(ROOT)))
    if failed:
        session.error(f"failed: {', '.join(failed)}")


@nox.session
def demo(session: nox.Session) -> None:
    """The end-to-end tour: each package's demo.py, lowest layer first."""
    install_everything(session, extras=["demo"])
    demos = [d for pkg in PACKAGES.values() for d in sorted(pkg.path.glob("demo*.py"))]
    run_scripts(session, demos)


def reference_python(session: nox.Session, requirements: Path) -> str:
    """A separate venv (kept in .nox/) holding a benchmark's reference implementation,
    installed from requirements-reference.txt; returns its python."""
    venv = ROOT / ".nox" / f"bench-reference-{requirements.parent.parent.name}"
    python = venv / "bin" / "python"
    uv = find_uv()
    if uv:
        if not python.exists():
            session.run(uv, "venv", "--quiet", "--python", sys.executable, str(venv), external=True)
        session.run(
            uv,
            "pip",
            "install",
            "--quiet",
            "--python",
            str(python),
            "-r",
            str(requirements),
            external=True,
        )
    else:
        if not python.exists():
            session.run(sys.executable, "-m", "venv", str(venv), external=True)
        session.run(
            str(python), "-m", "pip", "install", "-q", "-r", str(requirements), external=True
        )
    return str(python)


@nox.session
def bench(session: nox.Session) -> None:
    """Every packages/*/benchmarks/bench_*.py, printing its figures (never asserted)."""
    install_everything(session, extras=["bench"])
    # A bench_*_reference.py is a helper the benchmark runs in its reference venv.
    scripts = [
        s
        for s in scripts_in_dag_order("benchmarks/bench_*.py")
        if not s.stem.endswith("_reference")
    ]
    if not scripts:
        session.error("no packages/*/benchmarks/bench_*.py found")

    def reference_env(script: Path) -> dict[str, str]:
        reference = script.parent / "requirements-reference.txt"
        if not reference.exists():
            return {}
        return {"TVM_BENCH_REFERENCE_PYTHON": reference_python(session, reference)}

    run_scripts(session, scripts, reference_env)


@nox.session
def docs(session: nox.Session) -> None:
    """Check every relative link of the Markdown docs, build the site with its API reference
    (MkDocs, strict), then run every command and code block of docs/*.md and the READMEs in a
    fresh venv built as the pages say (ci/run_docs.py). Arguments name the pages to run."""
    session.run(sys.executable, "ci/check_docs.py", external=True)
    session.install("mkdocs>=1.6", "mkdocstrings[python]>=0.26")
    session.run("mkdocs", "build", "--strict", "--quiet")
    build_wheels(session)  # the pages install from dist/
    session.run(sys.executable, "ci/run_docs.py", *session.posargs, external=True)
