"""Tracker: queue accounting as sessions are requested and released (authenticated peers,
which see server addresses in the summary; test_tracker_security.py covers the rest)."""

import socket
import threading
import time

import pytest
import tvm.rpc as rpc
from conftest import wait_for
from tvm.error import RPCError


@pytest.fixture(autouse=True)
def _secret(monkeypatch):
    monkeypatch.setenv("TVM_RPC_SECRET", "tracker tests")  # read by the forked services too


def _queue(tracker_session, key):
    return tracker_session.summary()["queue_info"].get(key, {"free": 0, "pending": 0})


def test_queue_accounting():
    with rpc.Tracker(port=0, silent=True) as tracker:
        addr = ("127.0.0.1", tracker.port)
        servers = [
            rpc.Server(port=0, key="board", tracker_addr=addr, silent=True) for _ in range(2)
        ]
        try:
            client = rpc.connect_tracker(*addr)
            wait_for(lambda: _queue(client, "board")["free"] == 2, what="2 free servers")
            first = client.request("board", timeout=30)
            assert _queue(client, "board") == {"free": 1, "pending": 0}
            second = client.request("board", timeout=30)
            assert _queue(client, "board") == {"free": 0, "pending": 0}
            assert first.get_function("rpc_test.ppid")() != second.get_function("rpc_test.ppid")()

            third = []
            waiter = threading.Thread(
                target=lambda: third.append(client.request("board", timeout=30))
            )
            waiter.start()
            wait_for(lambda: _queue(client, "board")["pending"] == 1, what="a pending request")
            first.close()  # its server goes back to the queue and serves the waiting request
            waiter.join(30)
            assert len(third) == 1 and third[0].get_function("rpc_test.add")(1, 2) == 3
            assert _queue(client, "board") == {"free": 0, "pending": 0}
            second.close()
            third[0].close()
            wait_for(lambda: _queue(client, "board")["free"] == 2, what="both servers free again")
            summary = client.summary()
            assert {tuple(s["addr"]) for s in summary["server_info"]} == {
                ("127.0.0.1", s.port) for s in servers
            }
            client.close()
        finally:
            for srv in servers:
                srv.terminate()


def test_request_times_out_when_no_server_is_free():
    with rpc.Tracker(port=0, silent=True) as tracker:
        with rpc.connect_tracker("127.0.0.1", tracker.port) as client:
            with pytest.raises(RPCError, match="no free server for key 'nobody'"):
                client.request("nobody", timeout=0.3)
            wait_for(
                lambda: _queue(client, "nobody")["pending"] == 0, what="the abandoned request to go"
            )


def test_tracker_match_key_is_required():
    with rpc.Tracker(port=0, silent=True) as tracker:
        addr = ("127.0.0.1", tracker.port)
        with rpc.Server(port=0, key="k", tracker_addr=addr, silent=True) as srv:
            with pytest.raises(RPCError, match="key mismatch"):
                rpc.connect("127.0.0.1", srv.port, key="k")  # only the tracker's match key works


def test_tracker_session_timeout_passes_through():
    with rpc.Tracker(port=0, silent=True) as tracker:
        addr = ("127.0.0.1", tracker.port)
        with rpc.Server(port=0, key="t", tracker_addr=addr, silent=True):
            with rpc.connect_tracker(*addr) as client:
                sess = client.request("t", session_timeout=0.3, timeout=30)
                from tvm.error import RPCSessionTimeoutError

                with pytest.raises(RPCSessionTimeoutError):
                    sess.get_function("rpc_test.sleep")(60)


def test_server_returns_to_the_queue_after_a_failed_session():
    with rpc.Tracker(port=0, silent=True) as tracker:
        addr = ("127.0.0.1", tracker.port)
        with rpc.Server(port=0, key="f", tracker_addr=addr, silent=True):
            with rpc.connect_tracker(*addr) as client:
                wait_for(lambda: _queue(client, "f")["free"] == 1, what="the server to register")
                with pytest.raises(ValueError, match="unknown session constructor"):
                    client.request("f", timeout=30, session_constructor_args=["rpc.Nope"])
                wait_for(lambda: _queue(client, "f")["free"] == 1, what="the server to come back")
                with client.request("f", timeout=30) as sess:
                    assert sess.get_function("rpc_test.add")(1, 2) == 3


def _take_match_key(addr, key):
    """Ask the tracker for a server of ``key`` as a client would, but never connect to it."""
    from tvm.rpc.tracker_client import _connect
    from tvm.rpc.tracker_wire import encode as _encode
    from tvm.rpc.tracker_wire import recv_message as _recv_message

    sock = _connect(addr, b"tracker tests")
    try:
        sock.sendall(_encode({"op": "request", "key": key, "priority": 1}))
        sock.settimeout(30)
        return _recv_message(sock)
    finally:
        sock.close()


