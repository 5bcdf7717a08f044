"""RPC benchmarks over loopback: no-op round trip, 64 MiB copies, connect, server start.

Run by `nox -s bench`; figures are printed, never asserted. With TVM_BENCH_REFERENCE_PYTHON
set (nox does it from requirements-reference.txt) the same figures are measured for the
apache-tvm RPC in that interpreter and printed side by side.
"""

import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import time

import numpy as np
import tvm
import tvm.rpc as rpc
from timing import (
    COPY_BYTES,
    NOP_FIGURES,
    gib_per_s,
    median_us,
    round_trip,
)  # this folder is sys.path[0]

HERE = os.path.dirname(os.path.abspath(__file__))

# The function both benchmarks call: tvm-ffi's native no-op, as the reference calls its own.
NOP = "testing.nop"
BENCH_SECRET = "bench secret"
AUTH_FIGURES = {
    "median": "no-op round trip, authenticated (us)",
    "best": "authenticated no-op, best batch (us)",
    "cpu": "authenticated no-op, CPU per call (us)",
}
# Our figures without a counterpart of their own in the reference: compared with these
# (apache-tvm has no authentication, so its plain round trip is the bar for both of ours).
REFERENCE_OF = {AUTH_FIGURES[k]: NOP_FIGURES[k] for k in NOP_FIGURES}


def _wait_connect(port, timeout=30.0, **kwargs):
    end = time.monotonic() + timeout
    while True:
        try:
            return rpc.connect("127.0.0.1", port, **kwargs)
        except tvm.error.RPCError:
            if time.monotonic() > end:
                raise
            time.sleep(0.002)


def _sink(listener, rounds):
    conn, _ = listener.accept()
    view = memoryview(bytearray(COPY_BYTES))
    for _ in range(rounds):
        got = 0
        while got < COPY_BYTES:
            got += conn.recv_into(view[got:])
        conn.sendall(b"k")
    conn.close()


def raw_tcpgib_per_s(repeat=5):
    """Plain Python sockets moving 64 MiB to another process over loopback: the ceiling
    for any Python RPC on this machine."""
    listener = socket.create_server(("127.0.0.1", 0))
    sink = multiprocessing.get_context("fork").Process(target=_sink, args=(listener, repeat + 1))
    sink.start()
    client = socket.create_connection(("127.0.0.1", listener.getsockname()[1]))
    payload = memoryview(np.ones(COPY_BYTES, np.uint8))

    def send():
        client.sendall(payload)
        client.recv(1)

    figure = gib_per_s(send, COPY_BYTES, repeat)
    sink.join(60)
    client.close()
    listener.close()
    return figure


def measure():
    results = {}
    start = time.perf_counter()
    server = rpc.Server(port=0, silent=True)
    _wait_connect(server.port).close()
    results["server start, fork (ms)"] = (time.perf_counter() - start) * 1e3
    start = time.perf_counter()
    popen_server = rpc.Server(port=0, use_popen=True, silent=True)
    _wait_connect(popen_server.port).close()
    results["server start, python -m (ms)"] = (time.perf_counter() - start) * 1e3
    popen_server.terminate()

    connects = []
    for _ in range(30):
        t0 = time.perf_counter()
        sess = rpc.connect("127.0.0.1", server.port)
        connects.append(time.perf_counter() - t0)
        sess.close()
    results["connect (ms)"] = statistics.median(connects) * 1e3

    sess = rpc.connect("127.0.0.1", server.port)
    nop = sess.get_function(NOP)
    figures = round_trip(nop)
    results.update({NOP_FIGURES[k]: v for k, v in figures.items()})
    with rpc.Server(port=0, silent=True, secret=BENCH_SECRET) as auth_server:
        auth_sess = _wait_connect(auth_server.port, secret=BENCH_SECRET)
        figures = round_trip(auth_sess.get_function(NOP))
        results.update({AUTH_FIGURES[k]: v for k, v in figures.items()})
        auth_sess.close()

    data = np.random.default_rng(0).integers(0, 255, COPY_BYTES, dtype=np.uint8)
    remote = tvm.runtime.empty((COPY_BYTES,), "uint8", sess.cpu())
    out = np.empty_like(data)
    handle = remote._rpc_handle.id
    results["64 MiB copy to remote (GiB/s)"] = gib_per_s(lambda: remote.copyfrom(data), COPY_BYTES)
    results["64 MiB copy from remote (GiB/s)"] = gib_per_s(
        lambda: sess.copy_from_remote(handle, 0, memoryview(out)), COPY_BYTES
    )
    assert (out == data).all()
    sess.close()
    server.terminate()

    with rpc.PopenSession() as popen:
        nop = popen.get_function("rpc.GetPid")
        results["PopenSession round trip (us)"] = median_us(nop, 2000)
    results["raw Python TCP loopback (GiB/s)"] = raw_tcpgib_per_s()
    return results


def reference_results():
    python = os.environ.get("TVM_BENCH_REFERENCE_PYTHON")
    if not python:
        return None, "no reference interpreter (TVM_BENCH_REFERENCE_PYTHON unset)"
    proc = subprocess.run(
        [python, os.path.join(HERE, "bench_rpc_reference.py")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if proc.returncode != 0:
        return None, f"reference run failed: {proc.stderr.strip().splitlines()[-1:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1]), "apache-tvm RPC"


def main():
    ours = measure()
    theirs, label = reference_results()
    print(f"{'figure':36} {'tvm-rpc':>10} {'reference':>10} {'ratio':>7}")
    for name, value in ours.items():
        ref = theirs.get(REFERENCE_OF.get(name, name)) if theirs else None
        ratio = f"{value / ref:7.2f}" if ref else "      -"
        ref_text = f"{ref:10.2f}" if ref else "         -"
        print(f"{name:36} {value:10.2f} {ref_text} {ratio}")
    print(
        f"reference: {label}; ratio = tvm-rpc / reference (ms, us: lower is better; "
        "GiB/s: higher is better)"
    )


if __name__ == "__main__":
    main()
