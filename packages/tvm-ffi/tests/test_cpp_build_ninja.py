"""tvm_ffi.cpp.extension.build_ninja: runs ninja in a build directory, errors carry its output."""

import logging
import shutil

import pytest
from tvm_ffi.cpp import extension

pytestmark = pytest.mark.skipif(shutil.which("ninja") is None, reason="needs ninja on PATH")


def write_build(tmp_path, command):
    (tmp_path / "build.ninja").write_text(f"rule run\n  command = {command}\nbuild out.txt: run\n")


def test_build_ninja_runs_the_build(tmp_path, monkeypatch, caplog):
    write_build(tmp_path, "echo built > out.txt")
    monkeypatch.setenv("MAX_JOBS", "1")
    monkeypatch.setenv("TVM_FFI_CPP_EXTENSION_LOG_BUILD", "stdout")
    with caplog.at_level(logging.INFO, logger=extension.logger.name):
        extension.build_ninja(str(tmp_path))
    assert (tmp_path / "out.txt").read_text().strip() == "built"
    assert "ninja build stdout" in caplog.text and "echo built" in caplog.text


def test_build_ninja_failure_shows_ninja_output(tmp_path):
    write_build(tmp_path, "echo compiler-says-no 1>&2; exit 3")
    with pytest.raises(RuntimeError, match=r"ninja exited with status [1-9]") as info:
        extension.build_ninja(str(tmp_path))
    assert "compiler-says-no" in str(info.value) and "FAILED" in str(info.value)
    assert extension.IS_WINDOWS is False
