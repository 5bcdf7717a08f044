# Tests of Schedule.cache_inplace and Schedule.reindex: the blocks and buffers they add, results
# after tvm.compile, and their errors.
import numpy as np
import pytest
import tvm
import tvm.s_tir
from tvm import te, tir
from tvm.error import ScheduleError
from tvm.tir import expr as E
from tvm.tir.analysis.access import block_access_regions
from tvm.tir.buffer import decl_buffer
from tvm.tir.function import PrimFunc
from tvm.tir.stmt import Block, BlockRealize, BufferStore, For, IterVar


def _in_place():
    """A[i, j] = A[i, j] + 1 over (4, 8): a block that reads and writes its argument."""
    a = decl_buffer((4, 8), "float32", name="A")
    vi, vj = IterVar(E.Range(0, 4), E.Var("vi", "int32")), IterVar(E.Range(0, 8), E.Var("vj"))
    body = BufferStore(a, a[vi.var, vj.var] + 1.0, [vi.var, vj.var])
    reads, writes = block_access_regions(body)
    i, j = E.Var("i", "int32"), E.Var("j", "int32")
    nest = For(
        i,
        0,
        4,
        body=For(
            j, 0, 8, body=BlockRealize([i, j], True, Block([vi, vj], reads, writes, "B", body))
        ),
    )
    root = BlockRealize([], True, Block([], [], [], "root", nest))
    handle = E.Var("A_handle", "handle")
    return PrimFunc([handle], root, buffer_map={handle: a})


def _transpose():
    a = te.placeholder((4, 8), name="A")
    b = te.compute((8, 4), lambda j, i: a[i, j] * 2.0, name="B")
    return te.create_prim_func([a, b])


def test_cache_inplace_copies_in_and_out_around_the_block():
    sch = tir.Schedule(_in_place())
    read, write = sch.cache_inplace(sch.get_block("B"), 0, "local")
    assert (read.name, write.name) == ("A_local", "A_local_1")
    assert sch.block_names() == ["A_local", "B", "A_local_1"]
    text = sch.mod.script()
    assert 'A_local = T.alloc_buffer((4, 8), scope="local")' in text
    assert "A_local[vi, vj] = A_local[vi, vj] + T.float32(1.0)" in text
    lines = str(sch.trace).splitlines()
    assert lines[-1] == (
        "b1, b2 = sch.cache_inplace(block=b0, read_buffer_index=0, storage_scope='local')"
    )
    x = np.random.default_rng(0).random((4, 8), dtype="float32")
    y = x.copy()
    tvm.compile(sch.mod)(y)
    np.testing.assert_allclose(y, x + 1)


def test_cache_inplace_errors():
    sch = tir.Schedule(_transpose())
    with pytest.raises(ScheduleError, match="cache_inplace: block 'B' does not both read and"):
        sch.cache_inplace(sch.get_block("B"), 0, "local")
    with pytest.raises(ScheduleError, match="read_buffer_index 2 is out of range"):
        sch.cache_inplace(sch.get_block("B"), 2, "local")
    with pytest.raises(ScheduleError, match="cache_inplace: storage_scope must be"):
        sch.cache_inplace(sch.get_block("B"), 0, "bogus")


@pytest.mark.parametrize("buffer", [("read", 0), ("write", 0), "A"])
def test_reindex_indexes_the_copy_by_the_block_iterators(buffer):
    sch = tvm.s_tir.Schedule(_transpose())
    rv = sch.reindex(sch.get_sblock("B"), buffer)
    name = "B" if buffer == ("write", 0) else "A"
    assert rv.name == f"{name}_reindex"
    text = sch.mod.script()
    assert f"{name}_reindex = T.alloc_buffer((8, 4))" in text
    if name == "A":
        assert sch.block_names() == ["A_reindex", "B"]
        assert "A_reindex[v0, v1] = A[v1, v0]" in text
        assert "B[v_j, v_i] = A_reindex[v_j, v_i] * T.float32(2.0)" in text
    else:
        assert sch.block_names() == ["B", "B_reindex"]
        assert "B_reindex[v_j, v_i] = A[v_i, v_j] * T.float32(2.0)" in text
        assert "B[v0, v1] = B_reindex[v0, v1]" in text
    assert str(sch.trace).splitlines()[-1] == f"b1 = sch.reindex(block=b0, buffer={buffer!r})"
    x = np.random.default_rng(0).random((4, 8), dtype="float32")
    y = np.zeros((8, 4), "float32")
    tvm.compile(sch.mod)(x, y)
    np.testing.assert_allclose(y, x.T * 2)


def test_reindex_errors():
    sch = tir.Schedule(_transpose())
    block = sch.get_block("B")
    with pytest.raises(ScheduleError, match="block 'B' has 1 read buffers; index 3 is out of"):
        sch.reindex(block, ("read", 3))
    with pytest.raises(ScheduleError, match="the buffer kind must be 'read' or 'write'"):
        sch.reindex(block, ("bogus", 0))
    with pytest.raises(ScheduleError, match="block 'B' accesses no buffer 'Z'"):
        sch.reindex(block, "Z")
    with pytest.raises(TypeError, match="reindex: argument 'buffer' must be"):
        sch.reindex(block, 0)
