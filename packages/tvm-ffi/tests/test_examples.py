"""The examples build and run: the get_started wheel, the pure C plugin, and mypy over the stubs."""

from __future__ import annotations

import importlib.util
import math
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
import tvm_ffi

PACKAGE_DIR = Path(__file__).resolve().parent.parent
EXAMPLES = PACKAGE_DIR / "examples"
GET_STARTED = EXAMPLES / "get_started"
C_ABI = EXAMPLES / "c_abi"
BUILD_TIMEOUT_S = 240
# The machine is shared: builds use at most two jobs.
BUILD_ENV = {**os.environ, "CMAKE_BUILD_PARALLEL_LEVEL": "2"}


def _find_compiler(env_var: str, names: tuple[str, ...]) -> str | None:
    for name in (os.environ.get(env_var), *names):
        if name and shutil.which(name.split()[0]):
            return name
    return None


def _missing_wheel_build_tools() -> list[str]:
    missing = []
    if _find_compiler("CXX", ("c++", "g++", "clang++")) is None:
        missing.append("a C++ compiler (c++, g++ or clang++)")
    for module in ("pip", "scikit_build_core"):
        if importlib.util.find_spec(module) is None:
            missing.append(f"the Python package {module}")
    if shutil.which("cmake") is None and importlib.util.find_spec("cmake") is None:
        missing.append("cmake")
    return missing


def _run(command: list[str], **kwargs) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S, env=BUILD_ENV, **kwargs
    )
    if result.returncode != 0:
        pytest.fail(f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}")
    return result


@pytest.fixture(scope="module")
def get_started_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    missing = _missing_wheel_build_tools()
    if missing:
        pytest.skip(f"building the get_started wheel needs {', '.join(missing)}")
    root = tmp_path_factory.mktemp("get_started")
    wheel_dir = root / "wheels"
    _run(
        [
            sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps",
            "--wheel-dir", str(wheel_dir),
            f"--config-settings=build-dir={root / 'build'}",
            str(GET_STARTED),
        ]
    )  # fmt: skip
    (wheel,) = wheel_dir.glob("tvm_ffi_get_started-*.whl")
    return wheel


@pytest.fixture(scope="module")
def get_started_site(get_started_wheel: Path) -> Path:
    """A folder the wheel is installed into, as pip would into site-packages."""
    site = get_started_wheel.parent.parent / "site"
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--target",
            str(site),
            str(get_started_wheel),
        ]
    )
    return site


@pytest.fixture(scope="module")
def plugin(get_started_site: Path):
    sys.path.insert(0, str(get_started_site))
    try:
        import tvm_ffi_get_started

        yield tvm_ffi_get_started
    finally:
        sys.path.remove(str(get_started_site))
        sys.modules.pop("tvm_ffi_get_started", None)


def test_get_started_wheel_is_py3_none_with_the_library(get_started_wheel: Path) -> None:
    assert get_started_wheel.name.split("-")[2:4] == ["py3", "none"]
    with zipfile.ZipFile(get_started_wheel) as wheel:
        names = wheel.namelist()
        wheel_meta = next(n for n in names if n.endswith(".dist-info/WHEEL"))
        tags = [
            line.split(": ", 1)[1]
            for line in wheel.read(wheel_meta).decode().splitlines()
            if line.startswith("Tag: ")
        ]
    assert tags and all(tag.startswith("py3-none-") for tag in tags)
    assert "tvm_ffi_get_started/lib/libtvm_ffi_get_started.so" in names
    assert "tvm_ffi_get_started/__init__.py" in names


def test_add_one_matches_numpy(plugin) -> None:
    x = np.random.default_rng(0).standard_normal(1000).astype("float32")
    y = np.zeros_like(x)
    plugin.add_one(x, y)
    np.testing.assert_array_equal(y, x + np.float32(1))


def test_add_one_honours_strides_and_empty_vectors(plugin) -> None:
    x = np.arange(20, dtype="float32")
    y = np.full(20, -7.0, dtype="float32")
    plugin.add_one(x[::4], y[1::4])
    expected = np.full(20, -7.0, dtype="float32")
    expected[1::4] = x[::4] + 1
    np.testing.assert_array_equal(y, expected)
    empty = np.zeros(0, dtype="float32")
    plugin.add_one(empty, empty)


