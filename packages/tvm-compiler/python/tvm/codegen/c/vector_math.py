"""Math functions the C compiler can vectorise inside `#pragma omp simd` loops (libm's cannot)."""

from __future__ import annotations

# float32 exp as straight-line arithmetic, so a vectorised loop (softmax's exp block) keeps
# its vectors instead of calling libm's expf once per element. x = n*ln2 + r with |r| <= ln2/2
# (ln2 split in two for an exact n*ln2), exp(r) by the Cephes degree-7 polynomial, 2^n built in
# two exponent halves so that overflow gives inf and underflow subnormals or 0, as expf does.
# Error at most about 1 ulp on normal results (NumPy's own exp: about 2.5); NaN stays NaN.
# float32 erf (GELU's) as a rational function of x (odd degree 13 over even degree 8) on
# [-4, 4], where erf reaches 1 in float32: absolute error under 5e-7; NaN stays NaN.
VECTOR_MATH_HELPERS = r"""
static inline float tvm_expf(float x) {
  const float round_big = 12582912.0f; /* 1.5 * 2^23: adding it rounds to an integer */
  float xc = x > 88.8f ? 88.8f : x;
  xc = xc < -104.0f ? -104.0f : xc;
  float n = (xc * 1.44269504088896341f + round_big) - round_big;
  float r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = ((((1.9875691500e-4f * r + 1.3981999507e-3f) * r + 8.3334519073e-3f) * r +
              4.1665795894e-2f) * r + 1.6666665459e-1f) * r + 5.0000001201e-1f;
  p = p * (r * r) + r + 1.0f;
  int32_t whole = (int32_t)n, half = whole / 2;
  uint32_t bits1 = (uint32_t)(half + 127) << 23, bits2 = (uint32_t)(whole - half + 127) << 23;
  float scale1, scale2;
  memcpy(&scale1, &bits1, sizeof scale1);
  memcpy(&scale2, &bits2, sizeof scale2);
  float y = p * scale1 * scale2;
  return x != x ? x : y;
}

static inline float tvm_erff(float x) {
  float xc = x > 4.0f ? 4.0f : x;
  xc = xc < -4.0f ? -4.0f : xc;
  float x2 = xc * xc;
  float p = -2.72614225801306e-10f * x2 + 2.77068142495902e-08f;
  p = p * x2 - 2.10102402082508e-06f;
  p = p * x2 - 5.69250639462346e-05f;
  p = p * x2 - 7.34990630326855e-04f;
  p = p * x2 - 2.95459980854025e-03f;
  p = p * x2 - 1.60960333262415e-02f;
  float q = -1.45660718464996e-05f * x2 - 2.13374055278905e-04f;
  q = q * x2 - 1.68282697438203e-03f;
  q = q * x2 - 7.37332916720468e-03f;
  q = q * x2 - 1.42647390514189e-02f;
  float y = xc * p / q;
  /* the rational overshoots to 1.0000001 near |x| = 3.7: erf never leaves [-1, 1] (1 + erf
     of a GELU must not go negative) */
  y = y > 1.0f ? 1.0f : y;
  y = y < -1.0f ? -1.0f : y;
  return x != x ? x : y;
}
"""

# TIR math op -> (the C helper for a float32 argument inside a vectorised loop).
SIMD_FLOAT32 = {"tir.exp": "tvm_expf", "tir.erf": "tvm_erff"}
