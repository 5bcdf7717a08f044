"""Timing helpers shared by the tvm-rpc benchmark and its reference script (no tvm imports)."""

import os
import statistics
import time

MIB = 1 << 20
COPY_BYTES = 64 * MIB
# What both benchmarks call the round_trip figures of the plain no-op call.
NOP_FIGURES = {
    "median": "remote no-op round trip (us)",
    "best": "no-op round trip, best batch (us)",
    "cpu": "no-op round trip, CPU per call (us)",
}


def median_us(func, calls, batches=7):
    """Median over batches of the time per call, in microseconds."""
    return round_trip(func, calls, batches)["median"]


def round_trip(func, calls=2000, batches=15):
    """Figures of a remote call, each in microseconds per call: "median" and "best" of the
    batches' wall time, and "cpu", the CPU time of this process and of its descendants
    (the server and its workers) over all batches.

    Wall time on a small idle VM is bimodal (a blocked process can take tens of microseconds
    to wake), so the median alone swings with the scheduler; best-of-N and the CPU time per
    call are what two implementations can be compared on.
    """
    func()  # warm-up: first-call lookups and caches
    per_call = []
    cpu_start = time.process_time()
    children_start = descendants_cpu()
    for _ in range(batches):
        start = time.perf_counter()
        for _ in range(calls):
            func()
        per_call.append((time.perf_counter() - start) / calls)
    children_end = descendants_cpu()
    cpu = (
        time.process_time()
        - cpu_start
        + sum(
            children_end[pid] - used for pid, used in children_start.items() if pid in children_end
        )
    )
    return {
        "median": statistics.median(per_call) * 1e6,
        "best": min(per_call) * 1e6,
        "cpu": cpu / (calls * batches) * 1e6,
    }


def descendants_cpu():
    """{pid: user + system CPU seconds} of every live descendant of this process, from
    /proc (Linux); {} where there is no /proc."""
    parent_of, used = {}, {}
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    try:
        entries = os.listdir("/proc")
    except OSError:
        return {}
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue  # gone meanwhile
        # Fields after the parenthesised command name: state, ppid, ..., utime (12th), stime.
        fields = stat[stat.rindex(b")") + 2 :].split()
        parent_of[int(entry)] = int(fields[1])
        used[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    mine = {os.getpid()}
    grew = True
    while grew:
        grew = False
        for pid, parent in parent_of.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                grew = True
    mine.discard(os.getpid())
    return {pid: used[pid] for pid in mine}


def gib_per_s(func, nbytes, repeat=5):
    """Median throughput of func moving nbytes, after one warm-up (first touch of pages)."""
    func()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return nbytes / statistics.median(times) / (1 << 30)
