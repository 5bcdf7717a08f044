"""Random sampling primitives: tile sizes, a categorical choice, a compute location; each draws
from the schedule's seeded generator unless a decision (as the trace records it) is given."""

from __future__ import annotations

from .. import expr as E
from .tree import enclosing_loops


class ExprRV:
    """A sampled integer; sch.get(rv) gives its value, split takes it as a factor."""

    _trace_prefix = "v"

    def __init__(self, value: int):
        self.value = value

    def __int__(self):
        return self.value

    def __repr__(self):
        return f"ExprRV({self.value})"


def _positive_int(primitive, name, value, least=1):
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{primitive}: argument {name!r} must be an int >= {least}, got {value!r}")
    return value


def _prime_factors(n: int) -> list[int]:
    out, p = [], 2
    while p * p <= n:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out + ([n] if n > 1 else [])


def perfect_tile(sch, loop_rv, n, max_innermost_factor, decision):
    loop = sch._loop_path(loop_rv, "sample_perfect_tile")[-1]
    _positive_int("sample_perfect_tile", "n", n, least=1)
    _positive_int("sample_perfect_tile", "max_innermost_factor", max_innermost_factor)
    if decision is not None:
        if len(decision) != n or not all(isinstance(d, int) and d > 0 for d in decision):
            raise ValueError(
                f"sample_perfect_tile: decision must be {n} positive ints, got {decision!r}"
            )
        return [int(d) for d in decision]
    if not isinstance(loop.extent, E.IntImm):
        raise sch._error(
            "sample_perfect_tile", f"loop {loop.loop_var.name!r} does not have a constant extent"
        )
    extent = loop.extent.value
    rng = sch._rng
    innermost = rng.choice(
        [d for d in range(1, min(extent, max_innermost_factor) + 1) if extent % d == 0]
    )
    factors = [1] * (n - 1) + [innermost]
    if n == 1:
        return [extent]
    for p in _prime_factors(extent // innermost):
        factors[rng.randrange(n - 1)] *= p
    return factors


def categorical(sch, candidates, probs, decision):
    if len(candidates) != len(probs):
        raise ValueError(
            f"sample_categorical: {len(candidates)} candidates but {len(probs)} probabilities"
        )
    if not candidates:
        raise ValueError("sample_categorical: candidates must not be empty")
    if any(p < 0 for p in probs) or sum(probs) <= 0:
        raise ValueError(f"sample_categorical: probs must be non-negative, not all 0: {probs}")
    if decision is None:
        decision = sch._rng.choices(range(len(candidates)), weights=probs)[0]
    elif isinstance(decision, bool) or not isinstance(decision, int):
        raise TypeError(f"sample_categorical: decision must be an int, got {decision!r}")
    elif not 0 <= decision < len(candidates):
        raise ValueError(
            f"sample_categorical: decision must index the {len(candidates)} candidates, "
            f"got {decision}"
        )
    return decision


def compute_location_candidates(sch, block_rv):
    """Loops of the block's first consumer it could be computed at (decision 0, 1, ...);
    decision -1 stands for the root (where it is now)."""
    from .query import consumers
    from .schedule import BlockRV

    names = consumers(sch, block_rv)
    if not names:
        return []
    path = sch._block_path(BlockRV(names[0]), "sample_compute_location")
    return enclosing_loops(path)


def compute_location(sch, block_rv, decision):
    sch._block_path(block_rv, "sample_compute_location")
    loops = compute_location_candidates(sch, block_rv)
    if decision is None:
        decision = sch._rng.randrange(-1, len(loops))
    elif isinstance(decision, bool) or not isinstance(decision, int):
        raise TypeError(f"sample_compute_location: decision must be an int, got {decision!r}")
    elif not -1 <= decision < len(loops):
        raise ValueError(
            f"sample_compute_location: decision must be -1 (the root) or index one of the "
            f"{len(loops)} candidate loops, got {decision}"
        )
    return decision, (None if decision == -1 else loops[decision].loop_var)
