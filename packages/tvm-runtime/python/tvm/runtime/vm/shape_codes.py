"""The opcodes of vm.builtin.match_shape and vm.builtin.make_shape (upstream's values)."""

import enum


class MatchShapeCode(enum.IntEnum):
    """What match_shape does with one dimension: check it against an immediate, store it into
    the shape heap, nothing, or check it against a value loaded from the heap."""

    kAssertEqualToImm = 0
    kStoreToHeap = 1
    kNoOp = 2
    kAssertEqualToLoad = 3


class MakeShapeCode(enum.IntEnum):
    """Where make_shape takes one dimension from: the immediate itself or the shape heap."""

    kUseImm = 0
    kLoadShape = 1
