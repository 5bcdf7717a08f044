"""einsum over te tensors: products of the operands summed over the letters the output drops."""

from __future__ import annotations

from tvm import te
from tvm.tir import expr as E


def _parse(subscripts, operands):
    lhs, arrow, rhs = subscripts.replace(" ", "").partition("->")
    terms = lhs.split(",")
    if "." in subscripts:
        raise ValueError(f"topi.einsum: an ellipsis in {subscripts!r} is not supported")
    if len(terms) != len(operands):
        raise ValueError(
            f"topi.einsum: {subscripts!r} names {len(terms)} operands, got {len(operands)}"
        )
    extent = {}
    for term, tensor in zip(terms, operands):
        if len(term) != len(tensor.shape):
            raise ValueError(
                f"topi.einsum: term {term!r} of {subscripts!r} names {len(term)} dimensions, its "
                f"operand has {len(tensor.shape)}"
            )
        for letter, dim in zip(term, tensor.shape):
            if not letter.isalpha():
                raise ValueError(f"topi.einsum: {letter!r} in {subscripts!r} is not a letter")
            seen = extent.setdefault(letter, dim)
            if isinstance(seen, E.IntImm) and isinstance(dim, E.IntImm):
                if seen.value != dim.value and 1 not in (seen.value, dim.value):
                    raise ValueError(
                        f"topi.einsum: letter {letter!r} of {subscripts!r} has extents "
                        f"{seen.value} and {dim.value}"
                    )
                if seen.value == 1:
                    extent[letter] = dim
    if not arrow:  # implicit output: the letters used once, in alphabetical order
        rhs = "".join(sorted(c for c in extent if lhs.count(c) == 1))
    if any(c not in extent for c in rhs) or len(set(rhs)) != len(rhs):
        raise ValueError(
            f"topi.einsum: the output {rhs!r} of {subscripts!r} must name distinct letters of "
            "the operands"
        )
    return terms, rhs, extent


def einsum_shape(subscripts, shapes):
    """The output shape of einsum(subscripts) on operands of these shapes."""

    class _Shaped:
        def __init__(self, shape):
            self.shape = [E.convert(d) for d in shape]

    _, rhs, extent = _parse(subscripts, [_Shaped(s) for s in shapes])
    return [extent[c] for c in rhs]


def einsum(subscripts, *operand):
    """einsum(subscripts, a, b, ...): NumPy's einsum without ellipsis; an extent of 1
    broadcasts against the letter's other extent."""
    operands = list(operand[0]) if len(operand) == 1 and isinstance(operand[0], list) else operand
    for tensor in operands:
        if not isinstance(tensor, te.Tensor):
            raise TypeError(
                f"topi.einsum: operands must be te.Tensors, got {type(tensor).__name__}"
            )
    terms, rhs, extent = _parse(subscripts, operands)
    reduced = [c for c in extent if c not in rhs]
    axes = {c: te.reduce_axis((0, extent[c]), name=f"r_{c}") for c in reduced}

    def element(*idx):
        where = dict(zip(rhs, idx))
        where.update(axes)
        product = None
        for term, tensor in zip(terms, operands):
            index = tuple(
                0 if isinstance(d, E.IntImm) and d.value == 1 else where[c]
                for c, d in zip(term, tensor.shape)
            )
            value = tensor[index]
            product = value if product is None else product * value
        return te.sum(product, axis=list(axes.values())) if axes else product

    return te.compute([extent[c] for c in rhs], element, name="einsum")
