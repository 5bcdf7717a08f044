"""The read poll of channels backs off when it does not pay (see channel._SPIN_SECONDS)."""

import socket

import pytest
from tvm.rpc import channel as channel_mod
from tvm.rpc.channel import SocketChannel


@pytest.fixture
def pair():
    a, b = socket.socketpair()
    yield a, b
    a.close()
    b.close()


def _polls(chan, count, waited):
    """The windows of ``count`` polls that each waited ``waited`` seconds."""
    windows = []
    for _ in range(count):
        windows.append(chan._poll_window())
        chan._polled += waited
    return windows


def test_a_preempted_process_whose_polls_wait_long_stops_polling(pair, monkeypatch):
    count = iter(range(0, 10**6, 10))  # ten preemptions between any two looks: busy cores
    monkeypatch.setattr(channel_mod, "_preemptions", lambda: next(count))
    chan = SocketChannel(pair[0])
    windows = _polls(chan, channel_mod._BUSY_CHECK + 100, 2 * channel_mod._SLOW_POLL)
    assert windows[0] > 0
    assert windows[channel_mod._BUSY_CHECK :] == [0.0] * 100  # polling off on a busy machine


def test_a_preempted_process_whose_polls_pay_keeps_polling(pair, monkeypatch):
    count = iter(range(0, 10**6, 10))  # preempted now and then by a stray task...
    monkeypatch.setattr(channel_mod, "_preemptions", lambda: next(count))
    chan = SocketChannel(pair[0])
    windows = _polls(chan, 3 * channel_mod._BUSY_CHECK, channel_mod._SLOW_POLL / 4)
    assert all(w > 0 for w in windows)  # ...while its polls end fast: they still pay


def test_missed_polls_count_as_whole_windows_waited(pair, monkeypatch):
    count = iter(range(0, 10**6, 10))
    monkeypatch.setattr(channel_mod, "_preemptions", lambda: next(count))
    chan = SocketChannel(pair[0])
    for _ in range(channel_mod._BUSY_CHECK - 1):
        chan._poll_window()
        chan._poll_missed()
        chan._skip = 0
    assert chan._poll_window() == 0.0  # the look at the count: misses made it busy


def test_an_idle_process_keeps_polling(pair, monkeypatch):
    monkeypatch.setattr(channel_mod, "_preemptions", lambda: 0)
    chan = SocketChannel(pair[0])
    assert all(chan._poll_window() > 0 for _ in range(3 * channel_mod._BUSY_CHECK))


def test_misses_in_a_row_skip_more_reads_and_a_hit_resets(pair, monkeypatch):
    monkeypatch.setattr(channel_mod, "_preemptions", lambda: 0)
    a, b = pair
    chan = SocketChannel(a)
    skipped = []
    for _ in range(3):
        chan._poll_missed()
        skipped.append(chan._skip)
        chan._skip = 0
    assert skipped == [1, 2, 4]
    b.send(b"x")  # there before the read: the poll hits
    assert chan._recv_into(memoryview(bytearray(16))) == 1
    chan._poll_missed()
    assert chan._skip == 1
