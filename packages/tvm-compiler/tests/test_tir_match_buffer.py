# T.match_buffer of a buffer region in a block: a view (tir.MatchBufferRegion), its TVMScript
# form, the access regions it implies, and LowerMatchBuffer, which compiles it.
import numpy as np
import pytest
import tvm
import tvm.testing
from tvm import tir
from tvm.script import tir as T
from tvmscript_checks import assert_round_trip, rendered_error


@T.prim_func
def tiles(A: T.Buffer((8, 8), "float32"), C: T.Buffer((8, 8), "float32")):
    for i, j in T.grid(2, 2):
        with T.block("tile"):
            vi, vj = T.axis.remap("SS", [i, j])
            A_sub = T.match_buffer(
                A[vi * 4 : vi * 4 + 4, vj * 4 : vj * 4 + 4], (4, 4), offset_factor=1
            )
            C_sub = T.match_buffer(
                C[vi * 4 : vi * 4 + 4, vj * 4 : vj * 4 + 4], (4, 4), offset_factor=1
            )
            for ii, jj in T.grid(4, 4):
                C_sub[ii, jj] = A_sub[ii, jj] + T.float32(1)


TILES_TEXT = """# from tvm.script import tir as T

@T.prim_func
def tiles(A: T.Buffer((8, 8), "float32"), C: T.Buffer((8, 8), "float32")):
    # with T.block("root"):
    for i, j in T.grid(2, 2):
        with T.block("tile"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A[vi * 4:vi * 4 + 4, vj * 4:vj * 4 + 4])
            T.writes(C[vi * 4:vi * 4 + 4, vj * 4:vj * 4 + 4])
            A_sub = T.match_buffer(A[vi * 4:vi * 4 + 4, vj * 4:vj * 4 + 4], (4, 4), offset_factor=1)
            C_sub = T.match_buffer(C[vi * 4:vi * 4 + 4, vj * 4:vj * 4 + 4], (4, 4), offset_factor=1)
            for ii, jj in T.grid(4, 4):
                C_sub[ii, jj] = A_sub[ii, jj] + T.float32(1.0)"""


@T.prim_func
def rows(A: T.Buffer((4, 4), "float32"), B: T.Buffer((4, 4), "float32")):
    for i in range(4):
        with T.block("row"):
            vi = T.axis.spatial(4, i)
            T.reads(A[vi, 0:4])
            T.writes(B[vi, 0:4])
            A_sub = T.match_buffer(A[vi, 0:4], (4,), offset_factor=1)
            B_sub = T.match_buffer(B[vi, 0:4], (4,), offset_factor=1)
            for j in range(4):
                B_sub[j] = A_sub[3 - j] * T.float32(2)


def _block(func, name):
    found = []
    tir.functor.post_order_visit(
        func.body, lambda n: found.append(n) if isinstance(n, tir.Block) else None
    )
    return next(b for b in found if b.name_hint == name)


def test_a_region_match_buffer_is_a_view_of_the_block():
    block = _block(tiles, "tile")
    a_view, c_view = block.match_buffers
    assert isinstance(a_view, tir.MatchBufferRegion)
    assert a_view.buffer.name == "A_sub" and a_view.source.buffer.name == "A"
    assert [int(d) for d in (e.value for e in a_view.buffer.shape)] == [4, 4]
    assert [r.extent.value for r in a_view.source.region] == [4, 4]
    # offset_factor=1: the view's element offset is a variable the lowering binds.
    assert isinstance(a_view.buffer.elem_offset, tir.Var)
    # Without T.reads/T.writes, the accesses through the views count as the whole regions.
    assert [r.buffer.name for r in block.reads] == ["A"] and [
        r.buffer.name for r in block.writes
    ] == ["C"]
    tvm.ir.assert_structural_equal(block.reads[0], a_view.source)


def test_match_buffer_prints_as_upstream_and_round_trips():
    assert_round_trip(tiles, TILES_TEXT)


def test_the_view_and_its_region_take_part_in_structural_equality():
    text = rows.script()
    assert tvm.ir.structural_equal(rows, tvm.script.from_source(text))
    for old, new in [
        ("T.match_buffer(A[vi, 0:4]", "T.match_buffer(A[3 - vi, 0:4]"),
        ("A[vi, 0:4], (4,)", 'A[vi, 0:4], (4,), scope="x"'),
    ]:
        assert old in text
        changed = tvm.script.from_source(text.replace(old, new))
        assert not tvm.ir.structural_equal(rows, changed)
        assert tvm.ir.structural_hash(rows) != tvm.ir.structural_hash(changed)


def test_lower_match_buffer_reads_and_writes_the_viewed_buffers():
    lowered = tvm.tir.transform.LowerMatchBuffer()(tvm.IRModule({"rows": rows}))["rows"]
    block = _block(lowered, "row")
    assert block.match_buffers == ()
    store = block.body.body
    assert store.buffer.name == "B" and store.value.a.buffer.name == "A"
    assert "B[vi, j] = A[vi, 3 - j] * T.float32(2.0)" in lowered.script()


def _plain():
    @T.prim_func
    def plain(A: T.Buffer((4,), "float32")):
        for i in range(4):
            A[i] = T.float32(0)

    return plain


def test_a_function_without_views_comes_back_as_itself():
    func = _plain()
    assert tvm.tir.transform.LowerMatchBuffer()(tvm.IRModule({"p": func}))["p"] is func


@pytest.mark.parametrize(
    "func, reference",
    [
        (tiles, lambda a: a + 1),
        (rows, lambda a: a[:, ::-1] * 2),
    ],
)
def test_views_compile_and_match_numpy(func, reference):
    lib = tvm.compile(func, target="c")
    shape = tuple(int(d.value) for d in func.buffer_map[func.params[0]].shape)
    a = np.arange(np.prod(shape), dtype="float32").reshape(shape)
    out = tvm.runtime.tensor(np.zeros(shape, "float32"))
    lib[func.attrs["global_symbol"]](tvm.runtime.tensor(a), out)
    np.testing.assert_array_equal(out.numpy(), reference(a))


