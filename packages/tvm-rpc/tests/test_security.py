"""The security model (docs/rpc-protocol.md, Security): shared-secret challenge-response,
TLS, the allow-list of session constructors and loads, and what a peer may cost before it
is authenticated."""

import os
import select
import shutil
import socket
import ssl
import subprocess
import threading

import pytest
import tvm.rpc as rpc
from conftest import logged, try_connect, until_closed, wait_for
from tvm.error import RPCError
from tvm.rpc import auth, protocol
from tvm.rpc.codec import encode_all
from tvm.rpc.handshake import AuthenticationError
from tvm.rpc.protocol import FRAME_HEADER, MAGIC, MAGIC_STRUCT, Code

SECRET = "correct horse battery staple"


@pytest.fixture(autouse=True)
def _no_secret_in_environment(monkeypatch):
    monkeypatch.delenv(auth.SECRET_ENV_VAR, raising=False)


@pytest.fixture(scope="module")
def secret_server():
    with rpc.Server(port=0, silent=True, secret=SECRET) as srv:
        yield srv


# -- authentication -------------------------------------------------------------------------
def test_the_right_secret_opens_a_session(secret_server):
    with rpc.connect("127.0.0.1", secret_server.port, secret=SECRET) as sess:
        assert sess.get_function("rpc_test.add")(1, 2) == 3
    with rpc.connect("127.0.0.1", secret_server.port, secret=SECRET.encode()) as sess:
        assert sess.get_function("rpc_test.add")(1, 2) == 3


def test_the_secret_can_come_from_the_environment(secret_server, monkeypatch):
    monkeypatch.setenv(auth.SECRET_ENV_VAR, SECRET)
    with rpc.connect("127.0.0.1", secret_server.port) as sess:
        assert sess.get_function("rpc_test.add")(1, 2) == 3


def test_a_wrong_or_missing_secret_is_refused(secret_server):
    with pytest.raises(AuthenticationError, match="did not prove it knows the shared secret"):
        rpc.connect("127.0.0.1", secret_server.port, secret="wrong")
    with pytest.raises(AuthenticationError, match="requires authentication"):
        rpc.connect("127.0.0.1", secret_server.port)


def test_a_client_with_a_secret_refuses_a_server_without_one(server):
    with pytest.raises(AuthenticationError, match="does not authenticate"):
        rpc.connect("127.0.0.1", server.port, secret=SECRET)


def test_secret_arguments_are_checked():
    with pytest.raises(
        TypeError, match="tvm.rpc.connect: argument 'secret' must be a str or bytes"
    ):
        rpc.connect("127.0.0.1", 9, secret=5)
    with pytest.raises(ValueError, match="tvm.rpc.Server: argument 'secret' must not be empty"):
        rpc.Server(port=0, secret="")
    with pytest.raises(TypeError, match="argument 'ssl_context' must be None or an ssl.SSLContext"):
        rpc.connect("127.0.0.1", 9, ssl_context="yes")


def _recording_relay(target_port):
    """A loopback relay to target_port that records every byte in both directions."""
    listener = socket.create_server(("127.0.0.1", 0))
    recorded = bytearray()

    def run():
        conn, _ = listener.accept()
        upstream = socket.create_connection(("127.0.0.1", target_port))
        peers = {conn: upstream, upstream: conn}
        for _ in range(10000):  # bounded: one session's handshake and a call or two
            ready, _, _ = select.select(list(peers), [], [], 10)
            if not ready:
                break
            data = ready[0].recv(65536)
            if not data:
                break
            recorded.extend(data)
            peers[ready[0]].sendall(data)
        conn.close()
        upstream.close()
        listener.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return listener.getsockname()[1], recorded, thread


def test_the_secret_never_crosses_the_wire(secret_server):
    port, recorded, thread = _recording_relay(secret_server.port)
    with rpc.connect("127.0.0.1", port, secret=SECRET) as sess:
        assert sess.get_function("rpc_test.add")(1, 2) == 3
    thread.join(10)
    assert len(recorded) > 100  # it did see the handshake
    assert SECRET.encode() not in recorded


def test_non_loopback_bind_needs_a_secret_or_an_explicit_flag():
    with pytest.raises(ValueError, match="refusing to listen on '0.0.0.0' without a secret"):
        rpc.Server(host="0.0.0.0", port=0)
    with rpc.Server(host="0.0.0.0", port=0, silent=True, secret=SECRET) as srv:
        with rpc.connect("127.0.0.1", srv.port, secret=SECRET) as sess:
            assert sess.get_function("rpc_test.add")(1, 2) == 3
    with rpc.Server(host="0.0.0.0", port=0, silent=True, insecure=True) as srv:
        with rpc.connect("127.0.0.1", srv.port) as sess:
            assert sess.get_function("rpc_test.add")(1, 2) == 3


