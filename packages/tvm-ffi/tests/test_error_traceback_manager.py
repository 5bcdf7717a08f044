"""tvm_ffi.error.TracebackManager: traceback entries for native frames, as upstream has it."""

import traceback

import pytest
from tvm_ffi.error import TracebackManager


def test_append_traceback_puts_the_new_frame_in_front():
    manager = TracebackManager()
    inner = manager.append_traceback(None, "kernel.cc", 42, "Compute")
    outer = manager.append_traceback(inner, "module.cc", 7, "Call")
    assert outer.tb_next is inner and inner.tb_next is None
    assert (outer.tb_lineno, outer.tb_frame.f_code.co_filename, outer.tb_frame.f_code.co_name) == (
        7,
        "module.cc",
        "Call",
    )
    err = RuntimeError("boom").with_traceback(outer)
    text = "".join(traceback.format_exception(err))
    assert text.index('File "module.cc", line 7, in Call') < text.index(
        'File "kernel.cc", line 42, in Compute'
    )


def test_append_traceback_rejects_bad_arguments():
    manager = TracebackManager()
    with pytest.raises(TypeError, match="argument `tb` must be a traceback or None, got str"):
        manager.append_traceback("tb", "f.cc", 1, "f")
    with pytest.raises(TypeError, match="`filename` and `func` must be str"):
        manager.append_traceback(None, 3, 1, "f")