def test_add_one_from_torch(plugin) -> None:
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    x = torch.linspace(-3, 3, 101, dtype=torch.float32)
    y = torch.empty_like(x)
    plugin.add_one(x, y)
    assert torch.equal(y, x + 1)


@pytest.mark.parametrize(
    "x, y, pattern",
    [
        (
            np.zeros(4, "float64"),
            np.zeros(4, "float32"),
            r"argument `x` must have dtype float32, got float64",
        ),
        (
            np.zeros(4, "float32"),
            np.zeros(4, "int32"),
            r"argument `y` must have dtype float32, got int32",
        ),
        (
            np.zeros((2, 2), "float32"),
            np.zeros(4, "float32"),
            r"argument `x` must be 1-dimensional",
        ),
        (
            np.zeros(4, "float32"),
            np.zeros(5, "float32"),
            r"argument `y` must have the length of `x` \(4\)",
        ),
    ],
    ids=["x-dtype", "y-dtype", "x-shape", "y-length"],
)
def test_add_one_rejects_bad_tensors_naming_the_argument(plugin, x, y, pattern) -> None:
    with pytest.raises(ValueError, match=pattern):
        plugin.add_one(x, y)


def test_add_one_rejects_a_non_tensor(plugin) -> None:
    with pytest.raises(TypeError, match=r"add_one"):
        plugin.add_one([1.0, 2.0], np.zeros(2, "float32"))


def test_fibonacci_typed_scalar_function(plugin) -> None:
    a, b = 0, 1
    for n in range(93):
        assert plugin.fibonacci(n) == a
        a, b = b, a + b
    with pytest.raises(ValueError, match=r"fibonacci: argument `n` must be in \[0, 92\], got -1"):
        plugin.fibonacci(-1)
    with pytest.raises(TypeError, match=r"fibonacci"):
        plugin.fibonacci("ten")


def test_get_started_script_prints_what_the_readme_shows(get_started_site: Path) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(get_started_site), os.environ.get("PYTHONPATH", "")]),
    }
    out = subprocess.run(
        [sys.executable, str(GET_STARTED / "run_get_started.py")],
        capture_output=True, text=True, timeout=120, env=env, check=True,
    ).stdout  # fmt: skip
    assert "numpy:  add_one [0. 1. 2. 3. 4.] -> [1. 2. 3. 4. 5.]" in out
    assert "float64 input -> add_one: argument `x` must have dtype float32, got float64" in out
    assert "fibonacci(50) = 12586269025" in out


def test_a_statically_linked_cxx_runtime_stays_private(tmp_path: Path) -> None:
    # Some toolchains link libstdc++ into every library (a CUDA image's g++ did). Exported,
    # that copy binds to the process's libstdc++.so.6 of another version: the two runtimes
    # mix and formatting a number into an error message crashed.
    cxx = _find_compiler("CXX", ("c++", "g++"))
    cmake = shutil.which("cmake")
    nm = shutil.which("nm")
    if cxx is None or cmake is None or nm is None:
        pytest.skip("needs a C++ compiler, cmake and nm (binutils) on PATH")
    archive = subprocess.run(
        [*cxx.split(), "-print-file-name=libstdc++.a"], capture_output=True, text=True, timeout=60
    ).stdout.strip()
    if not os.path.isabs(archive):
        pytest.skip(f"{cxx} has no static libstdc++ (libstdc++.a) to link in")
    build = tmp_path / "build"
    _run([cmake, "-S", str(GET_STARTED), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
          f"-Dtvm_ffi_DIR={tvm_ffi.libinfo.find_cmake_path()}",
          "-DCMAKE_SHARED_LINKER_FLAGS=-static-libstdc++"])  # fmt: skip
    _run([cmake, "--build", str(build)])
    library = build / "libtvm_ffi_get_started.so"
    listing = _run([nm, "-D", "--defined-only", "--format=posix", str(library)]).stdout
    exported = {line.split()[0] for line in listing.splitlines() if line.strip()}
    assert {"__tvm_ffi_add_one", "__tvm_ffi_fibonacci"} <= exported
    leaked = sorted(exported & {"__cxa_throw", "_ZNSt6locale7classicEv"})
    assert not leaked, f"the library exports libstdc++ symbols {leaked}"


