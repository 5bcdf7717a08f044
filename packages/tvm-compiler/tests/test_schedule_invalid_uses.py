# Invalid uses of schedule primitives the other schedule tests leave out: stale block
# handles, and fuse/reorder on loops of symbolic extent (valid and invalid).
import numpy as np
import pytest
import tvm
from tvm import te, tir
from tvm.tir.schedule import ScheduleError


def _two_blocks(shape):
    a = te.placeholder(shape, name="A")
    b = te.compute(shape, lambda *ix: a[ix] * 2, name="B")
    c = te.compute(shape, lambda *ix: b[ix] + 1, name="C")
    return tir.Schedule(te.create_prim_func([a, c]))


@pytest.mark.parametrize(
    "use",
    [
        lambda s, blk: s.annotate(blk, "key", 1),
        lambda s, blk: s.get_child_blocks(blk),
        lambda s, blk: s.sample_compute_location(blk),
        lambda s, blk: s.get_loops(blk),
    ],
    ids=["annotate", "get_child_blocks", "sample_compute_location", "get_loops"],
)
def test_a_block_inlined_away_is_a_schedule_error_naming_it(use):
    sch = _two_blocks((16,))
    block = sch.get_block("B")
    sch.compute_inline(block)
    with pytest.raises(ScheduleError, match="block 'B' is not in the function"):
        use(sch, block)


def _symbolic():
    return _two_blocks((te.var("n"), te.var("m")))


def test_reorder_and_fuse_of_symbolic_loops_run_every_element():
    sch = _symbolic()
    i, j = sch.get_loops(sch.get_block("B"))
    sch.reorder(j, i)
    k, l_ = sch.get_loops(sch.get_block("C"))
    sch.fuse(k, l_)
    lib = tvm.compile(sch.mod)
    for shape in [(1, 1), (5, 7), (16, 3)]:
        x = np.random.default_rng(0).random(shape, dtype="float32")
        y = np.zeros_like(x)
        lib(x, y)
        np.testing.assert_allclose(y, x * 2 + 1, rtol=1e-6)


@pytest.mark.parametrize(
    "use, message",
    [
        (lambda s, b, c: s.fuse(b[1], b[0]), "not directly nested"),
        (lambda s, b, c: s.fuse(b[1], c[0]), "not directly nested"),
        (lambda s, b, c: s.reorder(b[0], c[1]), "not nested in one another"),
        (lambda s, b, c: s.reorder(b[0], b[0]), "a loop is listed twice"),
    ],
    ids=["fuse-outer-after-inner", "fuse-across-blocks", "reorder-across-blocks", "reorder-twice"],
)
def test_invalid_fuse_and_reorder_of_symbolic_loops_are_schedule_errors(use, message):
    sch = _symbolic()
    b_loops, c_loops = sch.get_loops(sch.get_block("B")), sch.get_loops(sch.get_block("C"))
    with pytest.raises(ScheduleError, match=message):
        use(sch, b_loops, c_loops)
