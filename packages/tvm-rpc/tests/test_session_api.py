"""The user-facing session API, run against a LocalSession and a socket session alike."""

import os

import numpy as np
import pytest
import tvm
import tvm.rpc as rpc
import tvm_ffi
from tvm.error import RPCError


@pytest.fixture(params=["local", "socket"])
def sess(request):
    if request.param == "local":
        s = rpc.LocalSession()
    else:
        s = rpc.connect("127.0.0.1", request.getfixturevalue("server").port)
    yield s
    s.close()


def test_call_with_every_value_kind(sess):
    echo = sess.get_function("rpc_test.echo")
    assert sess.get_function("rpc_test.add")(2, 3) == 5
    for value in [
        None,
        True,
        -7,
        2.5,
        "text",
        b"\x00bytes",
        [1, [2, "x"]],
        {"k": [1, 2]},
        {3: None},
    ]:
        got = echo(value)
        assert got == value, value
    dtype = echo(tvm.runtime.tensor(np.zeros(1, "int8")).dtype)
    assert str(dtype) == "int8"


def test_remote_closure(sess):
    add5 = sess.get_function("rpc_test.make_adder")(5)
    assert isinstance(add5, rpc.RemoteFunction)
    assert add5(10) == 15


def test_remote_error_keeps_its_kind_and_traceback(sess):
    fail = sess.get_function("rpc_test.raise")
    crosses_process = not isinstance(sess, rpc.LocalSession)  # a LocalSession raises in place
    with pytest.raises(ValueError, match="bad value") as info:
        fail("ValueError", "bad value")
    assert isinstance(info.value, RPCError) == crosses_process
    if crosses_process:
        assert "Remote traceback" in str(info.value) and "_raise" in str(info.value)
    with pytest.raises(KeyError):
        fail("KeyError", "missing")
    with pytest.raises(OSError) as os_info:
        fail("OSError", "disk")
    assert isinstance(os_info.value, RPCError) == crosses_process


def test_unknown_function(sess):
    with pytest.raises(ValueError, match="no function named 'rpc_test.nope'") as info:
        sess.get_function("rpc_test.nope")
    assert isinstance(info.value, RPCError)
    assert sess.get_function("rpc_test.nope", allow_missing=True) is None
    with pytest.raises(TypeError, match="'name' must be a str"):
        sess.get_function(42)


def test_tensor_roundtrip(sess):
    dev = sess.cpu(0)
    assert dev == sess.device("cpu", 0)
    assert int(dev.device_type) >= 128 and tvm.runtime.device_exists(dev)
    data = np.arange(24, dtype="float32").reshape(2, 3, 4)
    remote = tvm.runtime.tensor(data, dev)
    assert isinstance(remote, rpc.RemoteTensor)
    assert remote.shape == (2, 3, 4) and str(remote.dtype) == "float32" and remote.device == dev
    np.testing.assert_array_equal(remote.numpy(), data)
    remote.copyfrom(data * 2)
    np.testing.assert_array_equal(remote.numpy(), data * 2)
    local = remote.copyto(tvm.cpu(0))
    np.testing.assert_array_equal(local.numpy(), data * 2)
    # a remote tensor goes back in as an argument, and comes back as a remote tensor
    same = sess.get_function("rpc_test.echo")(remote)
    np.testing.assert_array_equal(same.numpy(), data * 2)


def test_empty_and_bool_tensors(sess):
    empty = tvm.runtime.empty((0, 3), "int32", sess.cpu())
    assert empty.numpy().shape == (0, 3)
    flags = tvm.runtime.tensor(np.array([True, False, True]), sess.cpu())
    np.testing.assert_array_equal(flags.numpy(), [True, False, True])


def test_copyfrom_shape_mismatch(sess):
    remote = tvm.runtime.empty((4,), "float32", sess.cpu())
    with pytest.raises(ValueError, match="shape mismatch"):
        remote.copyfrom(np.zeros(5, "float32"))


