"""Sessions chained through servers with session_constructor_args."""

import numpy as np
import pytest
import tvm
import tvm.rpc as rpc
from tvm.error import RPCError


@pytest.fixture(scope="module")
def server():
    """The first hop: chaining on is what these tests are about (test_security.py has the
    allow-list that limits it by default)."""
    with rpc.Server(port=0, silent=True, permissive=True) as srv:
        yield srv


@pytest.fixture(scope="module")
def far_server():
    with rpc.Server(port=0, key="far", silent=True) as srv:
        yield srv


def test_two_hop_chain_runs_on_the_far_server(server, far_server):
    hop = ["rpc.Connect", "127.0.0.1", far_server.port, "far"]
    with rpc.connect("127.0.0.1", server.port, session_constructor_args=hop) as sess:
        assert sess.get_function("rpc_test.ppid")() == far_server.pid
        assert sess.get_function("rpc_test.add")(40, 2) == 42
        add3 = sess.get_function("rpc_test.make_adder")(3)
        assert add3(4) == 7


def test_tensors_and_files_cross_two_hops(server, far_server):
    hop = ["rpc.Connect", "127.0.0.1", far_server.port, "far"]
    with rpc.connect("127.0.0.1", server.port, session_constructor_args=hop) as sess:
        data = np.random.default_rng(0).random((64, 33))
        remote = tvm.runtime.tensor(data, sess.cpu())
        np.testing.assert_array_equal(remote.numpy(), data)
        np.testing.assert_array_equal(sess.get_function("rpc_test.echo")(remote).numpy(), data)
        sess.upload(b"payload", "f.txt")
        assert bytes(sess.download("f.txt")) == b"payload"


def test_errors_keep_their_kind_across_two_hops(server, far_server):
    hop = ["rpc.Connect", "127.0.0.1", far_server.port, "far"]
    with rpc.connect("127.0.0.1", server.port, session_constructor_args=hop) as sess:
        with pytest.raises(ValueError, match="deep") as info:
            sess.get_function("rpc_test.raise")("ValueError", "deep")
        assert isinstance(info.value, RPCError)
        assert str(info.value).count("Remote traceback") == 2  # both hops' tracebacks


def test_chain_to_a_wrong_key_fails_cleanly(server, far_server):
    hop = ["rpc.Connect", "127.0.0.1", far_server.port, "not-far"]
    with pytest.raises(RPCError, match="key mismatch"):
        rpc.connect("127.0.0.1", server.port, session_constructor_args=hop)


def test_three_hops(server, far_server):
    hops = [
        "rpc.Connect",
        "127.0.0.1",
        server.port,
        "",
        0,
        "rpc.Connect",
        "127.0.0.1",
        far_server.port,
        "far",
    ]
    with rpc.connect("127.0.0.1", server.port, session_constructor_args=hops) as sess:
        assert sess.get_function("rpc_test.ppid")() == far_server.pid
