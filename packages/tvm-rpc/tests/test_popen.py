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


@pytest.mark.parametrize("spin_us", ["0", "100"])
def test_reads_work_with_and_without_polling(spin_us):
    # Reads poll for TVM_RPC_SPIN_US before they block; both ways must carry every call.
    import subprocess
    import sys

    code = (
        "import numpy as np, tvm, tvm.rpc as rpc\n"
        "with rpc.PopenSession() as sess:\n"
        "    data = np.arange(1000, dtype='float32')\n"
        "    assert (tvm.runtime.tensor(data, sess.cpu()).numpy() == data).all()\n"
        "    pid = sess.get_function('rpc.GetPid')\n"
        "    assert all(pid() == pid() for _ in range(50))\n"
        "print('ok')\n"
    )
    env = dict(os.environ, TVM_RPC_SPIN_US=spin_us)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
