"""IndexMap: a map from buffer indices to new indices, made from a Python function."""

from __future__ import annotations

import inspect

from tvm.arith import Analyzer
from tvm.ir.node import Node

from .. import expr as E
from ..functor import substitute


class IndexMap(Node):
    """initial_indices (Vars) -> final_indices (expressions of them). An IR node (upstream's
    tir.IndexMap): saved with save_json, compared structurally with the initial indices bound
    (the inverse, when given, takes no part)."""

    _fields = ("initial_indices", "final_indices", "inverse_index_map")
    _def_fields = ("initial_indices",)
    _ignored_fields = ("span", "inverse_index_map")
    _unvisited_fields = ("inverse_index_map",)
    _key_namespace = "tir"
    __hash__ = object.__hash__

    def __init__(self, initial_indices, final_indices, inverse_index_map=None):
        self._set(
            initial_indices=tuple(initial_indices),
            final_indices=tuple(E.convert(i) for i in final_indices),
            inverse_index_map=inverse_index_map,
        )

    @staticmethod
    def from_func(mapping_function, ndim=None, inverse_index_map=None, *, index_dtype="int64"):
        """The map mapping_function(i0, i1, ...) -> list of indices; ndim when it takes *args."""
        if not callable(mapping_function):
            raise TypeError(
                f"IndexMap.from_func: mapping_function must be callable, got {mapping_function!r}"
            )
        if ndim is None:
            params = inspect.signature(mapping_function).parameters.values()
            if any(p.kind == p.VAR_POSITIONAL for p in params):
                raise ValueError("IndexMap.from_func: give ndim for a function taking *args")
            ndim = len(params)
        names = _parameter_names(mapping_function, ndim)
        initial = [E.Var(name, index_dtype) for name in names]
        final = mapping_function(*initial)
        if isinstance(final, E.PrimExpr) or isinstance(final, int):
            final = [final]
        return IndexMap(initial, list(final), inverse_index_map)

    def map_indices(self, indices) -> list:
        if len(indices) != len(self.initial_indices):
            raise ValueError(
                f"IndexMap.map_indices: expected {len(self.initial_indices)} indices, "
                f"got {len(indices)}"
            )
        vmap = dict(zip(self.initial_indices, [E.convert(i) for i in indices]))
        analyzer = Analyzer()
        return [analyzer.simplify(substitute(f, vmap)) for f in self.final_indices]

    def inverse(self, shape) -> IndexMap:
        """The inverse map over a buffer of this shape: the one given to from_func as
        inverse_index_map, else worked out when the map fuses and splits its inputs."""
        if self.inverse_index_map is not None:
            return self.inverse_index_map
        from .bijection import NotBijective, inverse_and_shape

        extents = [int(n) for n in shape]
        try:
            outputs, inverse, _ = inverse_and_shape(
                self.initial_indices, self.final_indices, extents
            )
        except NotBijective as err:
            raise ValueError(
                f"IndexMap.inverse: {self!r} is not bijective over {extents}: {err}"
            ) from None
        return IndexMap(outputs, inverse, self)

    def __repr__(self):
        # The form upstream's trace prints: the map as a Python lambda.
        args = ", ".join(v.name for v in self.initial_indices)
        outs = ", ".join(str(i) for i in self.final_indices)
        return f"lambda {args}: ({outs}{',' if len(self.final_indices) == 1 else ''})"


def _parameter_names(fn, ndim):
    try:
        params = [
            p.name
            for p in inspect.signature(fn).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
    except (TypeError, ValueError):
        params = []
    return [params[i] if i < len(params) else f"i{i}" for i in range(ndim)]
