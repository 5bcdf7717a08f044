"""C helpers between float and the bits of the float8 and float4 formats (ml_dtypes' rounding)."""

from __future__ import annotations

# name -> (total bits N, mantissa bits M, exponent bias B, kind). Kinds: 0 IEEE-like (inf and
# NaN), 1 "fn" (no inf; all ones is NaN), 2 "fnuz" (no inf, no -0; the sign bit alone is NaN),
# 3 finite only (no inf, no NaN).
FORMATS = {
    "float8_e4m3fn": (8, 3, 7, 1),
    "float8_e4m3fnuz": (8, 3, 8, 2),
    "float8_e5m2": (8, 2, 15, 0),
    "float8_e5m2fnuz": (8, 2, 16, 2),
    "float4_e2m1fn": (4, 1, 1, 3),
}

_GENERIC = r"""
/* Minifloats: sign, exponent (bias B), M mantissa bits in N bits; converted from float rounding
   to nearest (ties to even). What rounds past the largest finite value (and inf) becomes inf
   (kind 0), NaN (kinds 1 and 2) or the largest finite value (kind 3). */
static inline uint8_t tvm_f32_to_minifloat(float f, int N, int M, int B, int kind) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  uint32_t sign_bit = 1u << (N - 1), top = sign_bit - 1u, a = u & 0x7fffffffu, r;
  uint32_t sign = (u >> 31) ? sign_bit : 0u, inf = top >> M << M;
  if (a > 0x7f800000u) {
    if (kind == 0) return (uint8_t)(sign | inf | (1u << (M - 1)));
    if (kind == 1) return (uint8_t)(sign | top);
    if (kind == 2) return (uint8_t)sign_bit;
    return (uint8_t)(sign ^ sign_bit); /* ml_dtypes 0.7: NaN -> zero of the other sign */
  }
  if (a < ((uint32_t)(128 - B) << 23)) {
    /* below the smallest normal: the float sum rounds to a multiple of the subnormal step */
    float step = ldexpf(1.0f, 1 - B - M), magic = step * 8388608.0f, x;
    memcpy(&x, &a, sizeof x);
    r = (uint32_t)(((x + magic) - magic) / step);
  } else {
    int drop = 23 - M;
    uint32_t rounded = a + ((1u << (drop - 1)) - 1u) + ((a >> drop) & 1u);
    r = (rounded >> drop) - ((uint32_t)(127 - B) << M);
  }
  if (kind == 0) return (uint8_t)(sign | (r >= inf ? inf : r));
  if (kind == 1) return (uint8_t)(r > top - 1u ? (sign | top) : (sign | r));
  if (kind == 2) return (uint8_t)(r > top ? sign_bit : r == 0 ? 0u : (sign | r));
  return (uint8_t)(sign | (r > top ? top : r));
}

static inline float tvm_minifloat_to_f32(uint8_t v, int N, int M, int B, int kind) {
  uint32_t sign_bit = 1u << (N - 1), top = sign_bit - 1u, mag = v & top;
  uint32_t sign = (v & sign_bit) ? 0x80000000u : 0u, e = mag >> M, m = mag & ((1u << M) - 1u), u;
  float f;
  if ((kind == 0 && e == top >> M) || (kind == 1 && mag == top) || (kind == 2 && v == sign_bit)) {
    u = sign | (kind == 0 && m == 0 ? 0x7f800000u : 0x7fc00000u);
  } else if (e == 0) {
    f = ldexpf((float)m, 1 - B - M);
    return sign ? -f : f;
  } else {
    u = sign | ((e + 127u - (uint32_t)B) << 23) | (m << (23 - M));
  }
  memcpy(&f, &u, sizeof f);
  return f;
}
"""


def _wrappers(name: str, n: int, m: int, b: int, kind: int) -> str:
    args = f"{n}, {m}, {b}, {kind}"
    return (
        f"static inline uint8_t tvm_f32_to_{name}(float f) {{ return tvm_f32_to_minifloat(f, {args}); }}\n"  # noqa: E501
        f"static inline float tvm_{name}_to_f32(uint8_t v) {{ return tvm_minifloat_to_f32(v, {args}); }}\n"  # noqa: E501
        f"static inline float tvm_{name}_round(float f) {{ return tvm_{name}_to_f32(tvm_f32_to_{name}(f)); }}\n"  # noqa: E501
    )


# float8_e8m0fnu is an exponent alone (bias 127; 0xff is NaN): 2^(e - 127), so code 0 is the
# float32 subnormal 2^-127. From a float as ml_dtypes converts: to the nearest power of two
# (ties up, as the midpoints 1.5 * 2^e lie between codes), NaN for what it cannot hold (zero,
# a negative, inf, past 2^127).
_E8M0 = r"""
static inline uint8_t tvm_f32_to_float8_e8m0fnu(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  uint32_t e = (u >> 23) & 0xffu, m = u & 0x7fffffu;
  if ((u >> 31) || (u & 0x7fffffffu) == 0u || e == 0xffu) return 0xffu;
  if (e == 0u) return m >= 0x600000u ? 1u : 0u;
  e += m >= 0x400000u ? 1u : 0u;
  return (uint8_t)(e > 254u ? 0xffu : e);
}
static inline float tvm_float8_e8m0fnu_to_f32(uint8_t v) {
  uint32_t u = v == 0xffu ? 0x7fc00000u : v == 0u ? 0x00400000u : (uint32_t)v << 23;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static inline float tvm_float8_e8m0fnu_round(float f) {
  return tvm_float8_e8m0fnu_to_f32(tvm_f32_to_float8_e8m0fnu(f));
}
"""

MINIFLOAT_HELPERS = (
    _GENERIC + "".join(_wrappers(name, *fmt) for name, fmt in FORMATS.items()) + _E8M0
)