def test_copyfrom_dtype_mismatch_is_an_error_not_a_cast(sess):
    remote = tvm.runtime.empty((3,), "int8", sess.cpu())
    with pytest.raises(
        ValueError, match="copyfrom: dtype mismatch, destination int8 vs source int64"
    ):
        remote.copyfrom(np.array([1, 300, -5], dtype="int64"))
    remote.copyfrom([1, 2, 3])  # lists are read as the tensor's dtype
    np.testing.assert_array_equal(remote.numpy(), [1, 2, 3])


def test_zero_dimensional_remote_tensor(sess):
    remote = tvm.runtime.tensor(np.array(2.5, dtype="float32"), sess.cpu())
    assert remote.shape == () and remote.numpy().shape == () and float(remote.numpy()) == 2.5
    remote.copyfrom(4.0)
    assert float(remote.numpy()) == 4.0


def test_numpy_argument_travels_inline(sess):
    got = sess.get_function("rpc_test.echo")(np.arange(5, dtype="int64"))
    np.testing.assert_array_equal(got.numpy() if hasattr(got, "numpy") else got, np.arange(5))


def test_remote_objects_of_another_session_are_refused(sess):
    other = rpc.LocalSession()
    try:
        foreign = tvm.runtime.empty((2,), "float32", other.cpu())
        with pytest.raises(ValueError, match="another session"):
            sess.get_function("rpc_test.echo")(foreign)
    finally:
        other.close()


def test_files(sess, tmp_path):
    sess.upload(b"hello rpc", "dir/a.txt")
    assert bytes(sess.download("dir/a.txt")) == b"hello rpc"
    local = tmp_path / "b.bin"
    local.write_bytes(os.urandom(3000))
    sess.upload(str(local))
    assert bytes(sess.download("b.bin")) == local.read_bytes()
    sess.remove("b.bin")
    with pytest.raises(FileNotFoundError, match="b.bin"):
        sess.download("b.bin")
    with pytest.raises(ValueError, match="inside the session workspace"):
        sess.upload(b"x", "../escape.txt")
    with pytest.raises(FileNotFoundError):
        sess.load_module("missing.so")
    with pytest.raises(TypeError, match="'data' must be a path"):
        sess.upload(123, "x")


class BoardOnFire(RuntimeError):
    """An error kind a backend might register."""


tvm_ffi.register_error(BoardOnFire)


def _raise_registered():
    raise BoardOnFire("smoke")


tvm_ffi.register_global_func("rpc_test.raise_registered", _raise_registered, override=True)


def test_registered_error_kind_crosses(server):
    with rpc.connect("127.0.0.1", server.port) as sess:
        with pytest.raises(BoardOnFire, match="smoke") as info:
            sess.get_function("rpc_test.raise_registered")()
        assert isinstance(info.value, RPCError)


def test_dropped_proxies_free_their_handles():
    sess = rpc.LocalSession()
    tensor = tvm.runtime.empty((4,), "float32", sess.cpu())
    adder = sess.get_function("rpc_test.make_adder")(1)
    assert len(sess._objects) >= 2
    del tensor, adder
    assert len(sess._objects) == 0
    sess.close()


def test_local_functions_cannot_be_sent(server):
    with rpc.connect("127.0.0.1", server.port) as sess:
        with pytest.raises(TypeError, match="cannot send a value of type function"):
            sess.get_function("rpc_test.echo")(lambda: 1)
        assert sess.get_function("rpc_test.add")(1, 2) == 3  # the session is still usable


def test_get_function_reuses_the_handle_of_a_name(sess):
    first = sess.get_function_handle("rpc_test.add")
    second = sess.get_function_handle("rpc_test.add")
    assert first.id == second.id  # no new handle per lookup (it grew the worker's table)
    for _ in range(200):
        assert sess.get_function("rpc_test.add")(1, 2) == 3
    assert sess.get_function_handle("rpc_test.add").id == first.id
    sess.free_handles([(first.kind, first.id), (second.kind, second.id)])
    assert sess.call_handle(first.id, [1, 2]) == 3  # one reference is still out
    sess.free_handles([(first.kind, first.id)])
    with pytest.raises(ValueError, match="no function with handle"):
        sess.call_handle(first.id, [1, 2])
