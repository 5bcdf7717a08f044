# Pinned CPU targets for tests that check generated code; marks that skip what the host lacks.
import pytest
from tvm.target.simd import _cpu_flags

# A test that asserts on vector widths or tiling lowers under one of these, never under the
# host's default, so it checks the same IR on every machine (and under TVM_STACK_HOST_TARGET).
AVX512_TARGET = "llvm -mcpu=x86-64-v4"
AVX2_TARGET = "llvm -mcpu=x86-64-v3"

_AVX512_FLAGS = ("avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl")
_AVX2_FLAGS = ("avx2", "fma", "bmi2", "f16c", "movbe")


def _lacking(flags):
    return [flag for flag in flags if flag not in _cpu_flags()]


# Running code built for a pinned target needs that ISA on the real CPU.
requires_avx512 = pytest.mark.skipif(
    bool(_lacking(_AVX512_FLAGS)),
    reason=f"this host's CPU lacks {', '.join(_lacking(_AVX512_FLAGS))} (x86-64-v4, AVX-512)",
)
requires_avx2 = pytest.mark.skipif(
    bool(_lacking(_AVX2_FLAGS)),
    reason=f"this host's CPU lacks {', '.join(_lacking(_AVX2_FLAGS))} (x86-64-v3, AVX2)",
)

# The three x86 levels as pytest params, each run only where the CPU has it: for code whose
# C picks an ISA path by the compiler's -march (SSE2, AVX2, AVX-512).
X86_LEVEL_TARGETS = [
    pytest.param("llvm -mcpu=x86-64", id="x86-64"),
    pytest.param(AVX2_TARGET, id="avx2", marks=requires_avx2),
    pytest.param(AVX512_TARGET, id="avx512", marks=requires_avx512),
]
