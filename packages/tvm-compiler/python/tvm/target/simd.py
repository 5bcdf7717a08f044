"""The SIMD register width a CPU target has, which decides how wide the generated vectors are."""

from __future__ import annotations

import functools
import platform
from pathlib import Path

_DEFAULT_BYTES = 16  # SSE2 and NEON: every x86-64 and AArch64 CPU has these


@functools.lru_cache(maxsize=1)
def host_vector_bytes() -> int:
    """Bytes in one SIMD register of this machine's CPU (64 with AVX-512, 32 with AVX2)."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return _DEFAULT_BYTES
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return _DEFAULT_BYTES
    flags = next((line.split() for line in text.splitlines() if line.startswith("flags")), [])
    if "avx512f" in flags:
        return 64
    return 32 if "avx2" in flags or "avx" in flags else _DEFAULT_BYTES


def target_vector_bytes(target) -> int:
    """Bytes in one SIMD register of target's CPU: the host's for no target or -mcpu=native."""
    if target is None:
        return host_vector_bytes()
    mcpu = target.attrs.get("mcpu")
    features = " ".join([str(mcpu or ""), *map(str, target.attrs.get("mattr") or [])]).lower()
    if "avx512" in features:
        return 64
    if mcpu in (None, "native"):
        return host_vector_bytes()
    # A named CPU without AVX-512 features: at most AVX2's width. Too wide a guess only costs
    # speed (the C compiler splits the vectors), never correctness.
    return min(host_vector_bytes(), 32)
