"""bench_rpc.py's figures measured for the apache-tvm RPC (runs in its own venv; prints JSON)."""

import json
import statistics
import time

import numpy as np
import tvm
from timing import COPY_BYTES, NOP_FIGURES, gib_per_s, round_trip  # this folder is sys.path[0]
from tvm import rpc


def _wait_connect(port, timeout=60.0):
    end = time.monotonic() + timeout
    while True:
        try:
            return rpc.connect("127.0.0.1", port)
        except Exception:  # noqa: BLE001  (the reference raises several kinds while starting)
            if time.monotonic() > end:
                raise
            time.sleep(0.005)


def main():
    results = {}
    start = time.perf_counter()
    server = rpc.Server(host="127.0.0.1", port=9391, port_end=9499, silent=True)
    _wait_connect(server.port)
    results["server start, python -m (ms)"] = (time.perf_counter() - start) * 1e3
    connects = []
    for _ in range(30):
        t0 = time.perf_counter()
        sess = rpc.connect("127.0.0.1", server.port)
        connects.append(time.perf_counter() - t0)
        del sess
    results["connect (ms)"] = statistics.median(connects) * 1e3
    sess = rpc.connect("127.0.0.1", server.port)
    nop = None
    for name in ("testing.nop", "runtime.GetFFIString"):
        try:
            nop = sess.get_function(name)
            break
        except Exception:  # noqa: BLE001
            continue
    if nop is not None:
        figures = round_trip(nop)
        results.update({NOP_FIGURES[k]: v for k, v in figures.items()})
    data = np.random.default_rng(0).integers(0, 255, COPY_BYTES, dtype=np.uint8)
    remote = tvm.runtime.tensor(data, sess.cpu())
    results["64 MiB copy to remote (GiB/s)"] = gib_per_s(lambda: remote.copyfrom(data), COPY_BYTES)
    results["64 MiB copy from remote (GiB/s)"] = gib_per_s(lambda: remote.numpy(), COPY_BYTES)
    server.terminate()
    print(json.dumps(results))


if __name__ == "__main__":
    main()
