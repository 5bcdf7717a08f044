"""Faults: disconnects, killed servers, crashed workers, bad frames, session timeouts."""

import os
import socket
import threading

import numpy as np
import pytest
import tvm
import tvm.rpc as rpc
from conftest import logged, process_gone, until_closed, wait_for
from tvm.error import RPCError, RPCSessionTimeoutError
from tvm.rpc import protocol
from tvm.rpc.channel import ChannelClosed
from tvm.rpc.codec import encode_all
from tvm.rpc.protocol import FRAME_HEADER, MAGIC, MAGIC_STRUCT, Code


def _raw_client(port):
    """A socket that has sent the magic and a valid INIT, as a client would."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    meta = bytes(encode_all([protocol.PROTOCOL_VERSION, "raw test client", bytes(32), ""]))
    sock.sendall(
        MAGIC_STRUCT.pack(MAGIC) + FRAME_HEADER.pack(8 + len(meta), Code.INIT, len(meta)) + meta
    )
    return sock


def _still_serves(srv):
    with rpc.connect("127.0.0.1", srv.port) as sess:
        assert sess.get_function("rpc_test.add")(20, 22) == 42


def test_client_disconnects_mid_call(server):
    sess = rpc.connect("127.0.0.1", server.port)
    worker = sess.get_function("rpc.GetPid")()
    sleep = sess.get_function("rpc_test.sleep")
    sess._endpoint.send(Code.CALL, [sleep._rpc_handle.id, 0.3])
    sess._endpoint.channel.sock.close()
    wait_for(lambda: process_gone(worker), what="the worker to exit")
    _still_serves(server)


def test_server_killed_mid_call_raises_rpc_error():
    srv = rpc.Server(port=0, silent=True)
    sess = rpc.connect("127.0.0.1", srv.port)
    worker = sess.get_function("rpc.GetPid")()
    killer = threading.Timer(0.3, srv.kill)
    killer.start()
    with pytest.raises(RPCError, match="connection to the server lost"):
        sess.get_function("rpc_test.sleep")(60)
    killer.join()
    wait_for(lambda: process_gone(worker), what="the worker to die with its server")
    with pytest.raises(RPCError, match="closed"):
        sess.get_function("rpc_test.add")(1, 2)


def test_worker_crash_ends_only_its_session(server):
    with rpc.connect("127.0.0.1", server.port) as other:
        sess = rpc.connect("127.0.0.1", server.port)
        with pytest.raises(RPCError):
            sess.get_function("rpc_test.crash")()
        assert other.get_function("rpc_test.add")(1, 2) == 3
    _still_serves(server)


def test_oversized_frame_closes_connection_with_logged_reason(capfd):
    with rpc.Server(port=0) as logged_server:
        sock = _raw_client(logged_server.port)
        sock.sendall(FRAME_HEADER.pack(1 << 40, Code.HELLO, 0))
        until_closed(sock)
        sock.close()
        logged(capfd, "exceeds the maximum frame size")
        _still_serves(logged_server)


def test_oversized_frame_inside_a_session(capfd):
    with rpc.Server(port=0, max_frame_size=1 << 20) as srv:
        sess = rpc.connect("127.0.0.1", srv.port)
        with pytest.raises(RPCError, match="connection to the server lost"):
            sess.get_function("rpc_test.echo")(b"x" * (2 << 20))
        logged(capfd, "exceeds the maximum frame size")
        _still_serves(srv)


def test_truncated_frame_closes_connection_with_logged_reason(capfd):
    with rpc.Server(port=0) as logged_server:
        sock = _raw_client(logged_server.port)
        sock.sendall(FRAME_HEADER.pack(100, Code.HELLO, 50) + b"0123456789")
        sock.shutdown(socket.SHUT_WR)
        until_closed(sock)
        sock.close()
        logged(capfd, "connection closed inside a frame")
        _still_serves(logged_server)


def test_malformed_meta_and_unknown_code_close_the_connection(capfd):
    with rpc.Server(port=0) as logged_server:
        sess = rpc.connect("127.0.0.1", logged_server.port)
        channel = sess._endpoint.channel
        channel.sock.sendall(FRAME_HEADER.pack(9, Code.CALL, 1) + b"\xfe")
        with pytest.raises(ChannelClosed):
            sess._endpoint.read_reply()
        logged(capfd, "unknown value tag 254")
        sess = rpc.connect("127.0.0.1", logged_server.port)
        sess._endpoint.channel.sock.sendall(FRAME_HEADER.pack(8, 999, 0))
        with pytest.raises(RPCError):
            sess.get_function("rpc_test.add")
        logged(capfd, "unknown request code 999")
        _still_serves(logged_server)


def test_bad_request_values_are_an_error_reply_not_a_disconnect(session):
    with pytest.raises(TypeError, match="tensor_empty request"):
        session._request(Code.TENSOR_EMPTY, ("not a shape", "float32", 1, 0))
    with pytest.raises(ValueError, match="no function with handle 12345"):
        session.call_handle(12345, [])
    assert session.get_function("rpc_test.add")(1, 1) == 2


def test_not_an_rpc_client_is_rejected(capfd):
    with rpc.Server(port=0) as logged_server:
        sock = socket.create_connection(("127.0.0.1", logged_server.port), timeout=10)
        sock.sendall(b"GET / HTTP/1.1\r\n\r\n")
        until_closed(sock)
        sock.close()
        logged(capfd, "not an RPC client")


def test_session_timeout_raises_timeout_error_and_server_survives():
    with rpc.Server(port=0, silent=True) as srv:
        sess = rpc.connect("127.0.0.1", srv.port, session_timeout=0.5)
        worker = sess.get_function("rpc.GetPid")()
        with pytest.raises(RPCSessionTimeoutError, match="session_timeout of 0.5 s") as info:
            sess.get_function("rpc_test.sleep")(60)
        assert isinstance(info.value, TimeoutError) and isinstance(info.value, RPCError)
        wait_for(lambda: process_gone(worker), what="the timed-out worker to be killed")
        with pytest.raises(RPCError, match="closed"):
            sess.get_function("rpc_test.add")(1, 2)
        _still_serves(srv)


def test_idle_session_timeout_reported_on_next_call():
    with rpc.Server(port=0, silent=True) as srv:
        sess = rpc.connect("127.0.0.1", srv.port, session_timeout=0.2)
        worker = sess.get_function("rpc.GetPid")()
        wait_for(lambda: process_gone(worker), what="the session to time out")
        with pytest.raises(RPCSessionTimeoutError):
            sess.get_function("rpc_test.add")


def test_other_errors_are_not_timeouts(session):
    with pytest.raises(ValueError) as info:
        session.get_function("rpc_test.raise")("ValueError", "x")
    assert not isinstance(info.value, TimeoutError)


def test_eight_concurrent_sessions(server, tmp_path):
    count = 8
    sessions = [rpc.connect("127.0.0.1", server.port) for _ in range(count)]
    results = [None] * count

    def run(index):
        results[index] = sessions[index].get_function("rpc_test.rendezvous")(
            str(tmp_path), count, 30.0
        )

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert results == [True] * count  # all eight calls were running at the same moment
    pids = {s.get_function("rpc.GetPid")() for s in sessions}
    assert len(pids) == count and os.getpid() not in pids
    data = np.arange(1000, dtype="float64")
    for s in sessions:
        np.testing.assert_array_equal(tvm.runtime.tensor(data, s.cpu()).numpy(), data)
        s.close()


def test_closing_a_session_ends_it_even_after_another_server_forked(server):
    sess = rpc.connect("127.0.0.1", server.port)
    worker = sess.get_function("rpc.GetPid")()
    with rpc.Server(port=0, silent=True):  # forked while the session's socket is open here
        sess._endpoint.channel.close()  # a vanished client: no SHUTDOWN, only the socket closed
        wait_for(
            lambda: process_gone(worker), timeout=3.0, what="the worker to see the socket closed"
        )
