"""Leak check: many echo calls leave the process size flat and the use counts balanced."""

import os
import time

import pytest
import tvm_ffi
from tvm_ffi import testing

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


def run_for(seconds, max_calls, call):
    """Calls `call` in batches until `seconds` pass or max_calls is reached; returns the count."""
    deadline = time.monotonic() + seconds
    done = 0
    while done < max_calls and time.monotonic() < deadline:
        for _ in range(10_000):
            call()
        done += 10_000
    return done


@pytest.mark.skipif(
    not os.path.exists("/proc/self/statm"), reason="no /proc/self/statm on this system"
)
@pytest.mark.parametrize(
    "make_value",
    [
        lambda: testing.TestObjectBase(1, 2.0, "s"),
        lambda: "a string that is longer than seven bytes",
        lambda: [1, "two", b"three", {"k": 4.0}],
        lambda: tvm_ffi.Array([1, 2]),
    ],
    ids=["object", "long-str", "list", "array"],
)
def test_echo_leaves_rss_flat(make_value):
    value = make_value()
    echo = testing.echo
    holder = value if isinstance(value, tvm_ffi.Object) else None
    count_before = testing.object_use_count(holder) if holder is not None else None
    run_for(0.3, 100_000, lambda: echo(value))  # warm up allocator pools
    before = rss_bytes()
    calls = run_for(1.0, 1_000_000, lambda: echo(value))
    grown = rss_bytes() - before
    # A leak of even one 16-byte cell per call would show as calls * 16 bytes.
    assert grown < max(calls * 16 // 4, 4 << 20), (calls, grown)
    if holder is not None:
        assert testing.object_use_count(holder) == count_before


def test_python_callback_loop_keeps_counts_balanced():
    obj = testing.TestObjectBase(1, 2.0, "s")
    base = testing.object_use_count(obj)
    seen = []
    testing.call_n_times(lambda: seen.append(testing.echo(obj)), 1000)
    assert len(seen) == 1000
    assert testing.object_use_count(obj) == base + 1000
    seen.clear()
    assert testing.object_use_count(obj) == base
