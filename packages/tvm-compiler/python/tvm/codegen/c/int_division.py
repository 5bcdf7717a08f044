"""C of TIR's integer division and remainder (Div/Mod truncate, FloorDiv/FloorMod floor) with a
defined result where C's is undefined: x / 0 and x % 0 are 0 (NumPy's result), and the
quotient of the most negative value by -1 wraps to itself (its remainder is 0).

A divisor the bound analysis proves to be neither 0 nor -1 (a constant such as 4, a positive
extent) keeps the plain C operator, so constant divisors still strength-reduce and vectorise.
"""

from __future__ import annotations

from tvm.tir import expr as E

from .c_types import c_type

# Scalar helpers, in the prelude. Arguments are widened to 64 bits (every TIR integer fits one
# of the two); a quotient by -1 is a wrapping negation, computed unsigned so it never overflows.
DIVISION_HELPERS = r"""
static inline int64_t tvm_truncdiv(int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (b == -1) return (int64_t)(0ULL - (uint64_t)a);
  return a / b;
}

static inline int64_t tvm_truncmod(int64_t a, int64_t b) {
  return (b == 0 || b == -1) ? 0 : a % b;
}

static inline int64_t tvm_floordiv(int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (b == -1) return (int64_t)(0ULL - (uint64_t)a);
  int64_t q = a / b;
  return (q * b != a && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static inline int64_t tvm_floormod(int64_t a, int64_t b) {
  if (b == 0 || b == -1) return 0;
  int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

static inline uint64_t tvm_udiv(uint64_t a, uint64_t b) { return b == 0 ? 0 : a / b; }

static inline uint64_t tvm_umod(uint64_t a, uint64_t b) { return b == 0 ? 0 : a % b; }
"""

# (quotient?, truncating?) -> scalar helper
_HELPER = {
    (True, True): "tvm_truncdiv",
    (False, True): "tvm_truncmod",
    (True, False): "tvm_floordiv",
    (False, False): "tvm_floormod",
}


def needs_guard(writer, e) -> bool:
    """Whether e's divisor may be 0, or -1 with a signed dividend that may be the minimum."""
    bound = writer.bounds.bound(e.b)
    return not (bound.min_value > 0 or bound.max_value < -1)


def guarded_division(writer, e, a: str, b: str, truncating: bool) -> str:
    """The C of the integer division or remainder e (operands already in C: a, b) with the
    defined results above; truncating when floor and trunc agree (a nonnegative dividend)."""
    quotient = type(e) in (E.Div, E.FloorDiv)
    if e.dtype.lanes != 1:
        return _vector_division(writer, e, a, b, quotient)
    if e.dtype.is_uint and e.dtype.bits == 64:
        return f"{'tvm_udiv' if quotient else 'tvm_umod'}({a}, {b})"
    # narrower unsigned values are exact in int64, where floor and trunc agree
    truncating = truncating or e.dtype.is_uint
    fn = _HELPER[(quotient, truncating)]
    return f"(({c_type(e.dtype)}){fn}((int64_t)({a}), (int64_t)({b})))"


def _vector_division(writer, e, a: str, b: str, quotient: bool) -> str:
    """Lane-wise truncating division: the divisor's 0 lanes (and -1 lanes under a minimum
    dividend) become 1, and a quotient's 0-divisor lanes are cleared."""
    vtype = writer.ctype(e.dtype)
    n = writer.fresh_index()
    va, vb, vz, vs = (f"tvm_{x}{n}" for x in ("a", "b", "z", "s"))
    lines = [
        f"{vtype} {va} = {a};",
        f"{vtype} {vb} = {b};",
        f"{vtype} {vz} = ({vtype})({vb} == 0);",
    ]
    if e.dtype.is_uint:
        lines.append(f"{vtype} {vs} = {vb} - {vz};")
    else:
        low = f"({c_type(e.dtype.element_of())})(-{2 ** (e.dtype.bits - 1) - 1} - 1)"
        vm = f"tvm_m{n}"
        lines.append(f"{vtype} {vm} = ({vtype})(({va} == {low}) & ({vb} == -1));")
        lines.append(f"{vtype} {vs} = {vb} - {vz} - {vm} - {vm};")
    result = f"({va} / {vs}) & ~{vz}" if quotient else f"{va} % {vs}"
    return "({ " + " ".join(lines) + f" {result}; }})"
