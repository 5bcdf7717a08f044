"""Tracker hardening: message schema and bounds, authenticated peers, restricted summary,
bounded pending requests, a TrackerSession that survives a bad reply."""

import json
import socket
import struct
import threading

import pytest
import tvm.rpc as rpc
import tvm.rpc.tracker as tracker_mod
from conftest import wait_for
from tracker_peer import msg as _msg
from tracker_peer import raw as _raw
from tracker_peer import reply as _reply
from tvm.error import RPCError

SECRET = b"tracker secret"


@pytest.fixture(autouse=True)
def _no_env_secret(monkeypatch):
    monkeypatch.delenv("TVM_RPC_SECRET", raising=False)


def _exchange(port, frame):
    """Send raw bytes after the magic; the tracker's error reply (None: none came)."""
    with _raw(port) as sock:
        sock.sendall(frame)
        try:
            reply = _reply(sock)
        except OSError:
            return None
        return reply.get("error") if isinstance(reply, dict) else None


def _summary(port, secret=None):
    with rpc.connect_tracker("127.0.0.1", port, secret=secret) as client:
        return client.summary()


PUT = {"op": "put", "key": "k", "host": "127.0.0.1", "port": 9000, "match": "k:1"}


MALFORMED = [
    (
        _msg(b'{"op": "put", "key": "k", "host": "h", "port": 1e400, "match": "k:1"}'),
        "'port' must be an int",
    ),
    (_msg(b'{"op": "request", "key": "k", "priority": 1e400}'), "'priority' must be an int"),
    (_msg(b'{"op": "request", "key": "k", "priority": NaN}'), "NaN is not a number"),
    (_msg(b'{"op": "request", "key": "k", "priority": 4294967296}'), "'priority' must be an int"),
    (_msg(b"[" * 3000), "nests deeper than"),
    (_msg(b'{"op": "summary", "x": ' + b"[" * 10 + b"]" * 10 + b"}"), "nests deeper than"),
    (_msg(b"[" * 100000), "exceeds"),
    (_msg(json.dumps({**PUT, "port": "80"}).encode()), "'port' must be an int"),
    (_msg(json.dumps({**PUT, "port": 70000}).encode()), "'port' must be an int in 1..65535"),
    (_msg(json.dumps({**PUT, "host": "a b"}).encode()), "'host' must be a host name"),
    (_msg(json.dumps({**PUT, "key": 7}).encode()), "'key' must be a str"),
    (_msg(json.dumps({**PUT, "extra": 1}).encode()), "unknown field"),
    (_msg(json.dumps({"op": "put", "key": "k"}).encode()), "needs field 'host'"),
    (_msg(b"[1, 2]"), "must be a JSON object"),
    (_msg(b'{"op": "drop_table"}'), "unknown tracker operation"),
    (_msg(b"\xff\xfe"), "not UTF-8"),
    (_msg(b'{"op": '), "not JSON"),
    (struct.pack("<I", 1 << 30), "exceeds"),
]


@pytest.mark.parametrize(
    "frame, reason", MALFORMED, ids=[f"{i}:{reason}" for i, (_, reason) in enumerate(MALFORMED)]
)
def test_a_malformed_message_is_refused_and_the_tracker_lives(frame, reason):
    with rpc.Tracker(port=0, silent=True) as tracker:
        assert reason in (_exchange(tracker.port, frame) or "no error reply")
        assert tracker._process.alive()
        assert _summary(tracker.port) == {"queue_info": {}, "server_info": []}


def test_one_peer_sending_garbage_does_not_disturb_another():
    with rpc.Tracker(port=0, silent=True) as tracker:
        with rpc.connect_tracker("127.0.0.1", tracker.port) as client:
            assert client.summary()["queue_info"] == {}
            for frame in (_msg(b"[" * 3000), _msg(b'{"op": "summary", "port": 1e400}')):
                assert _exchange(tracker.port, frame)
            assert client.summary()["queue_info"] == {}  # the same connection still works


# -- item 20: authenticated peers and a restricted summary --------------------------------
def _put(sock, key, port=9000):
    sock.sendall(
        _msg(
            json.dumps(
                {
                    "op": "put",
                    "key": key,
                    "host": "127.0.0.1",
                    "port": port,
                    "match": f"{key}:forged",
                }
            ).encode()
        )
    )


