"""The SIMD register width a CPU target has, which decides how wide the generated vectors are."""

from __future__ import annotations

import functools
import os
import platform
from pathlib import Path

_DEFAULT_BYTES = 16  # SSE2 and NEON: every x86-64 and AArch64 CPU has these

# Names a CPU that stands in for this machine wherever the host is meant (no -mcpu, or
# -mcpu=native): the vector width and the C compiler's -march. CI runs the compiler's tests
# under x86-64-v3 and x86-64 so that a test which silently depends on the host fails on
# every machine, not just on the one that lacks the ISA.
HOST_TARGET_ENV = "TVM_STACK_HOST_TARGET"

# Named baseline CPUs whose width the name alone gives (x86-64 micro-architecture levels).
_LEVEL_BYTES = {"x86-64": 16, "x86-64-v2": 16, "x86-64-v3": 32, "x86-64-v4": 64}
# What each level needs of the real CPU, so that a stand-in the host cannot run is refused
# up front instead of dying on an illegal instruction in the first kernel.
_LEVEL_FLAGS = {
    "x86-64": (),
    "x86-64-v2": ("sse4_2", "popcnt", "ssse3"),
    "x86-64-v3": ("avx2", "fma", "bmi2", "f16c", "movbe"),
    "x86-64-v4": ("avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"),
}


@functools.lru_cache(maxsize=1)
def _cpu_flags() -> frozenset:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return frozenset()
    return frozenset(
        next((line.split() for line in text.splitlines() if line.startswith("flags")), [])
    )


def host_target_override() -> str | None:
    """The CPU named by $TVM_STACK_HOST_TARGET, checked against this machine; None when unset."""
    name = os.environ.get(HOST_TARGET_ENV, "").strip()
    if not name:
        return None
    if not all(c.isalnum() or c in "._-" for c in name):
        raise ValueError(f"{HOST_TARGET_ENV}={name!r}: expected a CPU name such as x86-64-v3")
    missing = [flag for flag in _LEVEL_FLAGS.get(name.lower(), ()) if flag not in _cpu_flags()]
    if missing:
        raise ValueError(
            f"{HOST_TARGET_ENV}={name!r}: this machine's CPU lacks "
            f"{', '.join(missing)}, so code built for {name} cannot run here"
        )
    return name


def _native_vector_bytes() -> int:
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return _DEFAULT_BYTES
    flags = _cpu_flags()
    if "avx512f" in flags:
        return 64
    return 32 if "avx2" in flags or "avx" in flags else _DEFAULT_BYTES


def host_vector_bytes() -> int:
    """Bytes in one SIMD register of the host's CPU (64 with AVX-512, 32 with AVX2), or of
    the CPU that $TVM_STACK_HOST_TARGET names in its place."""
    override = host_target_override()
    if override is None:
        return _native_vector_bytes()
    return _named_cpu_bytes(override)


def _named_cpu_bytes(mcpu: str) -> int:
    if "avx512" in mcpu.lower():
        return 64
    # A named CPU: at most AVX2's width unless its name says more. Too wide a guess only
    # costs speed (the C compiler splits the vectors), never correctness.
    return _LEVEL_BYTES.get(mcpu.lower(), min(_native_vector_bytes(), 32))


def target_vector_bytes(target) -> int:
    """Bytes in one SIMD register of target's CPU: the host's for no target or -mcpu=native,
    narrowed or widened by -mattr features such as +avx512f or -avx2."""
    if target is None:
        return host_vector_bytes()
    mcpu = target.attrs.get("mcpu")
    if mcpu in (None, "native"):
        width = host_vector_bytes()
    else:
        width = _named_cpu_bytes(str(mcpu))
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
