"""Fixtures for tvm-rpc tests: test functions registered before any server forks, servers on
dynamic loopback ports, and bounded polling helpers."""

import os
import time

import pytest
import tvm.rpc as rpc
import tvm_ffi


def _rendezvous(folder, count, timeout):
    """Mark this call present, then wait until ``count`` calls are present at once."""
    open(os.path.join(folder, str(os.getpid())), "w").close()
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if len(os.listdir(folder)) >= count:
            return True
        time.sleep(0.01)
    return False


def _raise(kind, message):
    raise {
        "ValueError": ValueError,
        "KeyError": KeyError,
        "TypeError": TypeError,
        "OSError": OSError,
    }[kind](message)


# Registered at import, so servers forked by the tests serve them.
TEST_FUNCTIONS = {
    "rpc_test.add": lambda a, b: a + b,
    "rpc_test.echo": lambda x: x,
    "rpc_test.sleep": lambda seconds: time.sleep(seconds) or seconds,
    "rpc_test.raise": _raise,
    "rpc_test.make_adder": lambda n: lambda x: x + n,
    "rpc_test.crash": lambda: os._exit(3),
    "rpc_test.ppid": os.getppid,
    "rpc_test.rendezvous": _rendezvous,
}
for _name, _func in TEST_FUNCTIONS.items():
    tvm_ffi.register_global_func(_name, _func, override=True)


def wait_for(predicate, timeout=10.0, what="condition"):
    """Poll ``predicate`` until it is true (bounded); returns its last value."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() > end:
            assert value, f"timed out after {timeout} s waiting for {what}"
            return value
        time.sleep(0.02)


def try_connect(port, **kwargs):
    """A session on the server at port, or None while it does not answer yet (an
    authentication failure is raised: waiting would not help)."""
    from tvm.error import RPCError
    from tvm.rpc.handshake import AuthenticationError

    try:
        return rpc.connect("127.0.0.1", port, **kwargs)
    except AuthenticationError:
        raise
    except RPCError:
        return None


def until_closed(sock):
    """Read until the peer closes the connection (bounded by the socket's timeout)."""
    received = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return received
        received += chunk


def logged(capfd, text):
    """Wait (bounded) until the captured stderr holds ``text``; returns what it held."""
    seen = []

    def check():
        seen.append(capfd.readouterr().err)
        return text in "".join(seen)

    try:
        wait_for(check, what=f"log line containing {text!r}")
    except AssertionError:
        raise AssertionError(f"no {text!r} in the server log: {''.join(seen)!r}") from None
    return "".join(seen)


def process_gone(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # A zombie still answers kill(0); its /proc state says it is dead.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] in ("Z", "X")
    except OSError:
        return True


@pytest.fixture(scope="module")
def server():
    with rpc.Server(port=0, silent=True) as srv:
        yield srv


@pytest.fixture
def session(server):
    sess = rpc.connect("127.0.0.1", server.port)
    yield sess
    sess.close()
