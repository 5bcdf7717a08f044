"""Non-temporal (streaming) vector stores for large buffers a function only writes."""

from __future__ import annotations

import math

from tvm.tir import expr as E
from tvm.tir import stmt as S

# A buffer this large does not stay in cache between its store and any later read, so the
# store needs no cache line: a streaming store skips reading the line first (write-allocate),
# which on a memory-bound kernel is a quarter of its traffic (vector add: read A, B; write C).
STREAM_MIN_BYTES = 16 << 20

# The widest x86 streaming store the compiling C compiler's -march allows; 0 elsewhere, where
# tvm_stream_store is a plain store. One vector store becomes whole-width stream stores when
# its size is a multiple of that width and its address aligned to it, else a plain store.
STREAM_HELPERS = r"""
#if defined(__x86_64__) && (defined(__AVX512F__) || defined(__AVX__) || defined(__SSE2__))
#include <immintrin.h>
#endif
#if defined(__x86_64__) && defined(__AVX512F__)
#define TVM_STREAM_BYTES 64
#elif defined(__x86_64__) && defined(__AVX__)
#define TVM_STREAM_BYTES 32
#elif defined(__x86_64__) && defined(__SSE2__)
#define TVM_STREAM_BYTES 16
#else
#define TVM_STREAM_BYTES 0
#endif

static inline void tvm_stream_store(void* dst, const void* src, size_t bytes) {
  char* d = (char*)dst;
  const char* s = (const char*)src;
  if (TVM_STREAM_BYTES == 0 || bytes % (TVM_STREAM_BYTES ? TVM_STREAM_BYTES : 1) != 0 ||
      ((uintptr_t)d) % (TVM_STREAM_BYTES ? TVM_STREAM_BYTES : 1) != 0) {
    memcpy(d, s, bytes);
    return;
  }
#if TVM_STREAM_BYTES == 64
  for (size_t k = 0; k < bytes; k += 64)
    _mm512_stream_si512((__m512i*)(d + k), _mm512_loadu_si512((const void*)(s + k)));
#elif TVM_STREAM_BYTES == 32
  for (size_t k = 0; k < bytes; k += 32)
    _mm256_stream_si256((__m256i*)(d + k), _mm256_loadu_si256((const __m256i*)(s + k)));
#elif TVM_STREAM_BYTES == 16
  for (size_t k = 0; k < bytes; k += 16)
    _mm_stream_si128((__m128i*)(d + k), _mm_loadu_si128((const __m128i*)(s + k)));
#endif
}

/* Streaming stores are weakly ordered: each thread fences its own before anyone reads them. */
static inline void tvm_stream_fence(void) {
#if TVM_STREAM_BYTES
  _mm_sfence();
#endif
}
"""


def streamed_buffers(body) -> set:
    """The data vars of flat buffers of at least STREAM_MIN_BYTES that body stores to with
    contiguous vectors and never reads (no load, and the data var used nowhere else)."""
    from tvm.tir.functor import post_order_visit

    vector_stored, read = {}, set()

    def visit(node):
        if isinstance(node, S.BufferStore):
            index = node.indices[0] if len(node.indices) == 1 else None
            if isinstance(index, E.Ramp) and node.value.dtype.lanes > 1:
                vector_stored[node.buffer.data] = node.buffer
        elif isinstance(node, E.BufferLoad):
            read.add(node.buffer.data)
        elif isinstance(node, E.Var):
            read.add(node)  # the handle itself escapes (an extern call, an address)

    post_order_visit(body, visit)
    return {
        data
        for data, buf in vector_stored.items()
        if data not in read and _static_bytes(buf) >= STREAM_MIN_BYTES
    }


def _static_bytes(buf) -> float:
    if not all(isinstance(d, E.IntImm) for d in buf.shape):
        return 0
    dtype = buf.dtype
    return math.prod(d.value for d in buf.shape) * dtype.bits * dtype.lanes / 8


def contains_stream_store(stmt, streamed: set) -> bool:
    """Whether stmt stores to a streamed buffer (so the loop around it needs a fence)."""
    from tvm.tir.functor import post_order_visit

    found = []

    def visit(node):
        if isinstance(node, S.BufferStore) and node.buffer.data in streamed:
            found.append(node)

    post_order_visit(stmt, visit)
    return bool(found)