def test_a_forged_put_is_refused_by_a_tracker_with_a_secret():
    with rpc.Tracker(port=0, silent=True, secret=SECRET) as tracker:
        with _raw(tracker.port) as sock:
            _put(sock, "victim")
            assert "authentication required" in _reply(sock)["error"]
            assert _reply(sock) is None  # and the tracker closed the connection
        with rpc.connect_tracker("127.0.0.1", tracker.port, secret=SECRET) as client:
            assert client.summary() == {"queue_info": {}, "server_info": []}


def test_a_wrong_secret_is_refused_both_ways():
    with rpc.Tracker(port=0, silent=True, secret=SECRET) as tracker:
        with pytest.raises(RPCError, match="tracker failed to prove it knows the secret"):
            rpc.connect_tracker("127.0.0.1", tracker.port, secret="not it")
        with _raw(tracker.port) as sock:  # a peer that answers the challenge with a guess
            sock.sendall(_msg(json.dumps({"op": "auth", "nonce": "00" * 32}).encode()))
            assert _reply(sock)["op"] == "challenge"
            sock.sendall(_msg(json.dumps({"op": "proof", "proof": "ab" * 32}).encode()))
            _put(sock, "victim")
            assert "authentication failed: wrong secret" in _reply(sock)["error"]
        assert rpc.connect_tracker("127.0.0.1", tracker.port, secret=SECRET).summary() == {
            "queue_info": {},
            "server_info": [],
        }


def test_a_peer_with_a_secret_refuses_a_tracker_without_one():
    with rpc.Tracker(port=0, silent=True) as tracker:
        with pytest.raises(RPCError, match="this tracker has no secret"):
            rpc.connect_tracker("127.0.0.1", tracker.port, secret=SECRET)


def test_summary_needs_the_secret_and_then_lists_addresses(monkeypatch):
    with rpc.Tracker(port=0, silent=True, secret=SECRET) as tracker:
        addr = ("127.0.0.1", tracker.port)
        with pytest.raises(RPCError, match="authentication required"):
            rpc.connect_tracker(*addr).summary()
        monkeypatch.setenv("TVM_RPC_SECRET", SECRET.decode())  # the forked server reads it
        with rpc.Server(port=0, key="board", tracker_addr=addr, silent=True) as srv:
            monkeypatch.delenv("TVM_RPC_SECRET")
            with rpc.connect_tracker(*addr, secret=SECRET) as client:
                wait_for(lambda: client.summary()["queue_info"].get("board"), what="a server")
                assert client.summary()["server_info"] == [
                    {"key": "board", "addr": ["127.0.0.1", srv.port]}
                ]


def test_summary_without_a_secret_omits_server_addresses():
    with rpc.Tracker(port=0, silent=True) as tracker:
        with _raw(tracker.port) as sock:
            _put(sock, "board")
            with rpc.connect_tracker("127.0.0.1", tracker.port) as client:
                wait_for(lambda: client.summary()["queue_info"].get("board"), what="the put")
                assert client.summary() == {
                    "queue_info": {"board": {"free": 1, "pending": 0}},
                    "server_info": [],
                }


def test_a_connection_registers_one_server_whatever_its_keys():
    with rpc.Tracker(port=0, silent=True) as tracker:
        with _raw(tracker.port) as sock:
            for key in ("a", "b", "c"):
                _put(sock, key)
            with rpc.connect_tracker("127.0.0.1", tracker.port) as client:
                wait_for(lambda: "c" in client.summary()["queue_info"], what="the last put")
                assert client.summary()["queue_info"] == {"c": {"free": 1, "pending": 0}}


@pytest.mark.parametrize("value, error", [(b"", ValueError), (7, TypeError)])
def test_a_bad_secret_argument_is_refused(value, error):
    with pytest.raises(error, match="tvm.rpc.Tracker: argument 'secret'"):
        rpc.Tracker(port=0, secret=value)
    with pytest.raises(error, match="tvm.rpc.connect_tracker: argument 'secret'"):
        rpc.connect_tracker("127.0.0.1", 1, secret=value)


# -- item 24: bounded keys, and a TrackerSession that survives an oversized reply -----------
def test_long_keys_are_refused_and_summary_keeps_working():
    with rpc.Tracker(port=0, silent=True) as tracker:
        socks = [_raw(tracker.port) for _ in range(6)]
        try:
            for sock in socks:
                _put(sock, "k" * 100_000)
            for sock in socks:
                assert "exceeds" in _reply(sock)["error"]
            with _raw(tracker.port) as sock:
                _put(sock, "k" * 257)
                assert "field 'key' must be 1 to 256 bytes" in _reply(sock)["error"]
            assert _summary(tracker.port) == {"queue_info": {}, "server_info": []}
        finally:
            for sock in socks:
                sock.close()


