"""Proxy hardening: registrations authenticated by the shared secret, one server per key,
bounded registration messages."""

import select
import socket
import struct
import threading

import pytest
import tvm.rpc as rpc
from conftest import wait_for
from tvm.error import RPCError
from tvm.rpc import proxy_registration
from tvm.rpc.proxy_registration import PROXY_MAGIC, register

SECRET = b"proxy secret"


@pytest.fixture(autouse=True)
def _no_env_secret(monkeypatch):
    monkeypatch.delenv("TVM_RPC_SECRET", raising=False)


def _register(port, key, secret=None):
    """A connection registered at the proxy for ``key`` (RPCError when refused)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        register(sock, key, secret)
    except BaseException:
        sock.close()
        raise
    return sock


def _try_register(port, key):
    try:
        return _register(port, key)
    except (RPCError, OSError):
        return None


def test_a_duplicate_key_is_refused_until_its_server_has_gone():
    with rpc.Proxy(port=0, silent=True) as proxy:
        first = _register(proxy.port, "dup")
        with pytest.raises(RPCError, match="a server with this key is already registered"):
            _register(proxy.port, "dup")
        _register(proxy.port, "other").close()  # another key is fine
        first.close()
        wait_for(lambda: _try_register(proxy.port, "dup"), what="the key to be free").close()


def test_a_registration_without_the_secret_is_refused(monkeypatch):
    monkeypatch.setattr("tvm.rpc.proxy.PAIR_TIMEOUT", 0.2)  # before the proxy forks
    with rpc.Proxy(port=0, silent=True, secret=SECRET) as proxy:
        with pytest.raises(RPCError, match="the proxy has a secret"):
            _register(proxy.port, "victim")
        with pytest.raises(RPCError, match="the proxy failed to prove it knows the secret"):
            _register(proxy.port, "victim", b"a guess")
        with socket.create_connection(("127.0.0.1", proxy.port), timeout=10) as sock:
            # A peer that answers the challenge with a guess of the proof.
            sock.sendall(
                struct.pack("<II", PROXY_MAGIC, 6) + b"victim" + struct.pack("<I", 32) + b"\0" * 32
            )
            assert struct.unpack("<I", sock.recv(4, socket.MSG_WAITALL)) == (
                proxy_registration.CHALLENGE,
            )
            sock.recv(64, socket.MSG_WAITALL)
            sock.sendall(b"\1" * 32)
            assert struct.unpack("<I", sock.recv(4, socket.MSG_WAITALL)) == (
                proxy_registration.AUTH_FAILED,
            )
        # No server got the key, so a client's handshake (key included) goes nowhere.
        with pytest.raises(RPCError, match="no server with key 'victim'"):
            rpc.connect("127.0.0.1", proxy.port, key="victim")


def test_a_server_with_a_secret_refuses_a_proxy_without_one():
    with rpc.Proxy(port=0, silent=True) as proxy:
        with pytest.raises(RPCError, match="the proxy has no secret"):
            _register(proxy.port, "k", SECRET)


def test_a_session_through_a_proxy_with_a_secret(monkeypatch):
    monkeypatch.setenv("TVM_RPC_SECRET", SECRET.decode())  # read by the proxy and the server
    with rpc.Proxy(port=0, silent=True) as proxy:
        with rpc.Server(host="127.0.0.1", port=proxy.port, is_proxy=True, key="dev", silent=True):

            def session():
                try:
                    return rpc.connect("127.0.0.1", proxy.port, key="dev")
                except RPCError:
                    return None

            with wait_for(session, what="the server behind the proxy") as sess:
                assert sess.get_function("rpc_test.add")(2, 3) == 5


@pytest.mark.parametrize(
    "tail",
    [
        struct.pack("<I", 0xFFFFFFFF),
        struct.pack("<I", 3) + b"\xff\xfe\xfd",
        struct.pack("<I", 0),
        struct.pack("<I", 1) + b"\n",
    ],
)
def test_a_bad_key_is_refused_and_the_proxy_lives(tail):
    with rpc.Proxy(port=0, silent=True) as proxy:
        with socket.create_connection(("127.0.0.1", proxy.port), timeout=10) as sock:
            sock.sendall(struct.pack("<I", PROXY_MAGIC) + tail)
            assert struct.unpack("<I", sock.recv(4, socket.MSG_WAITALL)) == (
                proxy_registration.BAD_KEY,
            )
        _register(proxy.port, "still here").close()


@pytest.mark.parametrize("value, error", [(b"", ValueError), (1.5, TypeError)])
def test_a_bad_secret_argument_is_refused(value, error):
    with pytest.raises(error, match="tvm.rpc.Proxy: argument 'secret'"):
        rpc.Proxy(port=0, secret=value)


def test_a_long_key_behind_a_proxy_is_refused_locally():
    with pytest.raises(ValueError, match="tvm.rpc.Server: argument 'key' .* 1 to 256 bytes"):
        rpc.Server(port=1, is_proxy=True, key="k" * 300)


def test_connections_beyond_the_limit_are_closed(monkeypatch):
    monkeypatch.setattr("tvm.rpc.proxy.MAX_CONNECTIONS", 1)
    with rpc.Proxy(port=0, silent=True) as proxy:
        with socket.create_connection(("127.0.0.1", proxy.port), timeout=10):  # in its handshake
            with socket.create_connection(("127.0.0.1", proxy.port), timeout=10) as extra:
                assert extra.recv(1) == b""
        wait_for(lambda: _try_register(proxy.port, "k"), what="a free slot").close()


def _fake_proxy_answering(status):
    """A listener whose one connection reads a registration and answers ``status``."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(10)

    def serve():
        conn, _ = listener.accept()
        with conn:
            conn.settimeout(10)
            conn.recv(4 + 4 + 1 + 4 + 32, socket.MSG_WAITALL)
            conn.sendall(struct.pack("<I", status))
            conn.recv(1)
        listener.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return listener.getsockname()[1], thread


def test_a_server_with_a_secret_refuses_a_proxy_that_skips_its_proof():
    port, thread = _fake_proxy_answering(proxy_registration.OK)
    with pytest.raises(RPCError, match="without proving it knows the secret"):
        _register(port, "k", SECRET)
    thread.join(10)


def test_a_dripping_registration_is_cut_off_by_total_time(monkeypatch):
    monkeypatch.setattr(proxy_registration, "REGISTRATION_TIMEOUT", 0.5)  # before the fork
    with rpc.Proxy(port=0, silent=True) as proxy:
        with socket.create_connection(("127.0.0.1", proxy.port), timeout=10) as sock:
            sock.sendall(struct.pack("<II", PROXY_MAGIC, 200))
            cut = False
            for _ in range(100):  # a byte each 0.1 s: 10 s in all, each gap well inside 0.5 s
                try:
                    sock.sendall(b"k")
                except OSError:
                    cut = True
                    break
                readable, _, _ = select.select([sock], [], [], 0.1)
                if readable:
                    cut = True
                    break
            assert cut
