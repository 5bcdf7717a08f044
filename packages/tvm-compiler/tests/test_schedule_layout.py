# Tests of Schedule.transform_layout and tvm.tir.IndexMap: the printed IR, results against NumPy
# with parameters in their new layout, the trace, and the ScheduleError cases.
import numpy as np
import pytest
import tvm
from tvm import te, tir
from tvm.error import ScheduleError


def _two_stage():
    """B = A + 1 (intermediate); C = B * 2 over (8, 4)."""
    a = te.placeholder((8, 4), name="A")
    b = te.compute((8, 4), lambda i, j: a[i, j] + 1.0, name="B")
    c = te.compute((8, 4), lambda i, j: b[i, j] * 2.0, name="C")
    return te.create_prim_func([a, c])


def test_index_map_from_func_and_map_indices():
    m = tir.IndexMap.from_func(lambda i, j: [i // 4, j, i % 4])
    assert [v.name for v in m.initial_indices] == ["i", "j"]
    assert [e.value for e in m.map_indices([9, 3])] == [2, 3, 1]
    assert repr(m) == "lambda i, j: (i // T.int64(4), j, i % T.int64(4))"
    with pytest.raises(ValueError, match="expected 2 indices"):
        m.map_indices([1])


def test_transform_layout_of_an_intermediate_rewrites_its_shape_and_accesses():
    sch = tir.Schedule(_two_stage())
    sch.transform_layout(sch.get_block("B"), ("write", 0), lambda i, j: [i // 4, j, i % 4])
    text = sch.mod.script()
    assert "T.alloc_buffer((2, 4, 4))" in text
    assert "B[v_i // 4, v_j, v_i % 4] = A[v_i, v_j] + T.float32(1.0)" in text
    assert "B[v_i_1 // 4, v_j_1, v_i_1 % 4] * T.float32(2.0)" in text
    x = np.random.default_rng(0).random((8, 4), dtype="float32")
    out = np.zeros((8, 4), "float32")
    tvm.compile(sch.mod)(x, out)
    np.testing.assert_allclose(out, (x + 1) * 2, rtol=1e-6)
    # The consumer's read region now names the new buffer.
    reads = sch.get(sch.get_block("C")).reads
    assert [len(r.region) for r in reads] == [3]


def test_transform_layout_of_a_parameter_changes_what_the_function_expects():
    sch = tvm.s_tir.Schedule(_two_stage())
    block = sch.get_sblock("B")
    sch.transform_layout(block, "A", tir.IndexMap.from_func(lambda i, j: [j, i]))
    sch.transform_layout(sch.get_block("C"), ("write", 0), lambda i, j: [j // 2, i, j % 2])
    func = sch.mod["main"]
    shapes = [tuple(int(d) for d in b.shape) for b in func.buffer_map.values()]
    assert shapes == [(4, 8), (2, 8, 2)]
    assert 'A: T.Buffer((4, 8), "float32")' in sch.mod.script()
    x = np.random.default_rng(1).random((8, 4), dtype="float32")
    out = np.zeros((2, 8, 2), "float32")
    tvm.compile(sch.mod)(np.ascontiguousarray(x.T), out)
    expected = ((x + 1) * 2).reshape(8, 2, 2).transpose(1, 0, 2)
    np.testing.assert_allclose(out, expected, rtol=1e-6)
    assert str(sch.trace).splitlines()[1] == (
        "sch.transform_layout(block=b0, buffer='A', index_map=lambda i, j: (j, i), pad_value=None)"
    )


def test_transform_layout_errors_name_the_primitive_and_the_problem():
    sch = tir.Schedule(_two_stage())
    block = sch.get_block("B")
    with pytest.raises(ScheduleError, match="transform_layout: block 'B' has 1 read buffers"):
        sch.transform_layout(block, ("read", 3), lambda i, j: [j, i])
    with pytest.raises(ScheduleError, match="0 buffers are named 'Z'"):
        sch.transform_layout(block, "Z", lambda i, j: [j, i])
    with pytest.raises(ScheduleError, match="must be a buffer name or"):
        sch.transform_layout(block, ("modify", 0), lambda i, j: [j, i])
    with pytest.raises(ScheduleError, match="takes 3 indices; buffer 'A' has 2 dimensions"):
        sch.transform_layout(block, "A", lambda i, j, k: [i, j, k])
    with pytest.raises(ScheduleError, match="not supported"):
        sch.transform_layout(block, "A", lambda i, j: [i // 3, j, i % 3])
    with pytest.raises(ScheduleError, match="pad_value is not supported"):
        sch.transform_layout(block, "A", lambda i, j: [j, i], pad_value=0.0)
    with pytest.raises(ScheduleError, match="must be a function or IndexMap"):
        sch.transform_layout(block, "A", 42)
    # Nothing above changed the function.
    assert 'A: T.Buffer((8, 4), "float32")' in sch.mod.script()