@pytest.mark.parametrize("use_popen", [False, True])
def test_server_returns_to_the_queue_when_its_client_never_comes(use_popen):
    with rpc.Tracker(port=0, silent=True) as tracker:
        addr = ("127.0.0.1", tracker.port)
        with rpc.Server(
            port=0,
            key="gone",
            tracker_addr=addr,
            silent=True,
            match_timeout=0.3,
            use_popen=use_popen,
        ) as srv:
            with rpc.connect_tracker(*addr) as client:
                wait_for(lambda: _queue(client, "gone")["free"] == 1, what="the server to register")
                stale = _take_match_key(addr, "gone")
                assert stale["port"] == srv.port
                assert _queue(client, "gone") == {"free": 0, "pending": 0}
                wait_for(
                    lambda: _queue(client, "gone")["free"] == 1, what="the server to come back"
                )
                assert client.summary()["server_info"] == [
                    {"key": "gone", "addr": ["127.0.0.1", srv.port]}
                ]

                with pytest.raises(RPCError, match="match key .* expired"):
                    rpc.connect(stale["host"], stale["port"], stale["match"])
                assert _queue(client, "gone") == {"free": 1, "pending": 0}

                with client.request("gone", timeout=30) as sess:  # popen servers lack rpc_test.*
                    assert sess.get_function("rpc.GetPid")() != srv.pid  # served by a worker
                    assert _queue(client, "gone") == {"free": 0, "pending": 0}
                wait_for(
                    lambda: _queue(client, "gone")["free"] == 1, what="the server to come back"
                )
                assert len(client.summary()["server_info"]) == 1


def test_a_session_outlasting_the_match_timeout_keeps_the_server_busy():
    with rpc.Tracker(port=0, silent=True) as tracker:
        addr = ("127.0.0.1", tracker.port)
        with rpc.Server(port=0, key="long", tracker_addr=addr, silent=True, match_timeout=0.2):
            with rpc.connect_tracker(*addr) as client:
                wait_for(lambda: _queue(client, "long")["free"] == 1, what="the server to register")
                with client.request("long", timeout=30) as sess:
                    # Several match timeouts pass inside the session: the server stays taken.
                    assert sess.get_function("rpc_test.sleep")(1.0) == 1.0
                    assert _queue(client, "long") == {"free": 0, "pending": 0}
                    assert sess.get_function("rpc_test.add")(2, 3) == 5
                wait_for(
                    lambda: _queue(client, "long")["free"] == 1, what="the server to come back"
                )
                with client.request("long", timeout=30) as sess:
                    assert sess.get_function("rpc_test.add")(1, 1) == 2
                wait_for(
                    lambda: _queue(client, "long")["free"] == 1, what="the server to come back"
                )
                assert len(client.summary()["server_info"]) == 1


def test_a_pending_handshake_keeps_the_match_key_alive():
    with rpc.Tracker(port=0, silent=True) as tracker:
        addr = ("127.0.0.1", tracker.port)
        with rpc.Server(
            port=0, key="slow", tracker_addr=addr, silent=True, match_timeout=0.2
        ) as srv:
            with rpc.connect_tracker(*addr) as client:
                wait_for(lambda: _queue(client, "slow")["free"] == 1, what="the server to register")
                # A connection still in its handshake might be the matched client: the key
                # must stay valid (and the server taken) until that handshake ends.
                with socket.create_connection(("127.0.0.1", srv.port), timeout=10):
                    match = _take_match_key(addr, "slow")
                    time.sleep(1.0)
                    assert _queue(client, "slow") == {"free": 0, "pending": 0}
                    with rpc.connect(match["host"], match["port"], match["match"]) as sess:
                        assert sess.get_function("rpc_test.add")(1, 2) == 3
                wait_for(
                    lambda: _queue(client, "slow")["free"] == 1, what="the server to come back"
                )
                assert len(client.summary()["server_info"]) == 1


@pytest.mark.parametrize(
    "value, error",
    [
        (0, ValueError),
        (-1.0, ValueError),
        (float("inf"), ValueError),
        ("5", TypeError),
        (True, TypeError),
    ],
)
def test_server_rejects_a_bad_match_timeout(value, error):
    with pytest.raises(error, match="tvm.rpc.Server: argument 'match_timeout'"):
        rpc.Server(port=0, match_timeout=value)