def test_a_popen_server_gets_the_secret_without_a_command_line_argument():
    with rpc.Server(port=0, silent=True, use_popen=True, secret=SECRET) as srv:
        sess = wait_for(lambda: try_connect(srv.port, secret=SECRET), what="the popen server")
        with sess:
            assert sess.get_function("rpc.GetPid")() != os.getpid()
        with open(f"/proc/{srv.pid}/cmdline", "rb") as f:
            assert SECRET.encode() not in f.read()


# -- TLS ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tls_contexts(tmp_path_factory):
    if shutil.which("openssl") is None:
        pytest.skip("no openssl command to make a test certificate")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_ctx.load_cert_chain(cert, key)
    client_ctx = ssl.create_default_context(cafile=str(cert))
    return server_ctx, client_ctx


def test_tls_with_a_secret(tls_contexts):
    server_ctx, client_ctx = tls_contexts
    with rpc.Server(port=0, silent=True, secret=SECRET, ssl_context=server_ctx) as srv:
        with rpc.connect("127.0.0.1", srv.port, secret=SECRET, ssl_context=client_ctx) as sess:
            assert sess.get_function("rpc_test.add")(1, 2) == 3
            assert bytes(sess.get_function("rpc_test.echo")(b"\x00" * 300000)) == b"\x00" * 300000
        with pytest.raises(RPCError):  # a plain client cannot talk to a TLS server
            rpc.connect("127.0.0.1", srv.port, secret=SECRET, handshake_timeout=5)
        untrusting = ssl.create_default_context()
        with pytest.raises(RPCError, match="TLS handshake"):
            rpc.connect("127.0.0.1", srv.port, secret=SECRET, ssl_context=untrusting)


# -- the allow-list ---------------------------------------------------------------------------
def test_popen_session_of_a_program_is_refused_by_default(session, server, tmp_path):
    marker = tmp_path / "ran"
    with pytest.raises(PermissionError, match="rpc.PopenSession of '/bin/sh' is not allowed"):
        rpc.connect(
            "127.0.0.1",
            server.port,
            session_constructor_args=["rpc.PopenSession", "/bin/sh", "-c", f"touch {marker}"],
        )
    with pytest.raises(PermissionError, match="uploaded bytes"):
        rpc.connect(
            "127.0.0.1", server.port, session_constructor_args=["rpc.PopenSession", b"#!/bin/sh\n"]
        )
    assert not marker.exists()
    with rpc.connect(
        "127.0.0.1", server.port, session_constructor_args=["rpc.PopenSession"]
    ) as sess:  # the default worker
        assert sess.get_function("rpc.GetPid")() != os.getpid()


def test_listed_popen_programs_are_allowed(tmp_path):
    marker = tmp_path / "ran"
    with rpc.Server(port=0, silent=True, allow_popen=["/bin/sh"]) as srv:
        with pytest.raises(RPCError, match="without completing the RPC handshake"):
            rpc.connect(
                "127.0.0.1",
                srv.port,
                session_constructor_args=["rpc.PopenSession", "/bin/sh", "-c", f"touch {marker}"],
            )
    assert marker.exists()


def test_rpc_connect_goes_only_where_the_server_allows(server):
    with rpc.Server(port=0, silent=True, allow_connect=[("127.0.0.1", server.port)]) as middle:
        with pytest.raises(PermissionError, match="rpc.Connect to 127.0.0.1:9 is not allowed"):
            rpc.connect(
                "127.0.0.1", middle.port, session_constructor_args=["rpc.Connect", "127.0.0.1", 9]
            )
        with rpc.connect(
            "127.0.0.1",
            middle.port,
            session_constructor_args=["rpc.Connect", "127.0.0.1", server.port],
        ) as sess:
            assert sess.get_function("rpc_test.ppid")() == server.pid
    with pytest.raises(PermissionError, match="is not allowed"):
        rpc.connect(
            "127.0.0.1",
            server.port,
            session_constructor_args=["rpc.Connect", "127.0.0.1", server.port],
        )


def test_allow_list_arguments_are_checked():
    with pytest.raises(TypeError, match="'allow_connect' must hold \\(host, port\\) pairs"):
        rpc.Server(port=0, allow_connect=["127.0.0.1:9"])
    with pytest.raises(TypeError, match="'allow_popen' must be a list of paths"):
        rpc.Server(port=0, allow_popen="/bin/sh")


