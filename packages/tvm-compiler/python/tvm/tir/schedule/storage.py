"""Buffer storage primitives: storage_align (padded strides), set_scope (memory scope) and
set_axis_separator (physical dimensions)."""

from __future__ import annotations

from ..stmt import Block
from ..storage_align import ANNOTATION
from .annotation import _set_annotations
from .scope import ReplaceBuffer
from .tree import find_all

# Scopes upstream accepts; on CPU the C backend allocates every non-global one as a local array.
_SCOPES = ("global", "shared", "shared.dyn", "local", "warp", "global.texture")


def _int(primitive, name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{primitive}: argument {name!r} must be an int, got {value!r}")
    return value


def _allocated_write(sch, primitive, block_rv, buffer_index):
    """The buffer block_rv writes at buffer_index, which a block must allocate."""
    block = sch._block_path(block_rv, primitive)[-1].block
    _int(primitive, "buffer_index", buffer_index)
    if not 0 <= buffer_index < len(block.writes):
        raise sch._error(
            primitive,
            f"block {block.name_hint!r} has {len(block.writes)} write regions, so buffer_index "
            f"must be in [0, {len(block.writes)}); got {buffer_index}",
        )
    buf = block.writes[buffer_index].buffer
    owners = find_all(
        sch.func.body,
        lambda n: isinstance(n, Block) and any(b is buf for b in n.alloc_buffers),
    )
    if not owners:
        raise sch._error(
            primitive,
            f"buffer {buf.name!r} is not allocated by a block (it is a function parameter)",
        )
    return block, buf, owners[0]


def storage_align(sch, block_rv, buffer_index, axis, factor, offset):
    block, buf, _ = _allocated_write(sch, "storage_align", block_rv, buffer_index)
    for name, value in (("axis", axis), ("factor", factor), ("offset", offset)):
        _int("storage_align", name, value)
    ndim = len(buf.shape)
    if not -ndim <= axis < ndim:
        raise sch._error(
            "storage_align",
            f"buffer {buf.name!r} has {ndim} dimension(s), so axis must be in [{-ndim}, {ndim}); "
            f"got {axis}",
        )
    if factor <= 0:
        raise sch._error("storage_align", f"factor must be a positive number, got {factor}")
    axis = axis % ndim

    def update(anns):
        entries = [
            e for e in anns.get(ANNOTATION, []) if not (e[0] == buffer_index and e[1] == axis)
        ]
        return {**anns, ANNOTATION: [*entries, [buffer_index, axis, factor, offset]]}

    _set_annotations(sch, block_rv, "storage_align", update)


class _ReplaceEverywhere(ReplaceBuffer):
    """ReplaceBuffer that also swaps the buffer in blocks' allocations."""

    def visit_Block(self, block):
        block = self.generic_visit(block)
        allocs = tuple(self.new if b is self.old else b for b in block.alloc_buffers)
        return block.with_fields(alloc_buffers=allocs)


def set_scope(sch, block_rv, buffer_index, storage_scope):
    _, buf, _ = _allocated_write(sch, "set_scope", block_rv, buffer_index)
    if not isinstance(storage_scope, str) or storage_scope not in _SCOPES:
        raise sch._error(
            "set_scope", f"storage scope {storage_scope!r} is invalid; valid scopes: {_SCOPES}"
        )
    if storage_scope == buf.scope:
        return
    new = buf.with_fields(scope=storage_scope, name=f"{buf.name}_{storage_scope}")
    sch._set_body(_ReplaceEverywhere(buf, new).visit(sch.func.body))


def set_axis_separator(sch, block_rv, buffer_index, axis_separators):
    from .reindex import _buffer_of

    block = sch._block_path(block_rv, "set_axis_separator")[-1].block
    if isinstance(buffer_index, int) and not isinstance(buffer_index, bool):
        buffer_index = ("write", buffer_index)
    buf, _ = _buffer_of(sch, block, buffer_index, "set_axis_separator")
    if not isinstance(axis_separators, (list, tuple)) or not all(
        isinstance(a, int) and not isinstance(a, bool) for a in axis_separators
    ):
        raise TypeError(
            "set_axis_separator: argument 'axis_separators' must be a list of ints, "
            f"got {axis_separators!r}"
        )
    seps = list(axis_separators)
    if seps != sorted(set(seps)) or any(not 0 < a < len(buf.shape) for a in seps):
        raise sch._error(
            "set_axis_separator",
            f"axis_separators {seps} of buffer {buf.name!r} must be increasing axes in "
            f"[1, {len(buf.shape)})",
        )
    new = buf.with_fields(axis_separators=tuple(seps))
    func = sch.func
    buffer_map = {v: (new if b is buf else b) for v, b in func.buffer_map.items()}
    body = _ReplaceEverywhere(buf, new).visit(func.body)
    sch._func = func.with_fields(body=body, buffer_map=buffer_map)
