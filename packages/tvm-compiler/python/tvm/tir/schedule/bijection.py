"""Inverting an index map that fuses and splits its inputs (each output a mixed-radix sum of
pieces x // d % m of the inputs): the check that it is a bijection, and its inverse."""

from __future__ import annotations

from tvm.arith import Analyzer
from tvm.arith.linear import to_linear

from .. import expr as E


class NotBijective(Exception):
    """The map is not a bijective affine map over the given extents."""


def _piece(atom, ids):
    """(input var, divisor, modulus or None) of x, x // d, x % m or x // d % m."""
    mod = None
    if isinstance(atom, E.FloorMod) and isinstance(atom.b, E.IntImm):
        atom, mod = atom.a, atom.b.value
    div = 1
    if isinstance(atom, E.FloorDiv) and isinstance(atom.b, E.IntImm):
        atom, div = atom.a, atom.b.value
    if not (isinstance(atom, E.Var) and id(atom) in ids):
        raise NotBijective(f"{atom} is not a split of an input")
    return atom, div, mod


def inverse_and_shape(initial, final, extents):
    """(the inputs as expressions of fresh output variables, the outputs' extents)."""
    ids = {id(v): n for v, n in zip(initial, extents)}
    analyzer = Analyzer()
    for v, n in zip(initial, extents):
        analyzer.bind(v, E.Range(0, n))
    outputs = [E.Var(f"v{k}", E.convert(index).dtype) for k, index in enumerate(final)]
    pieces: dict[int, list] = {id(v): [] for v in initial}
    shape = []
    for out_var, index in zip(outputs, final):
        form = to_linear(analyzer.simplify(index))
        if form.const:
            raise NotBijective(f"{index} has a constant offset")
        terms = []
        for atom, coeff in form.terms.values():
            var, div, mod = _piece(atom, ids)
            span = -(-ids[id(var)] // div)
            terms.append((coeff, var, div, min(mod, span) if mod else span))
        terms.sort(key=lambda t: t[0])
        radix = 1
        for k, (coeff, var, div, ext) in enumerate(terms):
            if coeff != radix:
                raise NotBijective(f"{index} is not a mixed-radix sum")
            value = out_var if radix == 1 else E.FloorDiv(out_var, radix)
            if k + 1 < len(terms):
                value = E.FloorMod(value, ext)
            pieces[id(var)].append((div, ext, value))
            radix *= ext
        shape.append(radix)
    inverse = []
    for var, extent in zip(initial, extents):
        total, expr = 1, None
        for div, ext, value in sorted(pieces[id(var)], key=lambda p: p[0]):
            if div != total:
                raise NotBijective(f"the pieces of {var.name} do not tile it")
            term = value if div == 1 else value * div
            expr = term if expr is None else expr + term
            total *= ext
        if total != extent:
            raise NotBijective(f"the pieces of {var.name} cover {total} values, not {extent}")
        inverse.append(E.const(0, var.dtype) if expr is None else expr)
    size = 1
    for n in shape:
        size *= n
    total_in = 1
    for n in extents:
        total_in *= n
    if size != total_in:
        raise NotBijective(f"{total_in} points map into {size}")
    out_analyzer = Analyzer()
    for v, n in zip(outputs, shape):
        out_analyzer.bind(v, E.Range(0, n))
    return outputs, [out_analyzer.simplify(e) for e in inverse], shape
