"""tvm.compile is provided by tvm-compiler: without it, a clear AttributeError names the package."""

import subprocess
import sys

import pytest


def test_compile_without_compiler_names_the_package():
    code = (
        "import importlib.util, tvm\n"
        "if importlib.util.find_spec('tvm.driver') is not None:\n"
        "    print('COMPILER-INSTALLED')\n"
        "else:\n"
        "    try:\n"
        "        tvm.compile\n"
        "    except AttributeError as err:\n"
        "        print(err)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    if "COMPILER-INSTALLED" in out:
        pytest.skip("tvm-compiler is installed in this venv; the missing-package path cannot run")
    assert "tvm-compiler" in out


def test_unknown_attribute_is_attribute_error():
    import tvm

    with pytest.raises(AttributeError, match="no attribute 'not_a_thing'"):
        tvm.not_a_thing  # noqa: B018
