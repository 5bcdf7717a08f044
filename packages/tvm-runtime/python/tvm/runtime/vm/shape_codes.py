"""The opcodes of vm.builtin.match_shape and vm.builtin.make_shape (upstream's values)."""

import enum


class MatchShapeCode(enum.IntEnum):
    """What match_shape does with one dimension: nothing, store it into the shape heap, or
    check it against an immediate or a value loaded from the heap."""

    kNoOp = 0
    kAssertEqualToImm = 1
    kStoreToHeap = 2
    kAssertEqualToLoad = 3


class MakeShapeCode(enum.IntEnum):
    """Where make_shape takes one dimension from: the immediate itself or the shape heap."""

    kUseImm = 0
    kLoadShape = 1
