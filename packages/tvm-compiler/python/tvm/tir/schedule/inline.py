"""compute_inline and reverse_compute_inline: fold an elementwise block into its consumer or
producer, removing the intermediate buffer."""

from __future__ import annotations

from .. import expr as E
from ..analysis.access import block_access_regions
from ..functor import StmtExprMutator, contains, post_order_visit, substitute
from ..stmt import Block, BufferStore, For, SeqStmt
from .tree import find_all, replace_at


def _spatial_store(sch, primitive, block) -> BufferStore:
    """The block's one store, when the block is elementwise: every iterator spatial, no init,
    and the store indexed by the iterators themselves, each once."""
    if any(iv.is_reduce for iv in block.iter_vars) or block.init is not None:
        raise sch._error(
            primitive,
            f"block {block.name_hint!r} is a reduction; only a block "
            "whose iterators are all spatial can be inlined",
        )
    store = block.body
    if not isinstance(store, BufferStore):
        raise sch._error(
            primitive,
            f"block {block.name_hint!r} must have one BufferStore as its "
            f"body, got {type(store).__name__}",
        )
    return store


def _index_vars(sch, primitive, block, indices, what) -> list:
    """indices as the block's iterators, each once and all of them, or a ScheduleError."""
    iter_vars = [iv.var for iv in block.iter_vars]
    if (
        len(indices) != len(iter_vars)
        or any(not isinstance(i, E.Var) for i in indices)
        or len({id(i) for i in indices}) != len(indices)
        or {id(i) for i in indices} != {id(v) for v in iter_vars}
    ):
        raise sch._error(
            primitive,
            f"block {block.name_hint!r}: {what} must be indexed by the "
            "block's iterators, each once (a transpose is fine, an "
            "expression is not)",
        )
    return list(indices)


def _intermediate(sch, primitive, buffer):
    if any(buf is buffer for buf in sch.func.buffer_map.values()):
        raise sch._error(
            primitive,
            f"buffer {buffer.name!r} is an argument of the function; "
            "only an intermediate buffer can be inlined away",
        )
    writers = find_all(sch.func.body, lambda n: isinstance(n, BufferStore) and n.buffer is buffer)
    if len(writers) != 1:
        raise sch._error(
            primitive,
            f"buffer {buffer.name!r} is written by {len(writers)} "
            "stores; inlining needs exactly one",
        )


def _removal_path(path):
    """The part of path to remove with the block: the block and the loops that hold only it."""
    start = len(path) - 1
    while start > 0 and isinstance(path[start - 1], For) and path[start - 1].body is path[start]:
        start -= 1
    if start == 0 or not isinstance(path[start - 1], SeqStmt):
        raise ValueError("nothing else in its scope")
    return path[: start + 1]


class _RefreshRegions(StmtExprMutator):
    """Recompute the reads and writes of every block a rewrite touched."""

    def __init__(self, mutate_load=None, mutate_store=None):
        self.mutate_load = mutate_load
        self.mutate_store = mutate_store

    def visit_BufferLoad(self, load):
        load = self.generic_visit(load)
        return self.mutate_load(load) if self.mutate_load else load

    def visit_BufferStore(self, store):
        store = self.generic_visit(store)
        return self.mutate_store(store) if self.mutate_store else store

    def visit_Block(self, block):
        new = self.generic_visit(block)
        if new is block or new.name_hint == "root":
            return new
        reads, writes = block_access_regions(new.body, new.init, new.alloc_buffers)
        return new.with_fields(reads=tuple(reads), writes=tuple(writes))


def _without_buffer(body, buffer):
    """The function body (its root block's realize) with buffer dropped from the root's
    allocations; a buffer a nested block allocates stays there, unused."""
    root = body.block
    kept = tuple(b for b in root.alloc_buffers if b is not buffer)
    if len(kept) == len(root.alloc_buffers):
        return body
    return body.with_fields(block=root.with_fields(alloc_buffers=kept))


def _remove_block(sch, primitive, path, block):
    try:
        removal = _removal_path(path)
    except ValueError:
        raise sch._error(
            primitive,
            f"block {block.name_hint!r} is the only statement of its "
            "scope; there is nothing to inline it into",
        ) from None
    return replace_at(removal, None)


