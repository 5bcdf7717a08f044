"""Block queries: producers and consumers through buffers, child blocks of a block or loop."""

from __future__ import annotations

from ..stmt import Block, BlockRealize
from .tree import children


def _scope_blocks(sch, path):
    """The blocks of the innermost block scope enclosing path's end, in program order."""
    scope = next(node for node in reversed(path[:-1]) if isinstance(node, Block))
    return _child_blocks(scope.body)


def _child_blocks(stmt) -> list:
    """Blocks directly below stmt: nested loops are entered, nested blocks are not."""
    found = []

    def walk(node):
        if isinstance(node, BlockRealize):
            found.append(node.block)
            return
        for child in children(node):
            walk(child)

    walk(stmt)
    return found


def _buffers(regions) -> set[int]:
    return {id(region.buffer) for region in regions}


def producers(sch, block_rv) -> list[str]:
    """Names of the blocks before block_rv in its scope that write a buffer it reads."""
    path = sch._block_path(block_rv, "get_producers")
    block = path[-1].block
    siblings = _scope_blocks(sch, path)
    earlier = siblings[: next(i for i, b in enumerate(siblings) if b is block)]
    reads = _buffers(block.reads)
    return [b.name_hint for b in earlier if _buffers(b.writes) & reads]


def consumers(sch, block_rv) -> list[str]:
    """Names of the blocks after block_rv in its scope that read a buffer it writes."""
    path = sch._block_path(block_rv, "get_consumers")
    block = path[-1].block
    siblings = _scope_blocks(sch, path)
    later = siblings[next(i for i, b in enumerate(siblings) if b is block) + 1 :]
    writes = _buffers(block.writes)
    return [b.name_hint for b in later if _buffers(b.reads) & writes]


def child_blocks(sch, rv) -> list[str]:
    from .schedule import BlockRV, LoopRV

    if isinstance(rv, BlockRV):
        node = sch._block_path(rv, "get_child_blocks")[-1].block.body
    elif isinstance(rv, LoopRV):
        node = sch._loop_path(rv, "get_child_blocks")[-1]
    else:
        raise TypeError(f"get_child_blocks: expected a BlockRV or LoopRV, got {type(rv).__name__}")
    return [b.name_hint for b in _child_blocks(node)]
