# Tests of Schedule.transform_block_layout and IndexMap.inverse: the new iterators and loops,
# results against NumPy, the trace, and the ScheduleError cases.
import numpy as np
import pytest
import tvm
from tvm import te, tir
from tvm.error import ScheduleError


def _scale():
    a = te.placeholder((16, 8), name="A")
    return te.create_prim_func([a, te.compute((16, 8), lambda i, j: a[i, j] * 2.0, name="B")])


def _row_sum():
    a = te.placeholder((16, 8), name="A")
    k = te.reduce_axis((0, 8), name="k")
    return te.create_prim_func([a, te.compute((16,), lambda i: te.sum(a[i, k], axis=k), name="C")])


def _run_scale(sch):
    x = np.random.default_rng(0).random((16, 8), dtype="float32")
    out = np.zeros((16, 8), "float32")
    tvm.compile(sch.mod)(x, out)
    np.testing.assert_allclose(out, x * 2, rtol=1e-6)


@pytest.mark.parametrize(
    ("index_map", "expected"),
    [
        (lambda i, j: (j, i), 'v0, v1 = T.axis.remap("SS", [ax0, ax1])\n'),
        (lambda i, j: (i * 8 + j,), "B[v0 // 8, v0 % 8] = A[v0 // 8, v0 % 8] * T.float32(2.0)"),
        (
            lambda i, j: (i // 4, j, i % 4),
            "B[v0 * 4 + v2, v1] = A[v0 * 4 + v2, v1] * T.float32(2.0)",
        ),
    ],
)
def test_transform_block_layout_permutes_fuses_and_splits_iterators(index_map, expected):
    sch = tir.Schedule(_scale())
    sch.transform_block_layout(sch.get_block("B"), index_map)
    assert expected in sch.mod.script()
    _run_scale(sch)


def test_transform_block_layout_keeps_iterator_kinds_and_is_traced():
    sch = tvm.s_tir.Schedule(_row_sum())
    sch.transform_block_layout(sch.get_sblock("C"), lambda i, k: (k, i))
    text = sch.mod.script()
    assert "for ax0, ax1 in T.grid(8, 16):" in text
    assert 'v0, v1 = T.axis.remap("RS", [ax0, ax1])' in text
    x = np.random.default_rng(1).random((16, 8), dtype="float32")
    out = np.zeros(16, "float32")
    tvm.compile(sch.mod)(x, out)
    np.testing.assert_allclose(out, x.sum(1), rtol=1e-5)
    assert str(sch.trace).splitlines()[-1] == (
        "sch.transform_block_layout(block=b0, index_map=lambda i, k: (k, i))"
    )


def test_index_map_inverse_of_a_split():
    inverse = tir.IndexMap.from_func(lambda i, j: (i // 4, j, i % 4)).inverse([16, 8])
    assert repr(inverse) == "lambda v0, v1, v2: (v0 * T.int64(4) + v2, v1)"
    assert [int(v) for v in inverse.map_indices([2, 5, 3])] == [11, 5]
    with pytest.raises(ValueError, match="is not bijective over"):
        tir.IndexMap.from_func(lambda i: (i // 3, i % 3)).inverse([16])


def test_transform_block_layout_errors_name_what_is_wrong():
    sch = tir.Schedule(_scale())
    block = sch.get_block("B")
    with pytest.raises(ScheduleError, match=r"lambda i, j: \(i,\) is not bijective affine"):
        sch.transform_block_layout(block, lambda i, j: (i,))
    with pytest.raises(ScheduleError, match="takes 3 indices, the block has 2 iterators"):
        sch.transform_block_layout(block, lambda i, j, k: (i, j, k))
    with pytest.raises(ScheduleError, match="not bijective affine"):
        sch.transform_block_layout(block, lambda i, j: (i // 3, j, i % 3))
    with pytest.raises(ScheduleError, match="must be a function or IndexMap"):
        sch.transform_block_layout(block, 3)
    sch.split(sch.get_loops(block)[0], [4, 4])
    with pytest.raises(ScheduleError, match="binding values of block 'B' are not variables"):
        sch.transform_block_layout(block, lambda i, j: (j, i))
    sch = tir.Schedule(_row_sum())
    with pytest.raises(ScheduleError, match="mixes spatial and reduction iterators"):
        sch.transform_block_layout(sch.get_block("C"), lambda i, k: (i * 8 + k,))