@pytest.fixture(scope="module")
def c_plugin(tmp_path_factory: pytest.TempPathFactory) -> tvm_ffi.Module:
    if _find_compiler("CC", ("cc", "gcc", "clang")) is None:
        pytest.skip("the C example needs a C compiler (cc, gcc or clang)")
    library = tmp_path_factory.mktemp("c_abi") / "libvector_sum.so"
    _run([sys.executable, str(C_ABI / "build_c_abi.py"), "--output", str(library)])
    return tvm_ffi.load_module(library)


def test_c_plugin_exports_only_through_the_c_abi(c_plugin: tvm_ffi.Module) -> None:
    assert c_plugin.kind == "library"
    assert "vector_sum" in c_plugin and "gcd" in c_plugin
    assert "c_api.h" in (C_ABI / "vector_sum.c").read_text()
    assert "tvm_ffi/function.h" not in (C_ABI / "vector_sum.c").read_text()


def test_c_plugin_vector_sum_matches_numpy(c_plugin: tvm_ffi.Module) -> None:
    x = np.random.default_rng(1).standard_normal(257).astype("float32")
    assert c_plugin["vector_sum"](x) == pytest.approx(float(x.astype("float64").sum()), rel=1e-6)
    assert c_plugin["vector_sum"](x[::5]) == pytest.approx(
        float(x[::5].astype("float64").sum()), rel=1e-6
    )
    assert c_plugin["vector_sum"](np.zeros(0, "float32")) == 0.0


def test_c_plugin_gcd_matches_math(c_plugin: tvm_ffi.Module) -> None:
    for a, b in [(84, 36), (-12, 18), (0, 5), (7, 0), (2**40, 2**20 * 3)]:
        assert c_plugin.gcd(a, b) == math.gcd(a, b)


def test_c_plugin_bad_input_raises_named_errors(c_plugin: tvm_ffi.Module) -> None:
    with pytest.raises(ValueError, match=r"vector_sum: argument `x` must have dtype float32"):
        c_plugin["vector_sum"](np.zeros(3, "int32"))
    with pytest.raises(ValueError, match=r"vector_sum: argument `x` must be 1-dimensional"):
        c_plugin["vector_sum"](np.zeros((2, 2), "float32"))
    with pytest.raises(TypeError, match=r"vector_sum: argument `x` must be a tensor"):
        c_plugin["vector_sum"]("not a tensor")
    with pytest.raises(TypeError, match=r"vector_sum: expected 1 arguments, got 2"):
        c_plugin["vector_sum"](np.zeros(3, "float32"), 1)
    with pytest.raises(TypeError, match=r"gcd: argument `b` must be an int"):
        c_plugin.gcd(4, True)


def _type_check_env() -> dict[str, str]:
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed")
    # The stubs of this checkout, whatever tvm_ffi wheel is installed.
    return {**os.environ, "MYPYPATH": str(PACKAGE_DIR / "python")}


def _mypy(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / ".mypy_cache"), *args],
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_S,
        env=_type_check_env(),
        cwd=tmp_path,
    )


def test_examples_pass_mypy_strict(tmp_path: Path) -> None:
    result = _mypy(tmp_path, "--strict", str(EXAMPLES))
    assert result.returncode == 0, result.stdout + result.stderr


def test_stubs_make_mypy_reject_wrong_types(tmp_path: Path) -> None:
    bad = tmp_path / "misuse.py"
    bad.write_text(
        "import tvm_ffi\n"
        "mod = tvm_ffi.load_module(3)\n"
        "index: str = tvm_ffi.device('cpu').device_id\n"
        "maybe = tvm_ffi.get_global_func('x', allow_missing=True)\n"
        "maybe(1)\n"
        "bits: str = tvm_ffi.dtype('float32').bits\n"
    )
    result = _mypy(tmp_path, str(bad))
    assert result.returncode == 1
    for line in (2, 3, 5, 6):
        assert f"misuse.py:{line}: error" in result.stdout, result.stdout


def test_stubs_match_the_installed_runtime(tmp_path: Path) -> None:
    # nanobind functions are not introspectable: stubtest cannot read their signatures.
    allowlist = tmp_path / "allowlist.txt"
    # register_object / py_class set these on each registered class at import time.
    allowlist.write_text("tvm_ffi\\._core\\.[a-z_]+\n.*\\.__tvm_ffi_(type_info|py_fields)__\n")
    env = _type_check_env()
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "--ignore-disjoint-bases"]
        + ["--allowlist", str(allowlist), "tvm_ffi"],
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_S,
        env=env,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
