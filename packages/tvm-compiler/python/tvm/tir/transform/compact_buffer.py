"""CompactBufferAllocation: allocate each buffer inside the innermost loop holding all its uses,
shrunk to the region that one iteration of that loop touches."""

from __future__ import annotations

from tvm.arith import Analyzer

from .. import expr as E
from ..buffer import decl_buffer
from ..functor import StmtExprMutator, StmtExprVisitor
from ..schedule.region import RegionError, access_region
from ..stmt import Allocate, BufferStore, DeclBuffer, For


class _AccessSites(StmtExprVisitor):
    """Index lists of every access to data, with the loops around each."""

    def __init__(self, data):
        self.data = data
        self.loops: list[For] = []
        self.sites: list[tuple[tuple[For, ...], tuple]] = []
        self.opaque = False  # data itself is used (passed to an extern call): keep it whole

    def visit_Var(self, var):
        if var is self.data:
            self.opaque = True

    def visit_For(self, loop):
        self.loops.append(loop)
        self.generic_visit(loop)
        self.loops.pop()

    def visit_BufferLoad(self, load):
        if load.buffer.data is self.data:
            self.sites.append((tuple(self.loops), load.indices))
        self.generic_visit(load)

    def visit_BufferStore(self, store):
        if store.buffer.data is self.data:
            self.sites.append((tuple(self.loops), store.indices))
        self.generic_visit(store)


class _FirstAccess(StmtExprVisitor):
    """Whether the first access to data in a statement is a store that always runs."""

    def __init__(self, data):
        self.data = data
        self.conditional = 0
        self.first: str | None = None

    def visit_IfThenElse(self, node):
        self.visit(node.condition)
        self.conditional += 1
        self.visit(node.then_case)
        if node.else_case is not None:
            self.visit(node.else_case)
        self.conditional -= 1

    def visit_BufferLoad(self, load):
        self.generic_visit(load)
        if load.buffer.data is self.data and self.first is None:
            self.first = "read"

    def visit_BufferStore(self, store):
        self.generic_visit(store)  # the value (its loads) is computed before the store
        if store.buffer.data is self.data and self.first is None:
            self.first = "read" if self.conditional else "write"


def _fresh_each_iteration(loop, data) -> bool:
    """No iteration of loop reads a value of data that an earlier one wrote: its first access
    is an unconditional store (a reduction's `if k == 0` init carries values across k)."""
    first = _FirstAccess(data)
    first.visit(loop.body)
    return first.first == "write"


def _common_prefix(chains):
    prefix = list(chains[0])
    for chain in chains[1:]:
        n = 0
        while n < len(prefix) and n < len(chain) and prefix[n] is chain[n]:
            n += 1
        prefix = prefix[:n]
    return prefix


class _Relocate(StmtExprMutator):
    def __init__(self, old, new, starts, site_loop):
        self.old, self.new, self.starts, self.site_loop = old, new, starts, site_loop

    def _shift(self, indices):
        return [self.visit(i) - s for i, s in zip(indices, self.starts)]

    def visit_BufferLoad(self, load):
        if load.buffer.data is self.old.data:
            return E.BufferLoad(self.new, self._shift(load.indices))
        return self.generic_visit(load)

    def visit_BufferStore(self, store):
        if store.buffer.data is self.old.data:
            return BufferStore(self.new, self.visit(store.value), self._shift(store.indices))
        return self.generic_visit(store)

    def visit_For(self, loop):
        is_site = loop is self.site_loop
        loop = self.generic_visit(loop)
        if is_site:
            extents = [self.new.num_elements()]
            body = Allocate(self.new.data, self.new.dtype, extents, DeclBuffer(self.new, loop.body))
            loop = loop.with_fields(body=body)
        return loop


class _Compactor(StmtExprMutator):
    def visit_Allocate(self, alloc):
        body = self.visit(alloc.body)
        if not isinstance(body, DeclBuffer) or body.buffer.data is not alloc.buffer_var:
            return alloc.with_fields(body=body)
        buf = body.buffer
        if buf.strides:  # padded by storage_align: its layout is kept
            return alloc.with_fields(body=body)
        sites = _AccessSites(buf.data)
        sites.visit(body.body)
        if not sites.sites or sites.opaque:
            return alloc.with_fields(body=body)
        prefix = _common_prefix([chain for chain, _ in sites.sites])
        for n, loop in enumerate(prefix):
            if not _fresh_each_iteration(loop, buf.data):
                prefix = prefix[:n]
                break
        varying = {}
        for chain, _ in sites.sites:
            for loop in chain[len(prefix) :]:
                varying[loop.loop_var] = (loop.min, loop.extent)
        try:
            region = access_region([idx for _, idx in sites.sites], varying, Analyzer())
        except RegionError:
            return alloc.with_fields(body=body)
        if region is None or len(region) != len(buf.shape):
            return alloc.with_fields(body=body)
        same_shape = all(
            isinstance(dim, E.IntImm) and dim.value == extent
            for dim, (_, extent) in zip(buf.shape, region)
        )
        if same_shape and not prefix:
            return alloc.with_fields(body=body)
        shape = [E.const(extent, "int32") for _, extent in region]
        new_buf = decl_buffer(shape, buf.dtype, name=buf.name, scope=buf.scope)
        starts = [start for start, _ in region]
        site = prefix[-1] if prefix else None
        relocated = _Relocate(buf, new_buf, starts, site).visit(body.body)
        if site is None:
            return Allocate(
                new_buf.data, buf.dtype, [new_buf.num_elements()], DeclBuffer(new_buf, relocated)
            )
        return relocated


def compact_buffer_allocation(func):
    return func.with_body(_Compactor().visit(func.body))
