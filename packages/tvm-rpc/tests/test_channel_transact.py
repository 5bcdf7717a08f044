"""SocketChannel.transact (a request and its reply, the hot path of calls) keeps every check
of recv_frame: replies in pieces, several frames in one read, bounds, a peer gone."""

import socket
import threading
import time

import pytest
from tvm.rpc.channel import ChannelClosed, SendFailed, SocketChannel
from tvm.rpc.codec import ProtocolError
from tvm.rpc.protocol import FRAME_HEADER, Code

REQUEST = FRAME_HEADER.pack(FRAME_HEADER.size - 8 + 1, Code.CALL, 1) + b"\0"


def frame(code, meta, bulk=b""):
    return FRAME_HEADER.pack(FRAME_HEADER.size - 8 + len(meta) + len(bulk), code, len(meta)) + (
        meta + bulk
    )


@pytest.fixture
def pair():
    a, b = socket.socketpair()
    yield a, b
    a.close()
    b.close()


def test_the_request_is_sent_and_a_whole_reply_returned(pair):
    a, b = pair
    chan = SocketChannel(a)
    b.sendall(frame(Code.RETURN, b"\x03" + bytes(8)))
    code, meta, bulk_len = chan.transact(REQUEST)
    assert (code, bytes(meta), bulk_len) == (Code.RETURN, b"\x03" + bytes(8), 0)
    assert b.recv(100) == REQUEST


def test_a_reply_arriving_in_pieces_is_read_whole(pair):
    a, b = pair
    chan = SocketChannel(a)
    reply = frame(Code.RETURN, b"\x05" + bytes(4) + b"x" * 2000)

    def drip():
        b.recv(100)
        for i in range(0, len(reply), 7):
            b.sendall(reply[i : i + 7])
            time.sleep(0.0005)

    t = threading.Thread(target=drip)
    t.start()
    code, meta, bulk_len = chan.transact(REQUEST)
    t.join()
    assert (code, bytes(meta), bulk_len) == (Code.RETURN, reply[FRAME_HEADER.size :], 0)


def test_two_frames_in_one_read_are_both_delivered(pair):
    a, b = pair
    chan = SocketChannel(a)
    b.sendall(frame(Code.RETURN, b"\0") + frame(Code.EXCEPTION, b"\x05\0\0\0\0"))
    assert chan.transact(REQUEST)[0] == Code.RETURN
    assert chan.recv_frame()[0] == Code.EXCEPTION


def test_a_reply_with_bulk_leaves_the_bulk_to_read(pair):
    a, b = pair
    chan = SocketChannel(a)
    b.sendall(frame(Code.RETURN, b"\0", b"bulk!"))
    code, meta, bulk_len = chan.transact(REQUEST)
    assert (code, bytes(meta), bulk_len) == (Code.RETURN, b"\0", 5)
    out = bytearray(5)
    chan.read_into(memoryview(out))
    assert out == b"bulk!"


def test_a_reply_over_the_frame_limit_is_refused(pair):
    a, b = pair
    chan = SocketChannel(a, max_frame_size=64)
    b.sendall(frame(Code.RETURN, b"\x05" + (100).to_bytes(4, "little") + b"x" * 100))
    with pytest.raises(ProtocolError, match="exceeds the maximum frame size 64"):
        chan.transact(REQUEST)


def test_a_reply_whose_meta_overruns_its_frame_is_refused(pair):
    a, b = pair
    chan = SocketChannel(a)
    b.sendall(FRAME_HEADER.pack(FRAME_HEADER.size - 8, Code.RETURN, 1) + b"\0")
    with pytest.raises(ProtocolError, match="cannot hold its 1-byte meta"):
        chan.transact(REQUEST)


def test_a_peer_that_hangs_up_before_replying(pair):
    a, b = pair
    chan = SocketChannel(a)
    b.shutdown(socket.SHUT_WR)
    with pytest.raises(ChannelClosed, match="peer closed the connection"):
        chan.transact(REQUEST)


def test_a_peer_gone_before_the_request_raises_send_failed(pair):
    a, b = pair
    chan = SocketChannel(a)
    b.close()
    with pytest.raises(SendFailed):
        for _ in range(100):  # the first send may still land in the socket buffer
            chan.transact(REQUEST)


def test_under_a_write_lock_or_deadline_the_checked_path_is_taken(pair):
    a, b = pair
    chan = SocketChannel(a)
    chan.write_lock = threading.Lock()
    chan.deadline = time.monotonic() + 5
    b.sendall(frame(Code.RETURN, b"\0"))
    assert chan.transact(REQUEST)[0] == Code.RETURN
    assert not chan.write_lock.locked()
    chan.deadline = time.monotonic() - 1
    with pytest.raises(TimeoutError):
        chan.transact(REQUEST)
