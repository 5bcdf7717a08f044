# Tests of tir.TensorIntrin and Schedule.tensorize: registration, a block matched against the
# description and replaced by the implementation on its own buffers, results against NumPy,
# the trace, and the ScheduleError cases.
import numpy as np
import pytest
import tvm
from tvm import te, tir
from tvm.error import ScheduleError
from tvm.tir.schedule.tree import find_all


def _without_init(func):
    """func with its reduction block's init dropped: an accumulate-only description, the
    `C[i, j] += ...` form tensor intrinsics are written in."""
    (block,) = [b for b in find_all(func.body, lambda n: isinstance(n, tir.Block)) if b.init]
    sch = tir.Schedule(func)
    path = sch._block_path(tir.schedule.BlockRV(block.name_hint), "test")
    from tvm.tir.schedule.tree import replace_at

    return func.with_body(
        replace_at(path, path[-1].with_fields(block=block.with_fields(init=None)))
    )


def _matmul(n, name="C"):
    a = te.placeholder((n, n), name="A")
    b = te.placeholder((n, n), name="B")
    k = te.reduce_axis((0, n), name="k")
    c = te.compute((n, n), lambda i, j: te.sum(a[i, k] * b[j, k], axis=k), name=name)
    return te.create_prim_func([a, b, c])


def _register_mma4():
    desc = _without_init(_matmul(4, "update"))
    # The implementation: the same accumulation with the j loop vectorized.
    sch = tir.Schedule(_without_init(_matmul(4, "update_impl")))
    sch.vectorize(sch.get_loops(sch.get_block("update_impl"))[1])
    tir.TensorIntrin.register("test_mma4", desc, sch.mod["main"], override=True)


def _tiled_matmul(j_tile=4):
    """16^3 matmul tiled 4 x j_tile x 4; returns the schedule and the tile's outer loop."""
    sch = tir.Schedule(_matmul(16))
    i, j, k = sch.get_loops(sch.get_block("C"))
    i0, i1 = sch.split(i, [4, 4])
    j0, j1 = sch.split(j, [None, j_tile])
    k0, k1 = sch.split(k, [4, 4])
    sch.reorder(i0, j0, k0, i1, j1, k1)
    return sch, i1


def test_tensor_intrin_register_and_get():
    _register_mma4()
    intrin = tir.TensorIntrin.get("test_mma4")
    assert tvm.s_tir.TensorIntrin is tir.TensorIntrin
    assert len(intrin.desc.params) == 3
    with pytest.raises(ValueError, match="TensorIntrin 'test_mma4' has already been registered"):
        tir.TensorIntrin.register("test_mma4", intrin.desc, intrin.impl)
    with pytest.raises(ValueError, match="TensorIntrin 'no_such' is not registered"):
        tir.TensorIntrin.get("no_such")
    assert tir.TensorIntrin.get("no_such", allow_missing=True) is None


def test_tensorize_a_tile_puts_the_implementation_on_the_tile():
    _register_mma4()
    sch, i1 = _tiled_matmul()
    sch.tensorize(i1, "test_mma4")
    text = sch.mod.script()
    assert 'with T.block("C_o")' in text
    assert 'with T.block("update_impl")' in text
    assert "T.vectorized(4)" in text
    assert "C[v_i_o * 4 + v_i, v_j_o * 4 + v_j] = C[v_i_o * 4 + v_i, v_j_o * 4 + v_j] + " in text
    rng = np.random.default_rng(0)
    x, y = rng.random((16, 16), dtype="float32"), rng.random((16, 16), dtype="float32")
    out = np.zeros((16, 16), "float32")
    tvm.compile(sch.mod)(x, y, out)
    np.testing.assert_allclose(out, x @ y.T, rtol=1e-5)
    assert str(sch.trace).splitlines()[-1] == (
        "sch.tensorize(block_or_loop=l5, tensor_intrin='test_mma4', preserve_unit_iters=True)"
    )


def test_tensorize_a_block_after_blockize_and_an_elementwise_intrin():
    a = te.placeholder((4,), name="A")
    b = te.placeholder((4,), name="B")
    desc = te.create_prim_func([a, b, te.compute((4,), lambda i: a[i] + b[i], name="add")])
    sch_impl = tir.Schedule(desc)
    sch_impl.unroll(sch_impl.get_loops(sch_impl.get_block("add"))[0])
    tir.TensorIntrin.register("test_add4", desc, sch_impl.mod["main"], override=True)
    x = te.placeholder((8, 16), name="X")
    y = te.placeholder((8, 16), name="Y")
    z = te.compute((8, 16), lambda i, j: x[i, j] + y[i, j], name="Z")
    sch = tir.Schedule(te.create_prim_func([x, y, z]))
    _, j = sch.get_loops(sch.get_block("Z"))
    _, j1 = sch.split(j, [4, 4])
    outer = sch.blockize(j1)
    sch.tensorize(outer, "test_add4")
    assert "T.unroll(4)" in sch.mod.script()
    rng = np.random.default_rng(1)
    xv, yv = rng.random((8, 16), dtype="float32"), rng.random((8, 16), dtype="float32")
    out = np.zeros((8, 16), "float32")
    tvm.compile(sch.mod)(xv, yv, out)
    np.testing.assert_allclose(out, xv + yv, rtol=1e-6)


def test_tensorize_errors_name_what_does_not_match():
    _register_mma4()
    sch, i1 = _tiled_matmul(j_tile=8)
    with pytest.raises(ScheduleError, match="tensorize: the body of block 'C_o' does not match"):
        sch.tensorize(i1, "test_mma4")
    sch, i1 = _tiled_matmul()
    with pytest.raises(ValueError, match="'nope' is not registered"):
        sch.tensorize(i1, "nope")
    with pytest.raises(TypeError, match="must be a BlockRV or LoopRV"):
        sch.tensorize("C", "test_mma4")
