"""`import tvm` wall time, and what backend autoload adds with 0, 1 and 20 entry points."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 20

# Inside a fresh interpreter with autoload off: what discovery and loading every backend cost.
AUTOLOAD_PROBE = """
import time, tvm
from tvm import _entry_points, backend
t0 = time.perf_counter()
found = _entry_points.entry_points(backend.GROUP)
t1 = time.perf_counter()
for b in backend.list_backends():
    backend.load(b.name)
t2 = time.perf_counter()
print(len(found), (t1 - t0) * 1e3, (t2 - t1) * 1e3)
"""


IN_PROCESS = (
    "import time; t = time.perf_counter(); import tvm; print((time.perf_counter() - t) * 1e3)"
)
# The same with tvm._version_guard replaced by a no-op, to show what the guard costs.
IN_PROCESS_NO_GUARD = (
    "import sys, types; guard = types.ModuleType('tvm._version_guard'); "
    "guard.require = lambda *a, **k: None; sys.modules['tvm._version_guard'] = guard; " + IN_PROCESS
)


def in_process_ms(code: str, env: dict[str, str]) -> tuple[float, float]:
    """(min, median) of the time `import tvm` takes inside fresh interpreters, in ms."""
    samples = [
        float(
            subprocess.run(
                [sys.executable, "-c", code],
                env=env,
                check=True,
                capture_output=True,
                text=True,
                timeout=60,
            ).stdout
        )
        for _ in range(RUNS)
    ]
    return min(samples), statistics.median(samples)


def import_ms(code: str, env: dict[str, str]) -> tuple[float, float]:
    """(min, median) wall time of a fresh interpreter running `code`, in ms."""
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=60)
        samples.append((time.perf_counter() - start) * 1e3)
    return min(samples), statistics.median(samples)


def autoload_ms(env: dict[str, str]) -> tuple[int, float, float]:
    """(entry points found, best discovery ms, best load-all ms) over a few interpreters."""
    best = None
    for _ in range(5):
        out = subprocess.run(
            [sys.executable, "-c", AUTOLOAD_PROBE],
            env=env,
            check=True,
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout.split()
        sample = (int(out[0]), float(out[1]), float(out[2]))
        best = (
            sample
            if best is None
            else (sample[0], min(best[1], sample[1]), min(best[2], sample[2]))
        )
    return best


def site_with_backends(root: Path, count: int) -> Path:
    """A folder holding `count` trivial distributions, each with one tvm.backends entry point."""
    site = root / f"site{count}"
    site.mkdir()
    for i in range(count):
        info = site / f"bench_backend_{i}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: bench-backend-{i}\nVersion: 1.0\n"
        )
        (info / "entry_points.txt").write_text(f"[tvm.backends]\nb{i} = bench_backend_{i}:load\n")
        (site / f"bench_backend_{i}.py").write_text("def load():\n    return None\n")
    return site


def importtime_us(statement_module: str, module: str | None = None) -> int:
    """Cumulative us that -X importtime reports for `module` while importing statement_module."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {statement_module}"],
        capture_output=True,
        text=True,
        check=True,
    )
    for line in proc.stderr.splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 3 and parts[2] == (module or statement_module):
            return int(parts[1])
    return -1


def main() -> None:
    env = dict(os.environ)
    env.pop("TVM_DEVICE_BACKEND_AUTOLOAD", None)
    base = import_ms("pass", env)
    ffi = import_ms("import tvm_ffi", env)
    tvm = import_ms("import tvm", env)
    print(f"fresh interpreter: {base[0]:.1f} ms (min of {RUNS}; median {base[1]:.1f})")
    print(f"import tvm_ffi adds {ffi[0] - base[0]:.1f} ms (median {ffi[1] - base[1]:.1f})")
    print(f"import tvm adds {tvm[0] - base[0]:.1f} ms (median {tvm[1] - base[1]:.1f})")
    inside = in_process_ms(IN_PROCESS, env)
    unguarded = in_process_ms(IN_PROCESS_NO_GUARD, env)
    print(
        f"import tvm measured inside the interpreter: {inside[0]:.1f} ms (median {inside[1]:.1f}); "
        f"without the version guard: {unguarded[0]:.1f} ms (median {unguarded[1]:.1f})"
    )
    print(
        f"-X importtime cumulative: tvm {importtime_us('tvm') / 1e3:.1f} ms, of which "
        f"tvm._version_guard {importtime_us('tvm', 'tvm._version_guard') / 1e3:.1f} ms, "
        f"tvm_ffi {importtime_us('tvm', 'tvm_ffi') / 1e3:.1f} ms"
    )
    off = dict(env, TVM_DEVICE_BACKEND_AUTOLOAD="0")
    with tempfile.TemporaryDirectory() as tmp:
        for count in (0, 1, 20):
            site = site_with_backends(Path(tmp), count)
            path_env = dict(off, PYTHONPATH=os.pathsep.join([str(site), env.get("PYTHONPATH", "")]))
            found, discover, load = autoload_ms(path_env)
            print(
                f"autoload, {count:>2} entry point(s) of ours ({found} found on sys.path): "
                f"discovery {discover:.2f} ms, loading {load:.2f} ms"
            )


if __name__ == "__main__":
    main()
