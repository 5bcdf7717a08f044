# Tests of the sampling primitives: draws from the schedule's seed, decisions in the trace,
# replay from a given decision, their errors, and enter_postproc as a trace marker.
import numpy as np
import pytest
import tvm
import tvm.s_tir
from tvm import te, tir
from tvm.error import ScheduleError


def _chain():
    a = te.placeholder((4, 64), name="A")
    b = te.compute((4, 64), lambda i, j: a[i, j] + 1.0, name="B")
    c = te.compute((4, 64), lambda i, j: b[i, j] * 2.0, name="C")
    return te.create_prim_func([a, c])


def _tiles(seed, n=3, max_innermost_factor=4):
    sch = tir.Schedule(_chain(), seed=seed)
    _, j = sch.get_loops(sch.get_block("C"))
    return sch, j, sch.sample_perfect_tile(j, n=n, max_innermost_factor=max_innermost_factor)


def test_sample_perfect_tile_factors_the_extent_and_follows_the_seed():
    seen = set()
    for seed in range(20):
        sch, j, rvs = _tiles(seed)
        values = [sch.get(rv) for rv in rvs]
        assert int(np.prod(values)) == 64 and values[-1] <= 4
        assert values == [sch.get(rv) for rv in _tiles(seed)[2]]  # same seed, same draw
        seen.add(tuple(values))
        sch.split(j, rvs)  # sampled factors split the loop
    assert len(seen) > 1
    x = np.random.default_rng(0).random((4, 64), dtype="float32")
    y = np.zeros((4, 64), "float32")
    tvm.compile(sch.mod)(x, y)
    np.testing.assert_allclose(y, (x + 1) * 2, rtol=1e-6)


def test_trace_records_decisions_and_a_decision_is_replayed():
    sch, j, rvs = _tiles(3)
    values = [sch.get(rv) for rv in rvs]
    v = sch.sample_categorical([1, 2, 4], [0.2, 0.3, 0.5])
    loc = sch.sample_compute_location(sch.get_block("B"))
    sch.enter_postproc()
    lines = str(sch.trace).splitlines()
    assert lines[2] == (
        f"v3, v4, v5 = sch.sample_perfect_tile(loop=l2, n=3, max_innermost_factor=4, "
        f"decision={values})"
    )
    index = [1, 2, 4].index(sch.get(v))
    assert lines[3] == (
        f"v6 = sch.sample_categorical(candidates=[1, 2, 4], probs=[0.2, 0.3, 0.5], "
        f"decision={index})"
    )
    assert lines[5].startswith("l8 = sch.sample_compute_location(block=b7, decision=")
    assert lines[6] == "sch.enter_postproc()"
    # Given decisions, the draws are the decisions, whatever the seed.
    other = tvm.s_tir.Schedule(_chain(), seed=99)
    _, j2 = other.get_loops(other.get_sblock("C"))
    tiles = other.sample_perfect_tile(j2, n=3, max_innermost_factor=4, decision=values)
    assert [other.get(t) for t in tiles] == values
    assert other.get(other.sample_categorical([1, 2, 4], [0.2, 0.3, 0.5], decision=2)) == 4
    loc = other.sample_compute_location(other.get_sblock("B"), decision=1)
    assert loc.var.name == "j"
    assert other.sample_compute_location(other.get_sblock("B"), decision=-1).var is None


def test_sample_categorical_follows_the_probabilities():
    sch = tir.Schedule(_chain(), seed=0)
    draws = [sch.get(sch.sample_categorical([7, 8], [0.0, 1.0])) for _ in range(20)]
    assert draws == [8] * 20


def test_sampling_errors():
    sch, j, _ = _tiles(0)
    with pytest.raises(ValueError, match="sample_perfect_tile: argument 'n' must be an int >= 1"):
        sch.sample_perfect_tile(j, n=0)
    with pytest.raises(ValueError, match="decision must be 2 positive ints"):
        sch.sample_perfect_tile(j, n=2, decision=[8])
    with pytest.raises(ValueError, match="sample_categorical: 2 candidates but 1 probabilities"):
        sch.sample_categorical([1, 2], [0.5])
    with pytest.raises(ValueError, match="decision must index the 2 candidates, got 5"):
        sch.sample_categorical([1, 2], [0.5, 0.5], decision=5)
    with pytest.raises(ValueError, match="sample_compute_location: decision must be -1"):
        sch.sample_compute_location(sch.get_block("B"), decision=7)


def test_sample_perfect_tile_of_a_symbolic_loop_is_a_schedule_error():
    m = tir.Var("m", "int32")
    a = te.placeholder((m,), name="A")
    b = te.compute((m,), lambda i: a[i] + 1.0, name="B")
    sch = tir.Schedule(te.create_prim_func([a, b]))
    (i,) = sch.get_loops(sch.get_block("B"))
    with pytest.raises(ScheduleError, match="loop 'i' does not have a constant extent"):
        sch.sample_perfect_tile(i, n=2)
    # A recorded decision needs no extent: replaying a trace still works.
    assert [sch.get(t) for t in sch.sample_perfect_tile(i, n=2, decision=[4, 2])] == [4, 2]
