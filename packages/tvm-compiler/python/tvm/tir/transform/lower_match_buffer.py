"""LowerMatchBuffer: a block's match_buffer views become accesses to the buffers they view.

A view `A_sub = T.match_buffer(A[vi, 0:4], (4,), offset_factor=1)` binds its own variables
(element offset, symbolic shape and strides) to what the region gives, checks the constant ones
against it, and every `A_sub[j]` becomes `A[vi, 0 + j]`, as upstream's pass of that name does.
"""

from __future__ import annotations

from tvm.arith import Analyzer
from tvm.error import InternalError

from .. import expr as E
from ..functor import StmtExprMutator
from ..stmt import BufferRegion, BufferStore


class _MatchBufferLowerer(StmtExprMutator):
    def __init__(self):
        self.views: dict[int, tuple] = {}  # id(view) -> (view, the region it views)
        self.vmap: dict = {}  # the views' variables -> their values
        self.keep: list = []  # ids above stay valid while the pass runs
        self.analyzer = Analyzer()

    def visit_Var(self, var):
        return self.vmap.get(var, var)

    def visit_Block(self, block):
        for match in block.match_buffers:
            self._bind(match.buffer, self._region(match.source))
        return self.generic_visit(block.with_fields(match_buffers=()))

    def _bind(self, view, source: BufferRegion) -> None:
        base = source.buffer
        if view.dtype != base.dtype:
            raise InternalError(
                f"LowerMatchBuffer: view {view.name!r} has dtype {view.dtype}, the buffer "
                f"{base.name!r} it views has {base.dtype}"
            )
        if view.scope != base.scope:
            raise InternalError(
                f"LowerMatchBuffer: view {view.name!r} has scope {view.scope!r}, the buffer "
                f"{base.name!r} it views has {base.scope!r}"
            )
        self.views[id(view)] = (view, source)
        self.keep.append(view)
        self.vmap[view.data] = base.data
        strides = base.elem_strides()
        offset = base.elem_offset
        for rng, stride in zip(source.region, strides):
            offset = offset + rng.min * stride
        self._constrain(view.elem_offset, offset, f"{view.name}.elem_offset")
        lead = len(source.region) - len(view.shape)
        for i, extent in enumerate(view.shape):
            self._constrain(extent, source.region[lead + i].extent, f"{view.name}.shape[{i}]")
        for i, stride in enumerate(view.strides):
            self._constrain(stride, strides[lead + i], f"{view.name}.strides[{i}]")

    def _constrain(self, arg, value, what: str) -> None:
        value = self.analyzer.simplify(value)
        if isinstance(arg, E.Var) and arg not in self.vmap:
            self.vmap[arg] = value
            return
        arg = self.visit(arg)
        if not self.analyzer.can_prove_equal(arg.astype(value.dtype), value):
            raise InternalError(
                f"LowerMatchBuffer: the buffer match constraint for {what} unmet: "
                f"{arg} == {value} (a view whose offset follows its region is declared with "
                "offset_factor=1)"
            )

    def _indices(self, buffer, indices):
        """(buffer, indices) an access reaches: through a view, the buffer it views."""
        found = self.views.get(id(buffer))
        indices = [self.visit(i) for i in indices]
        if found is None:
            return buffer, indices
        _view, source = found
        lead = len(source.region) - len(indices)
        mins = [r.min for r in source.region]
        inner = [i if _is_zero(m) else m + i for m, i in zip(mins[lead:], indices)]
        return source.buffer, mins[:lead] + inner

    def _region(self, region: BufferRegion) -> BufferRegion:
        found = self.views.get(id(region.buffer))
        ranges = [self.visit(r) for r in region.region]
        if found is None:
            if all(a is b for a, b in zip(ranges, region.region)):
                return region
            return BufferRegion(region.buffer, ranges)
        _view, source = found
        lead = len(source.region) - len(ranges)
        outer = list(source.region[:lead])
        for base, r in zip(source.region[lead:], ranges):
            outer.append(E.Range.from_min_extent(base.min + r.min, r.extent))
        return BufferRegion(source.buffer, outer)

    def visit_BufferRegion(self, region):
        return self._region(region)

    def visit_BufferLoad(self, load):
        buffer, indices = self._indices(load.buffer, load.indices)
        if buffer is load.buffer and all(a is b for a, b in zip(indices, load.indices)):
            return load
        return E.BufferLoad(buffer, indices, span=load.span)

    def visit_BufferStore(self, store):
        buffer, indices = self._indices(store.buffer, store.indices)
        value = self.visit(store.value)
        if (
            buffer is store.buffer
            and value is store.value
            and all(a is b for a, b in zip(indices, store.indices))
        ):
            return store
        return BufferStore(buffer, value, indices, span=store.span)


def _is_zero(e) -> bool:
    return isinstance(e, E.IntImm) and e.value == 0


def _has_views(func) -> bool:
    from ..functor import contains
    from ..stmt import Block

    return contains(func.body, lambda n: isinstance(n, Block) and bool(n.match_buffers))


def lower_match_buffer(func):
    if not _has_views(func):
        return func
    return func.with_body(_MatchBufferLowerer().visit(func.body))
