"""transform_layout: give a buffer a new shape through an index map and rewrite every access."""

from __future__ import annotations

from tvm.arith import Analyzer

from .. import expr as E
from ..buffer import Buffer
from ..function import PrimFunc
from ..stmt import Block, BufferRegion
from .index_map import IndexMap
from .inline import _RefreshRegions
from .tree import find_all

PRIMITIVE = "transform_layout"


def _function_buffers(func) -> list:
    found = list(func.buffer_map.values())
    for block in find_all(func.body, lambda n: isinstance(n, Block)):
        found += [b for b in block.alloc_buffers if all(b is not f for f in found)]
    return found


def _resolve_buffer(sch, block, buffer) -> Buffer:
    if isinstance(buffer, str):
        named = [b for b in _function_buffers(sch.func) if b.name == buffer]
        if len(named) != 1:
            raise sch._error(
                PRIMITIVE,
                f"{len(named)} buffers are named {buffer!r}; give ('read'|'write', index) instead",
            )
        return named[0]
    if (
        isinstance(buffer, tuple)
        and len(buffer) == 2
        and buffer[0] in ("read", "write")
        and isinstance(buffer[1], int)
    ):
        kind, index = buffer
        regions = block.reads if kind == "read" else block.writes
        if not 0 <= index < len(regions):
            raise sch._error(
                PRIMITIVE,
                f"block {block.name_hint!r} has {len(regions)} {kind} buffers; "
                f"index {index} is out of range",
            )
        return regions[index].buffer
    raise sch._error(
        PRIMITIVE,
        f"argument 'buffer' must be a buffer name or ('read'|'write', index), got {buffer!r}",
    )


def _new_shape(sch, buffer, index_map):
    """The extent of each output axis over the buffer's domain; the map must be a bijection."""
    analyzer = Analyzer()
    for var, dim in zip(index_map.initial_indices, buffer.shape):
        analyzer.bind(var, E.Range(0, dim))
    shape, size = [], 1
    for index in index_map.final_indices:
        bound = analyzer.const_int_bound(index)
        if bound.min_value != 0:
            raise sch._error(
                PRIMITIVE,
                f"index map output {index} starts at {bound.min_value}, not 0, over "
                f"buffer {buffer.name!r}",
            )
        shape.append(bound.max_value + 1)
        size *= bound.max_value + 1
    old_size = 1
    for dim in buffer.shape:
        if not isinstance(dim, E.IntImm):
            raise sch._error(PRIMITIVE, f"buffer {buffer.name!r} must have a constant shape")
        old_size *= dim.value
    if size != old_size:
        raise sch._error(
            PRIMITIVE,
            f"the index map takes buffer {buffer.name!r} ({old_size} elements) to shape "
            f"{shape} ({size} elements); a layout needing padding (pad_value) is not supported",
        )
    return shape


def as_index_map(index_map):
    """index_map as an IndexMap when it is a function of a fixed number of indices (so the
    trace prints it as a lambda); anything else is left for transform_layout to report."""
    if isinstance(index_map, IndexMap) or not callable(index_map):
        return index_map
    try:
        return IndexMap.from_func(index_map, index_dtype="int32")
    except (TypeError, ValueError):
        return index_map


def transform_layout(sch, block_rv, buffer, index_map, pad_value=None) -> None:
    block = sch._block_path(block_rv, PRIMITIVE)[-1].block
    old = _resolve_buffer(sch, block, buffer)
    if pad_value is not None:
        raise sch._error(PRIMITIVE, "pad_value is not supported yet; the map must be a bijection")
    if not isinstance(index_map, IndexMap):
        if not callable(index_map):
            raise sch._error(
                PRIMITIVE,
                f"argument 'index_map' must be a function or IndexMap, got {index_map!r}",
            )
        index_map = IndexMap.from_func(index_map, ndim=len(old.shape), index_dtype="int32")
    if len(index_map.initial_indices) != len(old.shape):
        raise sch._error(
            PRIMITIVE,
            f"the index map takes {len(index_map.initial_indices)} indices; buffer "
            f"{old.name!r} has {len(old.shape)} dimensions",
        )
    shape = _new_shape(sch, old, index_map)
    new = Buffer(
        E.Var(old.data.name, old.data.dtype),
        old.dtype,
        shape,
        name=old.name,
        scope=old.scope,
        data_alignment=old.data_alignment,
    )
    analyzer = Analyzer()

    def remap(indices):
        return tuple(analyzer.simplify(i) for i in index_map.map_indices(list(indices)))

    def on_load(load):
        return E.BufferLoad(new, remap(load.indices)) if load.buffer is old else load

    def on_store(store):
        if store.buffer is not old:
            return store
        return store.with_fields(buffer=new, indices=remap(store.indices))

    class _Rewrite(_RefreshRegions):
        def visit_Block(self, blk):
            if any(b is old for b in blk.alloc_buffers):
                allocs = tuple(new if b is old else b for b in blk.alloc_buffers)
                blk = blk.with_fields(alloc_buffers=allocs)
                # The root keeps its (empty) regions; refresh it through the generic path.
                blk = blk.with_fields(
                    reads=tuple(_swap(r) for r in blk.reads),
                    writes=tuple(_swap(r) for r in blk.writes),
                )
            return super().visit_Block(blk)

    def _swap(region):
        if region.buffer is not old:
            return region
        return BufferRegion(new, [E.Range(0, d) for d in shape])

    body = _Rewrite(mutate_load=on_load, mutate_store=on_store).visit(sch.func.body)
    func = sch.func
    buffer_map = {v: (new if b is old else b) for v, b in func.buffer_map.items()}
    sch._func = PrimFunc(func.params, body, func.ret_type, buffer_map, func.attrs, func.span)
