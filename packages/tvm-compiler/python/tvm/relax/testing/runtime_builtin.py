"""tvm.relax.testing.runtime_builtin: the opcodes of vm.builtin.match_shape/make_shape under
the names upstream's tests use (the runtime's own enums are tvm.runtime.vm's)."""

from enum import IntEnum


class MatchShapeCode(IntEnum):
    """What vm.builtin.match_shape does with one dimension."""

    ASSERT_EQUAL_TO_IMM = 0
    STORE_TO_HEAP = 1
    NO_OP = 2
    ASSERT_EQUAL_TO_LOAD = 3


class MakeShapeCode(IntEnum):
    """Where vm.builtin.make_shape takes one dimension from."""

    USE_IMM = 0
    LOAD_SHAPE = 1
