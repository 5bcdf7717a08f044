"""An open tracker drops a connection that sends the magic but no message in time."""

import json
import socket
import struct
import time

import pytest
import tvm.rpc as rpc
import tvm.rpc.tracker as tracker_mod
from tvm.rpc.tracker import TRACKER_MAGIC


@pytest.fixture(autouse=True)
def _short_handshake(monkeypatch):
    monkeypatch.delenv("TVM_RPC_SECRET", raising=False)
    monkeypatch.setattr(tracker_mod, "HANDSHAKE_TIMEOUT", 0.3)  # before the tracker forks


def _greeted(port):
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(struct.pack("<I", TRACKER_MAGIC))
    return sock


def _summary_on(sock):
    data = json.dumps({"op": "summary"}).encode()
    sock.sendall(struct.pack("<I", len(data)) + data)
    (n,) = struct.unpack("<I", sock.recv(4, socket.MSG_WAITALL))
    return json.loads(sock.recv(n, socket.MSG_WAITALL))


def test_a_connection_idle_since_its_magic_is_closed():
    with rpc.Tracker(port=0, silent=True) as tracker:
        with _greeted(tracker.port) as idle:
            try:
                closed = idle.recv(1) == b""
            except ConnectionResetError:
                closed = True
            assert closed


def test_a_connection_that_sent_a_message_may_stay_idle():
    with rpc.Tracker(port=0, silent=True) as tracker:
        with _greeted(tracker.port) as sock:
            assert "queue_info" in _summary_on(sock)
            time.sleep(1.0)
            assert "queue_info" in _summary_on(sock)


def test_a_tracker_session_idle_past_the_timeout_still_gets_its_summary():
    with rpc.Tracker(port=0, silent=True) as tracker:
        with rpc.connect_tracker("127.0.0.1", tracker.port) as session:
            time.sleep(1.0)  # the tracker has closed the session's connection meanwhile
            assert session.summary()["queue_info"] == {}
