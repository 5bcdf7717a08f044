"""Tracker: queue accounting as sessions are requested and released."""

import threading

import pytest

import tvm.rpc as rpc
from tvm.error import RPCError

from conftest import wait_for


def _queue(tracker_session, key):
    return tracker_session.summary()["queue_info"].get(key, {"free": 0, "pending": 0})


def test_queue_accounting():
    with rpc.Tracker(port=0, silent=True) as tracker:
        addr = ("127.0.0.1", tracker.port)
        servers = [rpc.Server(port=0, key="board", tracker_addr=addr, silent=True) for _ in range(2)]
        try:
            client = rpc.connect_tracker(*addr)
            wait_for(lambda: _queue(client, "board")["free"] == 2, what="2 free servers")
            first = client.request("board", timeout=30)
            assert _queue(client, "board") == {"free": 1, "pending": 0}
            second = client.request("board", timeout=30)
            assert _queue(client, "board") == {"free": 0, "pending": 0}
            assert first.get_function("rpc_test.ppid")() != second.get_function("rpc_test.ppid")()

            third = []
            waiter = threading.Thread(target=lambda: third.append(client.request("board", timeout=30)))
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
                ("127.0.0.1", s.port) for s in servers}
            client.close()
        finally:
            for srv in servers:
                srv.terminate()


def test_request_times_out_when_no_server_is_free():
    with rpc.Tracker(port=0, silent=True) as tracker:
        with rpc.connect_tracker("127.0.0.1", tracker.port) as client:
            with pytest.raises(RPCError, match="no free server for key 'nobody'"):
                client.request("nobody", timeout=0.3)
            wait_for(lambda: _queue(client, "nobody")["pending"] == 0, what="the abandoned request to go")


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
