"""tvm-ffi-stubgen / python -m tvm_ffi.stub: fills directive blocks with stubs of a plugin's
globals and object types."""

import os
import subprocess
import sys

import pytest
from native_build import build_library
from upstream_examples import INT_PAIR

API = '''"""My extension's API."""
from typing import TYPE_CHECKING, Any

import tvm_ffi
from tvm_ffi import init_ffi_api as _FFI_INIT_FUNC

# tvm-ffi-stubgen(begin): global/my_ffi_extension
# tvm-ffi-stubgen(end)


@tvm_ffi.register_object("my_ffi_extension.IntPair")
class IntPair(tvm_ffi.Object):
    # tvm-ffi-stubgen(begin): object/my_ffi_extension.IntPair
    # tvm-ffi-stubgen(end)
    pass
'''


@pytest.fixture(scope="module")
def plugin(tmp_path_factory):
    return build_library(
        tmp_path_factory.mktemp("plugin"), "int_pair", INT_PAIR, "c++", link_ffi=True
    )


def _stubgen(*args, module="tvm_ffi.stub"):
    return subprocess.run(
        [sys.executable, "-m", module, *map(str, args)], capture_output=True, text=True, timeout=120
    )


def test_fills_global_and_object_blocks(tmp_path, plugin):
    api = tmp_path / "my_ffi_extension.py"
    api.write_text(API)
    done = _stubgen("--dlls", plugin, api)
    assert done.returncode == 0, done.stderr
    text = api.read_text()
    assert '    _FFI_INIT_FUNC("my_ffi_extension", __name__)' not in text  # at the block's indent
    assert '_FFI_INIT_FUNC("my_ffi_extension", __name__)\nif TYPE_CHECKING:\n' in text
    for line in (
        "    def add_one(*args: Any) -> Any: ...",
        "    def pair_sum(*args: Any) -> Any: ...",
        "    def raise_error(*args: Any) -> Any: ...",
        "    a: Any",
        "    b: Any",
        "        def __init__(self, *args: Any) -> None: ...",
        "        def sum(self, *args: Any) -> Any: ...",
    ):
        assert line + "\n" in text, (line, text)
    # The generated module works: its globals are bound and the class constructs.
    code = f"""
import sys, tvm_ffi
tvm_ffi.load_module({str(plugin)!r})
sys.path.insert(0, {str(tmp_path)!r})
import my_ffi_extension as m
p = m.IntPair(2, 3)
print(m.add_one(1), m.pair_sum(p), p.sum())
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["2", "5", "5"]
    # A second run changes nothing, and --check agrees.
    assert _stubgen("--dlls", plugin, tmp_path, module="tvm_ffi.stub.cli").returncode == 0
    assert api.read_text() == text
    assert _stubgen("--check", "--dlls", plugin, api).returncode == 0


def test_check_and_dry_run_write_nothing(tmp_path, plugin):
    api = tmp_path / "api.pyi"
    api.write_text(API)
    done = _stubgen("--check", "--dlls", plugin, api)
    assert done.returncode == 1 and "out of date" in done.stderr
    done = _stubgen("--dry-run", "--dlls", plugin, api)
    assert done.returncode == 0 and "+    def add_one(*args: Any) -> Any: ..." in done.stdout
    assert api.read_text() == API


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "# tvm-ffi-stubgen(begin): object/no.such.Type\n# tvm-ffi-stubgen(end)\n",
            "type `no.such.Type` is not registered",
        ),
        ("# tvm-ffi-stubgen(begin): global/x\n", "has no matching `tvm-ffi-stubgen(end)`"),
        ("# tvm-ffi-stubgen(end)\n", "without a matching begin"),
    ],
)
def test_bad_directives_are_clear_errors(tmp_path, text, message):
    api = tmp_path / "bad.py"
    api.write_text(text)
    done = _stubgen(api)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and "bad.py:1" in done.stderr
    assert api.read_text() == text


def test_missing_path_and_library_are_clear_errors(tmp_path):
    done = _stubgen(tmp_path / "nope.py")
    assert done.returncode == 2 and "is neither a file nor a folder" in done.stderr
    done = _stubgen("--dlls", tmp_path / "missing.so", tmp_path)
    assert done.returncode == 2 and "missing.so" in done.stderr


def test_console_script_is_installed():
    script = os.path.join(os.path.dirname(sys.executable), "tvm-ffi-stubgen")
    if not os.path.exists(script):
        pytest.skip("tvm-ffi is not installed as a wheel here (no console scripts)")
    done = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "tvm-ffi-stubgen" in done.stdout
