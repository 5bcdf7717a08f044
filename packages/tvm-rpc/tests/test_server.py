"""Server and connect: addresses, keys, protocol versions, argument checks."""

import socket
import struct

import pytest
import tvm.rpc as rpc
from conftest import try_connect, wait_for
from tvm.error import RPCError
from tvm.rpc import protocol
from tvm.rpc.channel import SocketChannel
from tvm.rpc.endpoint import RPCEndpoint


def test_sessions_run_in_their_own_worker(server):
    with rpc.connect("127.0.0.1", server.port) as a, rpc.connect("localhost", server.port) as b:
        pid_a = a.get_function("rpc.GetPid")()
        pid_b = b.get_function("rpc.GetPid")()
        assert len({pid_a, pid_b, server.pid}) == 3
        assert a.get_function("rpc_test.ppid")() == server.pid


def test_ipv6_loopback():
    try:
        probe = socket.socket(socket.AF_INET6)
        probe.bind(("::1", 0))
        probe.close()
    except OSError as err:
        pytest.skip(f"this machine has no IPv6 loopback (::1): {err}")
    with rpc.Server(host="::1", port=0, silent=True) as srv:
        with rpc.connect("::1", srv.port) as sess:
            assert sess.get_function("rpc_test.add")(1, 2) == 3


def test_wrong_key_is_refused_and_logged(capfd):
    with rpc.Server(port=0, key="secret") as srv:
        with pytest.raises(RPCError, match="key mismatch"):
            rpc.connect("127.0.0.1", srv.port, key="wrong")
        with rpc.connect("127.0.0.1", srv.port, key="secret") as sess:
            assert sess.get_function("rpc_test.add")(1, 1) == 2
        wait_for(lambda: "does not match" in capfd.readouterr().err or None, what="the log line")


def test_version_mismatch_names_both_versions_on_both_sides(monkeypatch, capfd):
    real = protocol.PROTOCOL_VERSION
    with rpc.Server(port=0) as srv:
        monkeypatch.setattr(protocol, "PROTOCOL_VERSION", 99)
        with pytest.raises(RPCError, match="version mismatch") as info:
            rpc.connect("127.0.0.1", srv.port)
        assert "version 99" in str(info.value)
        assert f"version {real}" in str(info.value)
        seen = []

        def server_logged():
            seen.append(capfd.readouterr().err)
            text = "".join(seen)
            return "version mismatch" in text and "99" in text

        wait_for(server_logged, what="the server's version error")


def test_endpoint_version_exchange_fails_on_both_sides():
    a, b = socket.socketpair()
    client = RPCEndpoint(SocketChannel(a), "client", version=7)
    server = RPCEndpoint(SocketChannel(b), "server")
    client.send_init()
    server.send_init()
    for side, mine, theirs in (
        (client, 7, protocol.PROTOCOL_VERSION),
        (server, protocol.PROTOCOL_VERSION, 7),
    ):
        with pytest.raises(RPCError, match=f"speaks version {mine}, .* speaks version {theirs}"):
            side.receive_init()
    a.close()
    b.close()


def test_connect_argument_errors():
    with pytest.raises(ValueError, match="'port'"):
        rpc.connect("127.0.0.1", 0)
    with pytest.raises(TypeError, match="'host'"):
        rpc.connect(None, 9091)
    with pytest.raises(ValueError, match="'session_timeout'"):
        rpc.connect("127.0.0.1", 9091, session_timeout=-1)
    with pytest.raises(TypeError, match="'session_constructor_args'"):
        rpc.connect("127.0.0.1", 9091, session_constructor_args=[1, 2])


def test_connect_refused_is_rpc_error():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    with pytest.raises(RPCError, match="cannot connect"):
        rpc.connect("127.0.0.1", port)


def test_non_rpc_peer_is_rpc_error():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    import threading

    def reply_garbage():
        conn, _ = listener.accept()
        conn.sendall(struct.pack("<QII", 8, 999, 0))
        conn.close()

    thread = threading.Thread(target=reply_garbage)
    thread.start()
    with pytest.raises(RPCError):
        rpc.connect("127.0.0.1", port)
    thread.join(5)
    listener.close()


def test_unknown_session_constructor(server):
    with pytest.raises(ValueError, match="unknown session constructor 'rpc.Nope'"):
        rpc.connect("127.0.0.1", server.port, session_constructor_args=["rpc.Nope"])


def test_port_range_skips_busy_ports():
    with rpc.Server(port=0) as first:
        with rpc.Server(port=first.port, port_end=first.port + 20) as second:
            assert second.port != first.port


def test_server_module_entry_point():
    with rpc.Server(port=0, use_popen=True, silent=True) as srv:
        sess = wait_for(lambda: try_connect(srv.port), what="the popen server")
        with sess:
            assert sess.get_function("rpc.GetPid")() != srv.pid
