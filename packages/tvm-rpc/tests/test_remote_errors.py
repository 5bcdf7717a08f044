"""Every kind of remote exception arrives as itself (or as RPCError naming its kind), with
its message and arguments, and the session survives it."""

import builtins
import errno

import pytest
import tvm.rpc as rpc
import tvm_ffi
from tvm.error import RPCError


def _raise_kind(kind):
    if kind == "OSError":
        raise OSError(errno.ENOENT, "no such thing", "/some/file")
    if kind == "UnicodeDecodeError":
        b"\xff".decode("utf-8")
    if kind == "SyntaxError":
        compile("a b", "snippet.py", "exec")
    if kind == "IndentationError":
        compile("if 1:\npass", "snippet.py", "exec")
    if kind == "TabError":
        compile("if 1:\n        a = 1\n\tb = 2", "snippet.py", "exec")
    if kind == "ExceptionGroup":
        raise builtins.ExceptionGroup("several", [ValueError("one"), KeyError("two")])
    if kind == "custom":
        err = LookupError("with attributes")
        err.code = 42
        raise err
    raise getattr(builtins, kind)("why")


# Registered at import, before the module's server forks.
tvm_ffi.register_global_func("rpc_test.raise_kind", _raise_kind, override=True)


@pytest.fixture
def raise_kind(session):
    return session.get_function("rpc_test.raise_kind")


def _survives(session):
    assert session.get_function("rpc_test.add")(1, 2) == 3


def test_os_error_keeps_errno_and_filename(session, raise_kind):
    with pytest.raises(FileNotFoundError) as info:
        raise_kind("OSError")
    err = info.value
    assert isinstance(err, RPCError)
    assert (err.errno, err.strerror, err.filename) == (errno.ENOENT, "no such thing", "/some/file")
    assert str(err).startswith("[Errno 2] no such thing: '/some/file'")
    assert "Remote traceback" in str(err)
    _survives(session)


def test_unicode_decode_error_keeps_its_message(session, raise_kind):
    with pytest.raises(UnicodeDecodeError) as info:
        raise_kind("UnicodeDecodeError")
    assert str(info.value).startswith("'utf-8' codec can't decode byte 0xff")
    assert info.value.object == b"\xff" and info.value.start == 0
    _survives(session)


@pytest.mark.parametrize("kind", ["SyntaxError", "IndentationError", "TabError"])
def test_syntax_errors_keep_their_message(session, raise_kind, kind):
    with pytest.raises(SyntaxError) as info:
        raise_kind(kind)
    assert type(info.value).__name__ == f"Remote{kind}"
    assert str(info.value) != "None" and "snippet.py" in str(info.value)
    assert info.value.lineno in (1, 2, 3)
    _survives(session)


@pytest.mark.skipif(not hasattr(builtins, "ExceptionGroup"), reason="Python >= 3.11")
def test_exception_group_arrives_as_rpc_error_naming_it(session, raise_kind):
    with pytest.raises(RPCError) as info:
        raise_kind("ExceptionGroup")
    assert info.value.remote_kind == "ExceptionGroup"
    assert str(info.value).startswith("ExceptionGroup: several (2 sub-exceptions)")
    _survives(session)


def test_custom_attributes_travel(session, raise_kind):
    with pytest.raises(LookupError) as info:
        raise_kind("custom")
    assert info.value.code == 42
    _survives(session)


def test_remote_broken_pipe_does_not_end_the_session(session, raise_kind):
    with pytest.raises(BrokenPipeError, match="why"):
        raise_kind("BrokenPipeError")
    _survives(session)


@pytest.mark.parametrize("kind", ["SystemExit", "KeyboardInterrupt", "GeneratorExit"])
def test_base_exceptions_do_not_kill_the_worker(session, raise_kind, kind):
    pid = session.get_function("rpc.GetPid")()
    with pytest.raises(RPCError) as info:
        raise_kind(kind)
    assert info.value.remote_kind == kind
    assert str(info.value).startswith(f"{kind}: why")
    assert "Remote traceback" in str(info.value)
    assert session.get_function("rpc.GetPid")() == pid
    _survives(session)


def test_errors_forwarded_by_a_middle_hop_keep_their_arguments(server):
    with rpc.Server(port=0, silent=True, allow_connect=[("127.0.0.1", server.port)]) as middle:
        with rpc.connect(
            "127.0.0.1",
            middle.port,
            session_constructor_args=["rpc.Connect", "127.0.0.1", server.port],
        ) as sess:
            with pytest.raises(FileNotFoundError) as info:
                sess.get_function("rpc_test.raise_kind")("OSError")
            assert (info.value.errno, info.value.filename) == (errno.ENOENT, "/some/file")
            assert str(info.value).count("Remote traceback") == 2
            _survives(sess)
