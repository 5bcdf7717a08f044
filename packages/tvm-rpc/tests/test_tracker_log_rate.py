"""The tracker's warnings about bad peers are rate-limited per peer host."""

import json
import socket
import struct
import time

import tvm.rpc as rpc
from conftest import wait_for
from tvm.rpc.peer_warnings import PeerWarnings
from tvm.rpc.tracker import TRACKER_MAGIC


def test_many_bad_peers_from_one_host_log_one_warning(capfd, monkeypatch):
    monkeypatch.delenv("TVM_RPC_SECRET", raising=False)
    with rpc.Tracker(port=0) as tracker:
        bad = json.dumps({"op": "nope"}).encode()
        for _ in range(20):
            with socket.create_connection(("127.0.0.1", tracker.port), timeout=5) as sock:
                sock.sendall(struct.pack("<II", TRACKER_MAGIC, len(bad)) + bad)
                sock.settimeout(5)
                while sock.recv(4096):  # the error reply, then the tracker closes
                    pass
        seen = []

        def logged():
            seen.append(capfd.readouterr().err)
            return "refusing a peer" in "".join(seen)

        wait_for(logged, what="the tracker's warning")
        time.sleep(0.3)
        seen.append(capfd.readouterr().err)
    count = "".join(seen).count("refusing a peer")
    assert count == 1, f"{count} warnings for 20 bad peers from one host"


def test_peer_warnings_hold_back_repeats_and_say_how_many(caplog):
    now = [0.0]
    warnings = PeerWarnings(interval=10.0, max_hosts=2, clock=lambda: now[0])
    with caplog.at_level("WARNING", logger="tvm.rpc"):
        for _ in range(3):
            warnings.warn("a", "bad %s", "x")
        warnings.warn("b", "bad b")
        warnings.warn("c", "bad c")  # two hosts warned about just now: held back
        now[0] = 11.0
        warnings.warn("a", "bad %s", "y")
    messages = [r.getMessage() for r in caplog.records]
    assert messages == ["bad x", "bad b", "bad y (2 more from a held back)"]