def test_a_view_of_a_view_reaches_the_outer_buffer():
    @T.prim_func
    def nested(A: T.Buffer((4, 4), "float32")):
        for i in range(4):
            with T.block("outer"):
                vi = T.axis.spatial(4, i)
                row = T.match_buffer(A[vi, 0:4], (4,), offset_factor=1)
                with T.block("inner"):
                    T.reads()
                    T.writes(row[2:4])
                    pair = T.match_buffer(row[2:4], (2,), offset_factor=1)
                    pair[0] = T.float32(1)
                    pair[1] = T.Cast("float32", vi)

    out = tvm.runtime.tensor(np.zeros((4, 4), "float32"))
    tvm.compile(nested, target="c")["nested"](out)
    expected = np.zeros((4, 4), "float32")
    expected[:, 2] = 1
    expected[:, 3] = np.arange(4)
    np.testing.assert_array_equal(out.numpy(), expected)


def test_a_view_with_a_constant_offset_that_the_region_does_not_start_at_is_refused():
    # As upstream: without offset_factor the view's element offset is 0, which row vi of A
    # only meets for vi == 0.
    @T.prim_func
    def fixed(A: T.Buffer((4, 4), "float32"), B: T.Buffer((4, 4), "float32")):
        for i in range(4):
            with T.block("b"):
                vi = T.axis.spatial(4, i)
                A_sub = T.match_buffer(A[vi, 0:4], (4,))
                for j in range(4):
                    B[vi, j] = A_sub[j]

    with pytest.raises(
        tvm.error.InternalError,
        match=r"constraint for A_sub.elem_offset unmet: 0 == vi \* 4 \(a view whose offset",
    ):
        tvm.compile(fixed, target="c")


def test_a_view_of_another_dtype_is_refused_when_lowered():
    @T.prim_func
    def wrong(A: T.Buffer((4, 4), "int32"), B: T.Buffer((4, 4), "int32")):
        for i in range(4):
            with T.block("b"):
                vi = T.axis.spatial(4, i)
                A_sub = T.match_buffer(A[vi, 0:4], (4,), offset_factor=1)  # float32 by default
                for j in range(4):
                    B[vi, j] = T.Cast("int32", A_sub[j])

    with pytest.raises(
        tvm.error.InternalError, match="view 'A_sub' has dtype float32, the buffer 'A'"
    ):
        tvm.tir.transform.LowerMatchBuffer()(tvm.IRModule({"w": wrong}))


def test_shape_defaults_to_the_region_and_dtype_to_the_buffer():
    @T.prim_func
    def implied(A: T.Buffer((4, 4), "int32")):
        for i in range(4):
            with T.block("b"):
                vi = T.axis.spatial(4, i)
                A_sub = T.match_buffer(A[vi, 1:3])
                A_sub[0, 1] = 7

    view = _block(implied, "b").match_buffers[0].buffer
    assert view.dtype == "int32" and [d.value for d in view.shape] == [1, 2]


HEAD = 'from tvm.script import tir as T\n@T.prim_func\ndef f(A: T.Buffer((4, 4), "float32")):\n'


def test_bad_region_match_buffers_are_diagnostics():
    assert rendered_error(HEAD + "    A_sub = T.match_buffer(A[0, 0:4], (4,))\n") == (
        "error: T.match_buffer of a buffer region must be inside a `with T.block(...)`\n"
        " --> <string>:4:13\n   |\n 4 |     A_sub = T.match_buffer(A[0, 0:4], (4,))\n"
        "   |             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"
    )
    body = '    with T.block("b"):\n        A_sub = T.match_buffer(A[0, 0:4], (4, 4, 4))\n'
    assert rendered_error(HEAD + body).startswith(
        "error: T.match_buffer: MatchBufferRegion: buffer 'A_sub' has 3 dimensions, more than "
        "the 2 of its source region\n"
    )


def test_a_view_dropping_a_dimension_of_extent_2_or_outside_its_buffer_is_refused():
    # The 2 x 4 region viewed as (4,) compiled to writes of the first row only, and a
    # region past the buffer's end wrote out of bounds.
    body = '    with T.block("b"):\n        A_sub = T.match_buffer(A[0:2, 0:4], (4,))\n'
    assert rendered_error(HEAD + body).startswith(
        "error: T.match_buffer: MatchBufferRegion: buffer 'A_sub' has 1 dimensions and drops "
        "dimension 0 of its source region, which must have extent 1, got 2\n"
    )
    for region, dim, covered in [("A[2:6, 0:4]", 0, "[2, 6)"), ("A[0:4, -1:3]", 1, "[-1, 3)")]:
        body = f'    with T.block("b"):\n        A_sub = T.match_buffer({region}, (4, 4))\n'
        assert rendered_error(HEAD + body).startswith(
            f"error: T.match_buffer: MatchBufferRegion: the region of 'A' that 'A_sub' views "
            f"covers {covered} in dimension {dim}, outside its extent 4\n"
        )
    a = tir.decl_buffer((4, 4), "float32", name="A")
    view = tir.decl_buffer((4,), "float32", name="A_sub")
    with pytest.raises(ValueError, match="drops dimension 0 of its source region"):
        rows = [tvm.ir.Range.from_min_extent(0, 2), tvm.ir.Range.from_min_extent(0, 4)]
        tir.MatchBufferRegion(view, tir.BufferRegion(a, rows))


if __name__ == "__main__":
    tvm.testing.main()
