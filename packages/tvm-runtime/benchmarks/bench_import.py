"""`import tvm` wall time, and what backend autoload adds with 0, 1 and 20 entry points."""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 15


def import_ms(code: str, env: dict[str, str]) -> float:
    """Median wall time of a fresh interpreter running `code`, in ms."""
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=60)
        samples.append((time.perf_counter() - start) * 1e3)
    return statistics.median(samples)


def site_with_backends(root: Path, count: int) -> Path:
    """A folder holding `count` trivial distributions, each with one tvm.backends entry point."""
    site = root / f"site{count}"
    site.mkdir()
    for i in range(count):
        info = site / f"bench_backend_{i}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: bench-backend-{i}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(f"[tvm.backends]\nb{i} = bench_backend_{i}:load\n")
        (site / f"bench_backend_{i}.py").write_text("def load():\n    return None\n")
    return site


def importtime_self_us(module: str) -> int:
    """Cumulative microseconds -X importtime reports for `module`."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"],
                          capture_output=True, text=True, check=True)
    for line in proc.stderr.splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 3 and parts[2] == module:
            return int(parts[1])
    return -1


def main() -> None:
    env = dict(os.environ)
    env.pop("TVM_DEVICE_BACKEND_AUTOLOAD", None)
    base = import_ms("pass", env)
    ffi = import_ms("import tvm_ffi", env)
    tvm = import_ms("import tvm", env)
    print(f"interpreter start: {base:.1f} ms; import tvm_ffi: +{ffi - base:.1f} ms; "
          f"import tvm: +{tvm - base:.1f} ms (median of {RUNS} runs each)")
    print(f"-X importtime cumulative: tvm_ffi {importtime_self_us('tvm_ffi') / 1e3:.1f} ms, "
          f"tvm {importtime_self_us('tvm') / 1e3:.1f} ms")
    off = import_ms("import tvm", dict(env, TVM_DEVICE_BACKEND_AUTOLOAD="0"))
    print(f"import tvm with TVM_DEVICE_BACKEND_AUTOLOAD=0: +{off - base:.1f} ms")
    with tempfile.TemporaryDirectory() as tmp:
        for count in (0, 1, 20):
            site = site_with_backends(Path(tmp), count)
            path_env = dict(env, PYTHONPATH=os.pathsep.join([str(site), env.get("PYTHONPATH", "")]))
            on = import_ms("import tvm", path_env)
            print(f"autoload with {count:>2} entry point(s): import tvm +{on - base:.1f} ms, "
                  f"{on - off:+.1f} ms over autoload off")


if __name__ == "__main__":
    main()
