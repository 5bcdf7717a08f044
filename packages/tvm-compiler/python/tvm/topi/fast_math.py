"""The scalar approximations behind topi.fast_exp, fast_tanh and fast_erf (upstream's float32
formulas: a range reduction and polynomial for exp, clamped rational polynomials for tanh and
erf); other dtypes compute the exact function, except float16 erf (the formula through
float32, where upstream has a float16 variant of it)."""

from __future__ import annotations

from tvm.tir import expr as E
from tvm.tir import op as tir_op


def _f32(value):
    return E.const(float(value), "float32")


def _horner(x, coefficients):
    """coefficients[0] * x^(n-1) + ... + coefficients[-1], as upstream nests it."""
    acc = _f32(coefficients[0])
    for c in coefficients[1:]:
        acc = acc * x + _f32(c)
    return acc


def exp_float32(x):
    """exp(x) = 2^n * exp(f) with n = round(x / ln 2), f = x - n ln 2 in [-ln2/2, ln2/2] and
    exp(f) a degree-7 polynomial (Cephes' coefficients); 2^n is built in the exponent bits.
    Within a few ulp of exp wherever that is a normal float32 (x >= -87); below, it flushes
    to zero, and past 88.38 it is inf, as exp is."""
    x_hi, x_lo = _f32(88.3762626647950), _f32(-88.3762626647949)
    # ln 2 in two parts (Cody-Waite): n * ln2_hi is exact for every n here, so f keeps its
    # accuracy without a fused multiply-add (one rounded n * ln2 was 4e-6 off on plain x86-64)
    log2e = _f32(1.44269504088896341)
    ln2_hi, ln2_lo = _f32(0.693359375), _f32(-2.12194440e-4)
    p = (1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1)
    p = (*p, 5.0000001201e-1)
    clamped = tir_op.max(tir_op.min(x, x_hi), x_lo)
    n = tir_op.floor(clamped * log2e + _f32(0.5))
    f = (clamped - n * ln2_hi) - n * ln2_lo
    y = _horner(f, p) * f * f + f + _f32(1.0)
    biased = E.Cast("int32", n + _f32(127.0))
    two_n = tir_op.reinterpret("float32", biased << E.const(23, "int32"))
    return tir_op.max(two_n * y, x)


_TANH_ALPHA = (  # odd numerator, x^13 .. x^1
    -2.76076847742355e-16,
    2.00018790482477e-13,
    -8.60467152213735e-11,
    5.12229709037114e-08,
    1.48572235717979e-05,
    6.37261928875436e-04,
    4.89352455891786e-03,
)
_TANH_BETA = (1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03)
_TANH_BETA = (*_TANH_BETA, 4.89352518554385e-03)  # even denominator, x^6 .. x^0


def tanh_float32(x):
    """tanh(x) as a 13/6 rational polynomial on x clamped to [-9, 9] (beyond, tanh rounds to
    +-1 in float32)."""
    clamped = tir_op.max(tir_op.min(x, _f32(9.0)), _f32(-9.0))
    x2 = clamped * clamped
    return clamped * _horner(x2, _TANH_ALPHA) / _horner(x2, _TANH_BETA)


_ERF_ALPHA = (  # odd numerator, x^13 .. x^1
    -2.72614225801306e-10,
    2.77068142495902e-08,
    -2.10102402082508e-06,
    -5.69250639462346e-05,
    -7.34990630326855e-04,
    -2.95459980854025e-03,
    -1.60960333262415e-02,
)
_ERF_BETA = (  # even denominator, x^8 .. x^0
    -1.45660718464996e-05,
    -2.13374055278905e-04,
    -1.68282697438203e-03,
    -7.37332916720468e-03,
    -1.42647390514189e-02,
)


def erf_float32(x):
    """erf(x) as a 13/8 rational polynomial on x clamped to [-4, 4] (beyond, erf rounds to
    +-1 in float32)."""
    clamped = tir_op.max(tir_op.min(x, _f32(4.0)), _f32(-4.0))
    x2 = clamped * clamped
    return clamped * _horner(x2, _ERF_ALPHA) / _horner(x2, _ERF_BETA)


def approximate(float32_version, exact, float16_too: bool = False):
    """The element function: float32_version for float32 (and, through float32, for float16
    when float16_too), else exact."""

    def element(value):
        if value.dtype == "float32":
            return float32_version(value)
        if float16_too and value.dtype == "float16":
            return E.Cast("float16", float32_version(E.Cast("float32", value)))
        return exact(value)

    return element
