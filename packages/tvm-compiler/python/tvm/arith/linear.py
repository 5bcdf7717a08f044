"""Canonical linear forms of integer expressions: sum of coefficient * atom plus a constant."""

from __future__ import annotations

from tvm.ir.structural import structural_hash
from tvm.tir import expr as E


class LinearForm:
    """terms: key -> [atom, coeff]; atoms are non-linear sub-expressions such as Vars."""

    __slots__ = ("terms", "const", "dtype")

    def __init__(self, dtype, terms=None, const: int = 0):
        self.dtype = dtype
        self.terms: dict = terms if terms is not None else {}
        self.const = const

    def copy(self) -> LinearForm:
        return LinearForm(self.dtype, {k: [a, c] for k, (a, c) in self.terms.items()}, self.const)

    def add(self, other: LinearForm, scale: int = 1) -> LinearForm:
        out = self.copy()
        for key, (atom, coeff) in other.terms.items():
            if key in out.terms:
                out.terms[key][1] += coeff * scale
                if out.terms[key][1] == 0:
                    del out.terms[key]
            elif coeff * scale:
                out.terms[key] = [atom, coeff * scale]
        out.const += other.const * scale
        return out

    def scale(self, factor: int) -> LinearForm:
        if factor == 0:
            return LinearForm(self.dtype)
        return LinearForm(
            self.dtype,
            {k: [a, c * factor] for k, (a, c) in self.terms.items()},
            self.const * factor,
        )

    @property
    def is_const(self) -> bool:
        return not self.terms


def atom_key(atom):
    """Equal atoms share a key: Vars by identity, others by a 64-bit structural hash."""
    if isinstance(atom, E.Var):
        return ("var", id(atom))
    return ("expr", structural_hash(atom))


def atom_form(atom) -> LinearForm:
    return LinearForm(atom.dtype, {atom_key(atom): [atom, 1]})


def to_linear(e) -> LinearForm:
    """The linear form of an integer expression (children already simplified)."""
    if isinstance(e, E.IntImm):
        return LinearForm(e.dtype, const=e.value)
    if isinstance(e, E.Add):
        return merge_div_mod(to_linear(e.a).add(to_linear(e.b)))
    if isinstance(e, E.Sub):
        return merge_div_mod(to_linear(e.a).add(to_linear(e.b), -1))
    if isinstance(e, E.Mul):
        a, b = to_linear(e.a), to_linear(e.b)
        if b.is_const:
            return a.scale(b.const)
        if a.is_const:
            return b.scale(a.const)
    return atom_form(e)


def merge_div_mod(form: LinearForm) -> LinearForm:
    """Rewrite k*c*(x // c) + k*(x % c) back into k*x, undoing a fuse or split."""
    divs = {}
    for key, (atom, _coeff) in form.terms.items():
        if isinstance(atom, E.FloorDiv) and isinstance(atom.b, E.IntImm):
            divs[(atom_key(atom.a), atom.b.value)] = key
    if not divs:
        return form
    for key, (atom, coeff) in list(form.terms.items()):
        if not (isinstance(atom, E.FloorMod) and isinstance(atom.b, E.IntImm)):
            continue
        div_key = divs.get((atom_key(atom.a), atom.b.value))
        if div_key is None or div_key not in form.terms or key not in form.terms:
            continue
        div_coeff = form.terms[div_key][1]
        if div_coeff != coeff * atom.b.value:
            continue
        form = form.copy()
        del form.terms[div_key]
        del form.terms[key]
        form = form.add(to_linear(atom.a), coeff)
    return form


def _sort_key(item):
    atom, coeff = item
    from tvm.ir.printer import node_to_str

    return (-abs(coeff), node_to_str(atom))


def from_linear(form: LinearForm):
    """The expression of a linear form: terms by falling |coefficient|, then the constant."""
    dtype = form.dtype
    items = sorted(form.terms.values(), key=_sort_key)
    const = form.const
    if dtype.is_uint:
        # Unsigned arithmetic is modulo 2**bits and has no negative literal: coefficients
        # become their residues nearest zero, and a positive term leads.
        items = [(atom, _residue(c, dtype.bits)) for atom, c in items]
        items = sorted((item for item in items if item[1]), key=lambda item: item[1] < 0)
        const = _residue(const, dtype.bits)
    out = None
    for atom, coeff in items:
        atom = atom if atom.dtype == dtype else atom.astype(dtype)
        magnitude = abs(coeff)
        term = atom if magnitude == 1 else E.Mul(atom, E.IntImm(dtype, magnitude))
        if out is None and coeff < 0 and dtype.is_uint:
            out = E.Sub(E.IntImm(dtype, const % 2**dtype.bits), term)
            const = 0
        elif out is None:
            out = term if coeff > 0 else E.Mul(atom, E.IntImm(dtype, coeff))
        else:
            out = E.Add(out, term) if coeff > 0 else E.Sub(out, term)
    if out is None:
        return E.IntImm(dtype, const % 2**dtype.bits if dtype.is_uint else const)
    form = form.copy()
    form.const = const
    if form.const > 0:
        out = E.Add(out, E.IntImm(dtype, form.const))
    elif form.const < 0:
        out = E.Sub(out, E.IntImm(dtype, -form.const))
    return out


def _residue(value: int, bits: int) -> int:
    """value modulo 2**bits, as the residue in (-2**(bits-1), 2**(bits-1)]."""
    r = value % 2**bits
    return r - 2**bits if r > 2 ** (bits - 1) else r
