# Tests of Schedule.storage_align and Schedule.set_scope: the IR they leave, the padded stride
# in the lowered code and the C source, results, and their errors.
import numpy as np
import pytest
import tvm
import tvm.driver
import tvm.s_tir
from tvm import te, tir
from tvm.codegen.c.source import generate_c_source
from tvm.error import ScheduleError


def _chain():
    a = te.placeholder((4, 16), name="A")
    b = te.compute((4, 16), lambda i, j: a[i, j] + 1.0, name="B")
    c = te.compute((4, 16), lambda i, j: b[i, j] * 2.0, name="C")
    return te.create_prim_func([a, c])


def _check_result(mod):
    x = np.random.default_rng(0).random((4, 16), dtype="float32")
    y = np.zeros((4, 16), "float32")
    tvm.compile(mod)(x, y)
    np.testing.assert_allclose(y, (x + 1) * 2, rtol=1e-6)


def test_storage_align_pads_the_row_stride_in_the_lowered_code():
    sch = tir.Schedule(_chain())
    sch.storage_align(sch.get_block("B"), 0, axis=0, factor=8, offset=1)
    assert 'T.block_attr({"buffer_dim_align": [[0, 0, 8, 1]]})' in sch.mod.script()
    trace = str(sch.trace).splitlines()[-1]
    assert trace == "sch.storage_align(block=b0, buffer_index=0, axis=0, factor=8, offset=1)"
    lowered = tvm.driver.lower(sch.mod)
    text = lowered["main"].script()
    # Rows of 16 padded to 17 (17 % 8 == 1): 3 * 17 + 16 elements allocated.
    assert "B = T.decl_buffer((67,))" in text
    assert "B[i * 17 + j]" in text and "A_1[i * 16 + j]" in text
    assert "* 17" in generate_c_source(lowered).text
    _check_result(sch.mod)


def test_storage_align_negative_axis_and_replacing_an_entry():
    sch = tvm.s_tir.Schedule(_chain())
    block = sch.get_sblock("B")
    sch.storage_align(block, 0, axis=-2, factor=8, offset=1)
    sch.storage_align(block, 0, axis=0, factor=32, offset=4)
    assert "[[0, 0, 32, 4]]" in sch.mod.script()
    assert "* 36" in tvm.driver.lower(sch.mod)["main"].script()
    _check_result(sch.mod)


def test_storage_align_errors():
    sch = tir.Schedule(_chain())
    with pytest.raises(ScheduleError, match="storage_align: buffer 'C' is not allocated by a"):
        sch.storage_align(sch.get_block("C"), 0, 0, 8, 1)
    b = sch.get_block("B")
    with pytest.raises(ScheduleError, match=r"buffer_index must be in \[0, 1\); got 1"):
        sch.storage_align(b, 1, 0, 8, 1)
    with pytest.raises(ScheduleError, match=r"axis must be in \[-2, 2\); got 2"):
        sch.storage_align(b, 0, 2, 8, 1)
    with pytest.raises(ScheduleError, match="factor must be a positive number, got 0"):
        sch.storage_align(b, 0, 0, 0, 1)
    with pytest.raises(TypeError, match="storage_align: argument 'offset' must be an int"):
        sch.storage_align(b, 0, 0, 8, "1")
    assert "block_attr" not in sch.mod.script()


@pytest.mark.parametrize("scope", ["local", "shared", "global"])
def test_set_scope_keeps_the_scope_in_the_ir_and_runs_on_cpu(scope):
    sch = tir.Schedule(_chain())
    sch.set_scope(sch.get_block("B"), 0, scope)
    text = sch.mod.script()
    if scope == "global":
        assert "B = T.alloc_buffer((4, 16))" in text
    else:
        assert f'B_{scope} = T.alloc_buffer((4, 16), scope="{scope}")' in text
        assert f"C[v_i_1, v_j_1] = B_{scope}[v_i_1, v_j_1] * T.float32(2.0)" in text
    last = str(sch.trace).splitlines()[-1]
    assert last == f"sch.set_scope(block=b0, buffer_index=0, storage_scope={scope!r})"
    _check_result(sch.mod)


def test_set_scope_errors():
    sch = tir.Schedule(_chain())
    with pytest.raises(ScheduleError, match="set_scope: buffer 'C' is not allocated by a block"):
        sch.set_scope(sch.get_block("C"), 0, "local")
    with pytest.raises(ScheduleError, match="set_scope: storage scope 'bogus' is invalid"):
        sch.set_scope(sch.get_block("B"), 0, "bogus")
    with pytest.raises(ScheduleError, match=r"buffer_index must be in \[0, 1\); got 3"):
        sch.set_scope(sch.get_block("B"), 3, "local")


def test_set_axis_separator_is_kept_on_the_buffer_and_refused_by_the_c_backend():
    sch = tir.Schedule(_chain())
    sch.set_axis_separator(sch.get_block("B"), 0, [1])
    text = sch.mod.script()
    assert "B = T.alloc_buffer((4, 16), axis_separators=[1])" in text
    last = str(sch.trace).splitlines()[-1]
    assert last == "sch.set_axis_separator(block=b0, buffer_index=0, axis_separators=[1])"
    c_block = sch.get(sch.get_block("C"))
    assert c_block.reads[0].buffer.axis_separators == (1,)
    with pytest.raises(ValueError, match=r"buffer 'B' has axis_separators \[1\]"):
        tvm.compile(sch.mod)
    # A parameter's buffer is changed in the function's signature too.
    sch = tir.Schedule(_chain())
    sch.set_axis_separator(sch.get_block("C"), ("read", 0), [1])
    assert "B = T.alloc_buffer((4, 16), axis_separators=[1])" in (sch.mod.script())
    sch.set_axis_separator(sch.get_block("C"), 0, [1])
    assert 'C: T.Buffer((4, 16), "float32", axis_separators=[1])' in sch.mod.script()


def test_set_axis_separator_errors():
    sch = tir.Schedule(_chain())
    block = sch.get_block("B")
    with pytest.raises(ScheduleError, match=r"must be increasing axes in \[1, 2\)"):
        sch.set_axis_separator(block, 0, [2])
    with pytest.raises(ScheduleError, match=r"set_axis_separator: block 'B' has 1 write buffers"):
        sch.set_axis_separator(block, 4, [1])
    with pytest.raises(TypeError, match="argument 'axis_separators' must be a list of ints"):
        sch.set_axis_separator(block, 0, 1)