def compute_inline(sch, block_rv) -> None:
    primitive = "compute_inline"
    path = sch._block_path(block_rv, primitive)
    block = path[-1].block
    store = _spatial_store(sch, primitive, block)
    buffer = store.buffer
    index_vars = _index_vars(sch, primitive, block, store.indices, f"its store to {buffer.name!r}")
    _intermediate(sch, primitive, buffer)
    if contains(store.value, lambda n: isinstance(n, E.BufferLoad) and n.buffer is buffer):
        raise sch._error(primitive, f"block {block.name_hint!r} reads the buffer it writes")

    def inline(load):
        if load.buffer is not buffer:
            return load
        return substitute(store.value, dict(zip(index_vars, load.indices)))

    removal_root = _remove_block(sch, primitive, path, block)
    body = _RefreshRegions(mutate_load=inline).visit(removal_root)
    sch._set_body(_without_buffer(body, buffer))


def reverse_compute_inline(sch, block_rv) -> None:
    primitive = "reverse_compute_inline"
    path = sch._block_path(block_rv, primitive)
    block = path[-1].block
    store = _spatial_store(sch, primitive, block)
    intermediates = {id(b) for b in _intermediates(sch)}
    loads = []
    post_order_visit(
        store.value,
        lambda n: (
            loads.append(n)
            if isinstance(n, E.BufferLoad) and id(n.buffer) in intermediates
            else None
        ),
    )
    buffers = {id(load.buffer): load.buffer for load in loads}
    if len(buffers) != 1:
        raise sch._error(
            primitive,
            f"block {block.name_hint!r} must read exactly one "
            f"intermediate buffer, reads {len(buffers)}",
        )
    (buffer,) = buffers.values()
    if len({tuple(id(i) for i in load.indices) for load in loads}) != 1:
        raise sch._error(
            primitive, f"block {block.name_hint!r} reads {buffer.name!r} at more than one point"
        )
    consumer_vars = _index_vars(
        sch, primitive, block, loads[0].indices, f"its read of {buffer.name!r}"
    )
    writers = find_all(
        sch.func.body,
        lambda n: (
            isinstance(n, Block)
            and n.name_hint != "root"
            and any(w.buffer is buffer for w in n.writes)
        ),
    )
    if len(writers) != 1:
        raise sch._error(
            primitive,
            f"buffer {buffer.name!r} is written by {len(writers)} "
            "blocks; inlining needs exactly one",
        )
    (producer,) = writers
    producer_store = _spatial_store(sch, primitive, producer)  # refuses a reduction
    _index_vars(sch, primitive, producer, producer_store.indices, f"its store to {buffer.name!r}")
    _intermediate(sch, primitive, buffer)
    readers = find_all(
        sch.func.body,
        lambda n: (
            isinstance(n, Block)
            and n is not block
            and n.name_hint != "root"
            and any(r.buffer is buffer for r in n.reads)
        ),
    )
    if readers:
        raise sch._error(
            primitive,
            f"buffer {buffer.name!r} is also read by block "
            f"{readers[0].name_hint!r}; only its one consumer may be folded in",
        )

    def fold(producer):
        if producer.buffer is not buffer:
            return producer
        mapping = dict(zip(consumer_vars, producer.indices))
        value = substitute(store.value, mapping)
        value = _ReplaceLoad(buffer, producer.value).visit(value)
        return BufferStore(store.buffer, value, [substitute(i, mapping) for i in store.indices])

    removal_root = _remove_block(sch, primitive, path, block)
    body = _RefreshRegions(mutate_store=fold).visit(removal_root)
    sch._set_body(_without_buffer(body, buffer))


class _ReplaceLoad(StmtExprMutator):
    def __init__(self, buffer, value):
        self.buffer, self.value = buffer, value

    def visit_BufferLoad(self, load):
        return self.value if load.buffer is self.buffer else self.generic_visit(load)


def _intermediates(sch):
    """Buffers allocated inside the function (not its arguments)."""
    found = []
    for block in find_all(sch.func.body, lambda n: isinstance(n, Block)):
        found.extend(block.alloc_buffers)
    return found
