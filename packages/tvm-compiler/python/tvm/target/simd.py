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


# Named baseline CPUs whose width the name alone gives (x86-64 micro-architecture levels).
_LEVEL_BYTES = {"x86-64": 16, "x86-64-v2": 16, "x86-64-v3": 32, "x86-64-v4": 64}


def target_vector_bytes(target) -> int:
    """Bytes in one SIMD register of target's CPU: the host's for no target or -mcpu=native,
    narrowed or widened by -mattr features such as +avx512f or -avx2."""
    if target is None:
        return host_vector_bytes()
    mcpu = target.attrs.get("mcpu")
    if mcpu in (None, "native"):
        width = host_vector_bytes()
    elif "avx512" in str(mcpu).lower():
        width = 64
    else:
        # A named CPU: at most AVX2's width unless its name says more. Too wide a guess only
        # costs speed (the C compiler splits the vectors), never correctness.
        width = _LEVEL_BYTES.get(str(mcpu).lower(), min(host_vector_bytes(), 32))
    for feature in target.attrs.get("mattr") or []:
        feature = str(feature).lower()
        enabled, name = not feature.startswith("-"), feature.lstrip("+-")
        if name.startswith("avx512"):
            width = 64 if enabled else min(width, 32)
        elif name in ("avx", "avx2"):
            width = max(width, 32) if enabled else min(width, 16)
    return width


def mattr_compiler_flags(target) -> list[str]:
    """GCC/Clang flags for target's -mattr features: +avx2 -> -mavx2, -avx512f -> -mno-avx512f."""
    flags = []
    for feature in (target.attrs.get("mattr") or []) if target is not None else []:
        feature = str(feature)
        name = feature.lstrip("+-")
        if not name or not all(c.isalnum() or c in "._-" for c in name):
            raise ValueError(f"Target: -mattr feature {feature!r} is not a feature name")
        flags.append(f"-mno-{name}" if feature.startswith("-") else f"-m{name}")
    return flags