def test_module_loading_globals_stay_in_the_workspace(session, tmp_path):
    outside = tmp_path / "lib.so"
    outside.write_bytes(b"not a library")
    load = session.get_function("ffi.ModuleLoadFromFile")
    with pytest.raises(ValueError, match="must stay inside the session workspace"):
        load(str(outside))
    with pytest.raises(ValueError, match="must stay inside the session workspace"):
        load("../" + outside.name)


def test_permissive_lifts_the_workspace_confinement(tmp_path):
    outside = tmp_path / "lib.so"
    outside.write_bytes(b"not a library")
    with rpc.Server(port=0, silent=True, permissive=True) as srv:
        with rpc.connect("127.0.0.1", srv.port) as sess:
            with pytest.raises(Exception) as info:
                sess.get_function("ffi.ModuleLoadFromFile")(str(outside))
            assert "workspace" not in str(info.value)  # the loader itself refused the file


# -- before authentication ------------------------------------------------------------------
def _handshake_prefix(port):
    """A socket that has sent the magic and a valid INIT and read the server's INIT."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    meta = bytes(encode_all([protocol.PROTOCOL_VERSION, "raw", auth.new_nonce(), ""]))
    sock.sendall(
        MAGIC_STRUCT.pack(MAGIC) + FRAME_HEADER.pack(8 + len(meta), Code.INIT, len(meta)) + meta
    )
    return sock


def test_a_large_frame_before_authentication_is_refused_unread(capfd):
    with rpc.Server(port=0, secret=SECRET) as logged_server:
        sock = _handshake_prefix(logged_server.port)
        sock.sendall(FRAME_HEADER.pack(256 << 20, Code.HELLO, 32 << 20))
        until_closed(sock)
        sock.close()
        log = logged(capfd, "exceeds the maximum frame size")
    assert f"maximum frame size {protocol.PREAUTH_MAX_FRAME_SIZE}" in log


def test_handshake_errors_name_the_frame_they_got(capfd):
    with rpc.Server(port=0) as logged_server:
        _bad_handshakes(logged_server, capfd)


def _bad_handshakes(server, capfd):
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    meta = bytes(encode_all(["not a version"]))
    sock.sendall(
        MAGIC_STRUCT.pack(MAGIC) + FRAME_HEADER.pack(8 + len(meta), Code.INIT, len(meta)) + meta
    )
    until_closed(sock)
    log = logged(capfd, "malformed INIT frame")
    assert "got code 1" not in log
    sock = _handshake_prefix(server.port)
    meta = bytes(encode_all(["key", 0.0, []]))  # the version 1 HELLO
    sock.sendall(FRAME_HEADER.pack(8 + len(meta), Code.HELLO, len(meta)) + meta)
    until_closed(sock)
    assert (
        "malformed HELLO frame: expected (proof, session_timeout, constructor args), got "
        "(str, float, list)" in logged(capfd, "malformed HELLO frame")
    )


def test_authentication_runs_end_to_end_through_a_proxy():
    # One cluster secret: the proxy proves it to the server, the client to the server (end to end).
    with rpc.Proxy(port=0, silent=True, secret=SECRET) as proxy:
        with rpc.Server(
            port=proxy.port, is_proxy=True, key="dev", silent=True, secret=SECRET
        ) as srv:
            sess = wait_for(
                lambda: try_connect(proxy.port, key="dev", secret=SECRET),
                what="the server behind the proxy",
            )
            with sess:
                assert sess.get_function("rpc_test.ppid")() == srv.pid
            with pytest.raises(AuthenticationError):
                for _ in range(3):  # the proxy waits (10 s) for the server to register again
                    try_connect(proxy.port, key="dev", secret="wrong")


def test_an_explicit_secret_reaches_the_tracker_and_its_servers(monkeypatch):
    # No $TVM_RPC_SECRET: the secret given to connect_tracker must also open the session on
    # the server the tracker hands out, and the server's tracker link must use its own.
    monkeypatch.delenv("TVM_RPC_SECRET", raising=False)
    with rpc.Tracker(port=0, silent=True, secret=SECRET) as tracker:
        with rpc.Server(
            port=0, tracker_addr=("127.0.0.1", tracker.port), key="dev", silent=True, secret=SECRET
        ) as srv:
            session = rpc.connect_tracker("127.0.0.1", tracker.port, secret=SECRET)
            remote = wait_for(lambda: _request_or_none(session), what="a server at the tracker")
            with remote:
                assert remote.get_function("rpc_test.ppid")() == srv.pid


def _request_or_none(tracker_session):
    try:
        return tracker_session.request("dev", timeout=1)
    except RPCError:
        return None
