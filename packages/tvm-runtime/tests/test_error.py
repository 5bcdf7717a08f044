"""Error kinds: class hierarchy, FFI round trips, no TVMError, the short DiagnosticError report."""

from __future__ import annotations

import pytest
import tvm
import tvm_ffi
from conftest import run_python
from tvm import error

HIERARCHY = {
    "InternalError": (RuntimeError,),
    "RPCError": (RuntimeError,),
    "OpError": (RuntimeError,),
    "DiagnosticError": (RuntimeError,),
    "ScheduleError": (RuntimeError,),
    "RPCSessionTimeoutError": (error.RPCError, TimeoutError),
    "OpNotImplemented": (error.OpError, NotImplementedError),
    "OpAttributeRequired": (error.OpError, AttributeError),
    "OpAttributeInvalid": (error.OpError, AttributeError),
}


@pytest.mark.parametrize("name", sorted(HIERARCHY))
def test_direct_bases(name):
    assert getattr(error, name).__bases__ == HIERARCHY[name]


@pytest.mark.parametrize("name", sorted(HIERARCHY))
def test_ffi_error_of_kind_surfaces_as_class(name):
    raise_error = tvm_ffi.get_global_func("testing.test_raise_error")
    with pytest.raises(getattr(error, name)) as info:
        raise_error(name, f"{name} from C++")
    assert f"{name} from C++" in str(info.value)


def test_python_raised_kind_crosses_a_callback():
    def callback():
        raise error.ScheduleError("cannot split a reduction here")

    apply = tvm_ffi.get_global_func("testing.apply")
    with pytest.raises(error.ScheduleError, match="cannot split a reduction here"):
        apply(callback)


def test_no_tvm_error_anywhere():
    for module in (tvm, tvm.error, tvm.base):
        assert not hasattr(module, "TVMError")


DIAGNOSTIC_SCRIPT = """
import tvm_ffi
import tvm

def compile_user_program():
    raise_error = tvm_ffi.get_global_func("testing.test_raise_error")
    raise_error("DiagnosticError", "error: x is undefined\\n --> prog.py:3:5")

compile_user_program()
"""


def frame_lines(text):
    return [line.strip() for line in text.splitlines() if line.strip().startswith('File "')]


def test_uncaught_diagnostic_error_is_short_and_full_with_tvm_backtrace():
    short = run_python(DIAGNOSTIC_SCRIPT)
    full = run_python(DIAGNOSTIC_SCRIPT, env={"TVM_BACKTRACE": "1"})
    assert short.returncode == 1 and full.returncode == 1
    assert "tvm.error.DiagnosticError: error: x is undefined\n --> prog.py:3:5" in short.stderr
    assert "DiagnosticError: error: x is undefined" in full.stderr
    assert "TVM_BACKTRACE=1" in short.stderr and "TVM_BACKTRACE=1" not in full.stderr
    user = [line for line in frame_lines(full.stderr) if line.startswith('File "<string>"')]
    internal = [line for line in frame_lines(full.stderr) if not line.startswith('File "<string>"')]
    assert internal, "the full trace should show the FFI's frames (the C++ frame raising the error)"
    assert frame_lines(short.stderr) == user
    assert any("compile_user_program" in line for line in user)


def test_other_uncaught_errors_use_the_normal_hook():
    proc = run_python("import tvm\nraise KeyError('plain')\n")
    assert proc.returncode == 1
    assert "KeyError: 'plain'" in proc.stderr and "TVM_BACKTRACE" not in proc.stderr
