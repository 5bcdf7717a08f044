"""PopenSession: a child process over pipes."""

import os

import numpy as np
import pytest

import tvm
import tvm.rpc as rpc
from tvm.error import RPCError


def test_popen_session_serves_in_a_child():
    with rpc.PopenSession() as sess:
        child = sess._proc
        assert sess.get_function("rpc.GetPid")() == child.pid != os.getpid()
        data = np.arange(100_000, dtype="int32")
        np.testing.assert_array_equal(tvm.runtime.tensor(data, sess.cpu()).numpy(), data)
        with pytest.raises(ValueError, match="no function named"):
            sess.get_function("rpc_test.add")  # the child does not see this process's functions
    assert child.poll() is not None  # closing killed it


def test_missing_program(tmp_path):
    missing = tmp_path / "no-such-server"
    with pytest.raises(RuntimeError, match="does not exist") as info:
        rpc.PopenSession(str(missing))
    assert isinstance(info.value, RPCError) and str(missing) in str(info.value)


def test_non_executable_program(tmp_path):
    program = tmp_path / "server.sh"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o644)
    with pytest.raises(RuntimeError, match="is not executable"):
        rpc.PopenSession(str(program))
    with pytest.raises(RuntimeError, match="is a directory"):
        rpc.PopenSession(str(tmp_path))


def test_program_that_does_not_speak_rpc(tmp_path):
    program = tmp_path / "quits.sh"
    program.write_text("#!/bin/sh\nexit 4\n")
    program.chmod(0o755)
    with pytest.raises(RPCError, match="exited with code 4 without completing the RPC handshake"):
        rpc.PopenSession(str(program))


def test_bad_binary_argument():
    with pytest.raises(TypeError, match="'binary'"):
        rpc.PopenSession(42)