def test_long_keys_are_refused_locally():
    with pytest.raises(ValueError, match="tvm.rpc.Server: argument 'key' .* 1 to 256 bytes"):
        rpc.Server(port=0, key="k" * 300, tracker_addr=("127.0.0.1", 1))
    with rpc.Tracker(port=0, silent=True) as tracker:
        with rpc.connect_tracker("127.0.0.1", tracker.port) as client:
            with pytest.raises(ValueError, match="TrackerSession.request: argument 'key'"):
                client.request("k" * 300, timeout=1)


def _fake_tracker(replies):
    """A listening socket whose n-th connection is answered with replies[n] (raw bytes)
    after it has sent its magic and one message; runs in a thread, bounded."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(10)

    def serve():
        for reply in replies:
            conn, _ = listener.accept()
            with conn:
                conn.settimeout(10)
                conn.recv(4, socket.MSG_WAITALL)
                (n,) = struct.unpack("<I", conn.recv(4, socket.MSG_WAITALL))
                conn.recv(n, socket.MSG_WAITALL)
                conn.sendall(reply)
                try:
                    conn.recv(1)  # until the client closes
                except OSError:
                    pass
        listener.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return listener.getsockname()[1], thread


def test_a_tracker_session_reconnects_after_an_oversized_reply():
    good = {"queue_info": {}, "server_info": []}
    body = json.dumps(good).encode()
    oversized = struct.pack("<I", 64 << 20) + b"u" * 4096
    port, thread = _fake_tracker([oversized, struct.pack("<I", len(body)) + body])
    client = rpc.connect_tracker("127.0.0.1", port)
    with pytest.raises(RPCError, match="exceeds"):
        client.summary()
    assert client.summary() == good  # a fresh connection, not the rest of the bad message
    client.close()
    thread.join(10)


# -- item 25: the pending-request list is bounded ------------------------------------------
def test_pending_requests_are_bounded(monkeypatch):
    monkeypatch.setattr(tracker_mod, "MAX_PENDING", 3)  # before the tracker forks
    with rpc.Tracker(port=0, silent=True) as tracker:
        waiting = [_raw(tracker.port) for _ in range(3)]
        try:
            for sock in waiting:
                sock.sendall(_msg(b'{"op": "request", "key": "k"}'))
            with rpc.connect_tracker("127.0.0.1", tracker.port) as client:
                wait_for(
                    lambda: client.summary()["queue_info"].get("k", {}).get("pending") == 3,
                    what="3 pending requests",
                )
                with pytest.raises(RPCError, match="too many pending requests"):
                    client.request("k", timeout=10, max_retry=1)
                waiting.pop().close()
                wait_for(
                    lambda: client.summary()["queue_info"].get("k", {}).get("pending") == 2,
                    what="a request to go with its connection",
                )
        finally:
            for sock in waiting:
                sock.close()


def test_pending_requests_per_connection_are_bounded():
    limit = tracker_mod.MAX_PENDING_PER_CONNECTION
    with rpc.Tracker(port=0, silent=True) as tracker:
        with _raw(tracker.port) as sock:
            sock.sendall(_msg(b'{"op": "request", "key": "k"}') * (limit + 1))
            assert "too many pending requests" in _reply(sock)["error"]
        wait_for(lambda: _summary(tracker.port)["queue_info"] == {}, what="the requests to go")


def _closed_by_peer(sock):
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


def test_a_silent_connection_is_dropped_after_the_handshake_timeout(monkeypatch):
    monkeypatch.setattr(tracker_mod, "HANDSHAKE_TIMEOUT", 0.3)
    with rpc.Tracker(port=0, silent=True, secret=SECRET) as tracker:
        with socket.create_connection(("127.0.0.1", tracker.port), timeout=10) as silent:
            assert _closed_by_peer(silent)
        with _raw(tracker.port) as greeted:  # the magic alone is not enough with a secret
            assert _closed_by_peer(greeted)


def test_connections_beyond_the_limit_are_closed(monkeypatch):
    monkeypatch.setattr(tracker_mod, "MAX_CONNECTIONS", 2)
    with rpc.Tracker(port=0, silent=True) as tracker:
        held = [_raw(tracker.port) for _ in range(2)]
        with _raw(tracker.port) as extra:
            assert _closed_by_peer(extra)
        for sock in held:
            sock.close()
        wait_for(lambda: _try_summary(tracker.port), what="a free slot")


def _try_summary(port):
    try:
        return _summary(port)
    except RPCError:
        return None
