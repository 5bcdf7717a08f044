"""What a server survives: idle connections past its limits, running out of descriptors,
slow handshakes, sessions expiring while their clients do not read, killed workers."""

import os
import select
import socket
import subprocess
import sys
import tempfile
import textwrap
import time

import pytest
import tvm.rpc as rpc
import tvm_ffi
from conftest import process_gone, try_connect, wait_for
from tvm.rpc.channel import new_frame
from tvm.rpc.codec import encode
from tvm.rpc.protocol import MAGIC, MAGIC_STRUCT, Code

HERE = os.path.dirname(os.path.abspath(__file__))

# Registered at import, before any server of this module forks.
tvm_ffi.register_global_func("rpc_test.big", lambda n: b"x" * n, override=True)


def test_idle_connections_past_the_cap_are_refused_and_sessions_go_on(capfd):
    with rpc.Server(port=0, max_connections=8) as srv:
        sess = rpc.connect("127.0.0.1", srv.port)
        idle = [socket.create_connection(("127.0.0.1", srv.port)) for _ in range(20)]
        refused = wait_for(
            lambda: "connections (" in capfd.readouterr().err,
            what="a refused connection in the log",
        )
        assert refused
        assert sess.get_function("rpc_test.add")(1, 2) == 3
        for sock in idle:
            sock.close()
        fresh = wait_for(lambda: try_connect(srv.port), what="a new session after the idle ones")
        assert fresh.get_function("rpc_test.add")(2, 2) == 4
        fresh.close()
        sess.close()


def test_running_out_of_descriptors_does_not_end_the_server():
    # A subprocess: the server is forked under a small descriptor limit, then the client
    # (with its own limit restored) opens more idle connections than the server can hold.
    script = textwrap.dedent(
        """
        import resource, socket, sys
        sys.path.insert(0, HERE)
        import conftest  # registers the test functions
        import tvm.rpc as rpc
        from tvm.error import RPCError
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, hard))
        srv = rpc.Server(port=0, silent=True)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        sess = rpc.connect("127.0.0.1", srv.port)
        idle = [socket.create_connection(("127.0.0.1", srv.port)) for _ in range(100)]
        # Every idle connection is either served by a worker or refused and closed.
        import time
        for _ in range(500):
            time.sleep(0.02)
            if not srv._process.alive():
                break
        assert srv._process.alive(), "the server exited"
        assert sess.get_function("rpc_test.add")(1, 2) == 3
        for s in idle:
            s.close()
        for _ in range(500):
            try:
                with rpc.connect("127.0.0.1", srv.port) as again:
                    assert again.get_function("rpc_test.add")(2, 2) == 4
                break
            except RPCError:
                time.sleep(0.02)
        else:
            raise AssertionError("no new session after the idle connections closed")
        sess.close()
        srv.terminate()
        print("SERVED")
    """
    ).replace("HERE", repr(str(HERE)))
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "SERVED" in proc.stdout


def test_a_handshake_is_timed_by_its_total_time_not_per_byte():
    with rpc.Server(port=0, silent=True, handshake_timeout=1.0) as srv:
        sock = socket.create_connection(("127.0.0.1", srv.port))
        drip = MAGIC_STRUCT.pack(MAGIC) + bytes(64)
        closed = False
        for byte in drip[:25]:  # 25 drips 0.25 s apart: far longer than 1 s in total
            try:
                sock.send(bytes([byte]))
            except OSError:
                closed = True
                break
            if select.select([sock], [], [], 0.25)[0]:
                try:
                    closed = not sock.recv(65536)
                except OSError:
                    closed = True
                if closed:
                    break
        sock.close()
        assert closed, "the server kept a dripping handshake open past its timeout"


def _stuck_session(port):
    """A session whose worker is blocked writing a large reply nobody reads."""
    sess = rpc.connect("127.0.0.1", port, session_timeout=1)
    big = sess.get_function("rpc_test.big")
    frame = new_frame()
    for value in (big._rpc_handle.id, 64 << 20):
        encode(value, frame)
    sess._endpoint.channel.send_frame(Code.CALL, frame)  # and never read the reply
    return sess


def test_expiring_sessions_never_block_accepting():
    with rpc.Server(port=0, silent=True) as srv:
        stuck = [_stuck_session(srv.port) for _ in range(5)]
        time.sleep(1.2)  # the stuck sessions are past their 1 s limit now
        # A loop that waited on each stuck worker's write lock (2 s each) would accept
        # none of these for seconds, and their handshakes would time out.
        for _ in range(4):
            with rpc.connect("127.0.0.1", srv.port, handshake_timeout=1.0) as sess:
                assert sess.get_function("rpc_test.add")(1, 2) == 3
            time.sleep(0.5)
        for sess in stuck:
            sess._endpoint.channel.close()


@pytest.fixture
def private_tmp(tmp_path, monkeypatch):
    """A temp folder the servers forked here use (tempfile caches its choice)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def _files_under(folder):
    return [os.path.join(d, f) for d, _, files in os.walk(folder) for f in files]


def test_uploads_of_killed_workers_are_removed(private_tmp):
    srv = rpc.Server(port=0, silent=True)
    try:
        for _ in range(3):
            sess = rpc.connect("127.0.0.1", srv.port, session_timeout=1)
            sess.upload(b"x" * (1 << 20), "payload.bin")
            pid = sess.get_function("rpc.GetPid")()
            assert _files_under(private_tmp)
            wait_for(lambda pid=pid: process_gone(pid), what="the timed-out worker to be killed")
            wait_for(lambda: not _files_under(private_tmp), what="its workspace to go")
            sess.close()
    finally:
        srv.terminate()
    assert os.listdir(private_tmp) == []


def _server_roots(folder):
    return [name for name in os.listdir(folder) if name.startswith("tvm-rpc-server-")]


def test_a_killed_server_s_workspaces_go_when_a_server_starts(private_tmp):
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    orphan = private_tmp / f"tvm-rpc-server-{int(dead.stdout)}-abc" / "w1"
    orphan.mkdir(parents=True)
    (orphan / "payload.bin").write_bytes(b"x" * 1000)
    other = private_tmp / "unrelated"
    other.mkdir()
    srv = rpc.Server(port=0, silent=True)
    try:
        wait_for(lambda: not orphan.parent.exists(), what="the orphaned workspace to go")
        assert other.exists()
        wait_for(lambda: _server_roots(private_tmp), what="the server's own root")
    finally:
        srv.kill()
    leftover = _server_roots(private_tmp)
    assert len(leftover) == 1  # SIGKILL leaves the root; the next server removes it
    with rpc.Server(port=0, silent=True) as again:
        wait_for(lambda: not (private_tmp / leftover[0]).exists(), what="the killed server's root")
        with rpc.connect("127.0.0.1", again.port) as sess:
            sess.upload(b"y", "f.txt")
    assert sorted(os.listdir(private_tmp)) == ["unrelated"]
