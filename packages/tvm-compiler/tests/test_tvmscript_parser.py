# TVMScript TIR parsing: each construct builds the node upstream's parser builds, with spans.
import numpy as np
import pytest
import tvm
import tvm.testing
from tvm import tir
from tvm.script import ir as I
from tvm.script import tir as T
from tvm.tir import stmt as S


@I.ir_module
class AddModule:
    @T.prim_func
    def add(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
        for i in range(128):
            with T.block("B"):
                vi = T.axis.spatial(128, i)
                B[vi] = A[vi] + T.float32(1)


def test_the_issue_example_add_compiles_and_matches_numpy():
    func = AddModule["add"]
    assert func.attrs["global_symbol"] == "add"
    lib = tvm.compile(AddModule, target="c")
    a = np.arange(128, dtype="float32")
    b = np.zeros(128, dtype="float32")
    ta, tb = tvm.runtime.tensor(a), tvm.runtime.tensor(b)
    lib["add"](ta, tb)
    tvm.testing.assert_allclose(tb.numpy(), a + 1)


def test_a_block_without_reads_and_writes_gets_them_inferred():
    realize = AddModule["add"].body.block.body.body
    block = realize.block
    assert block.name_hint == "B" and [r.buffer.name for r in block.reads] == ["A"]
    assert [r.buffer.name for r in block.writes] == ["B"]


def test_spans_point_at_the_source_lines_and_columns():
    loop = AddModule["add"].body.block.body
    store = loop.body.block.body
    first = AddModule["add"].span.line
    assert (loop.span.line - first, loop.span.column) == (1, 9)
    assert (store.span.line - first, store.span.column) == (4, 17)
    assert store.value.span.column == 25 and store.span.source_name.name == __file__
    # Definitions carry the span of what defines them: a parameter, a loop target, an axis.
    (a_buf,) = [b for b in AddModule["add"].buffer_map.values() if b.name == "A"]
    assert (a_buf.span.line - first, a_buf.span.column, a_buf.span.end_column) == (0, 13, 43)
    assert (loop.loop_var.span.line - first, loop.loop_var.span.column) == (1, 13)
    block = loop.body.block
    assert (block.iter_vars[0].var.span.line - first, block.iter_vars[0].var.span.column) == (3, 17)


def test_private_functions_have_no_global_symbol_and_modules_hold_attrs():
    @I.ir_module
    class Mod:
        I.module_attrs({"system_lib_prefix": "x_"})

        @T.prim_func(private=True)
        def helper(a: T.handle, n: T.int32):
            T.evaluate(n)

        @T.prim_func
        def main(x: T.int32) -> T.int32:
            return x + 1

    assert Mod.attrs == {"system_lib_prefix": "x_"}
    assert "global_symbol" not in Mod["helper"].attrs
    assert Mod["main"].ret_type == "int32"
    assert isinstance(Mod["main"].body.value, tir.Call)


def test_module_functions_refer_to_each_other_by_module_and_cls():
    @I.ir_module
    class Mod:
        @T.prim_func
        def f():
            T.evaluate(0)

        @T.prim_func
        def g():
            cls = Mod
            T.func_attr({"callee": cls.f.name_hint, "same": Mod.f.name_hint})

    assert Mod["g"].attrs["callee"] == "f" and Mod["g"].attrs["same"] == "f"


def test_loop_kinds_grid_and_thread_binding():
    @T.prim_func
    def f(A: T.Buffer((4, 8), "float32")):
        for i in T.parallel(4):
            for j in T.vectorized(2, 6):
                A[i, j] = T.float32(0)
        for i, j in T.grid(4, 8):
            A[i, j] = T.float32(1)
        for t in T.thread_binding(4, thread="threadIdx.x"):
            for u in T.unroll(8):
                A[t, u] = T.float32(2)
        for s in T.serial(2, 4, annotations={"pragma": 1}):
            A[s, 0] = T.float32(3)

    par, grid, bound, annotated = f.body.seq
    assert par.kind == S.ForKind.PARALLEL and par.body.kind == S.ForKind.VECTORIZED
    assert (par.body.min.value, par.body.extent.value) == (2, 4)
    assert grid.body.extent.value == 8 and grid.body.kind == S.ForKind.SERIAL
    assert bound.thread_binding == "threadIdx.x" and bound.body.kind == S.ForKind.UNROLLED
    assert annotated.annotations == {"pragma": 1}


def test_blocks_with_remap_init_where_reads_writes_and_alloc_buffer():
    @T.prim_func
    def f(A: T.Buffer((8, 8), "float32"), B: T.Buffer((8,), "float32")):
        C = T.alloc_buffer((8,), scope="local")
        for i, k in T.grid(8, 8):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.where(i < 7)
                T.reads(A[vi, 0:8])
                T.writes(B[vi])
                T.block_attr({"note": "x"})
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi, vk]
        for i in range(8):
            with T.block("C"):
                vi = T.axis.spatial((0, 8), i)
                vk = T.axis.reduce(8, 0)
                C[vi] = B[vi]

    root = f.body.block
    assert [b.scope for b in root.alloc_buffers] == ["local"]
    block = root.body.seq[0].body.body.block
    assert [iv.is_reduce for iv in block.iter_vars] == [False, True]
    assert block.reads[0].region[1].extent.value == 8 and block.annotations == {"note": "x"}
    assert block.init is not None
    assert isinstance(root.body.seq[0].body.body.predicate, tir.LT)


def test_symbolic_shapes_match_buffer_and_decl_buffer():
    @T.prim_func
    def f(a: T.handle, b: T.handle):
        n = T.int32()
        A = T.match_buffer(a, (n,), "float32")
        B = T.match_buffer(b, (n * 2,), "int8")
        D = T.decl_buffer((4,), "int8")
        D[0] = T.int8(1)
        for i in range(n):
            B[i] = T.Cast("int8", A[i]) + D[0]

    (a, b) = f.params
    assert f.buffer_map[a].shape[0] is f.buffer_map[b].shape[0].a
    alloc = f.body
    assert isinstance(alloc, S.Allocate) and isinstance(alloc.body, S.DeclBuffer)


def test_expressions_scalars_and_intrinsics():
    @T.prim_func
    def f(A: T.Buffer((16,), "float32"), x: T.int32):
        y: T.int32 = x + 1
        A[0] = T.exp(A[1]) + T.sqrt(A[2]) + T.max(A[3], T.float32(0)) + T.min(A[4], A[5])
        A[1] = T.if_then_else(x > 1, T.float32(1), T.float32(2)) + T.Select(y < 2, A[2], A[3])
        A[2] = T.Cast("float32", T.Let(z * 2, where={z: x}))  # noqa: F821  (T.Let binds z)
        A[0:4] = T.Broadcast(T.float32(0), 4)
        A[T.Ramp(4, 1, 4)] = A[8:12]
        A[3] = T.call_pure_extern("float32", "fabsf", A[3])
        T.evaluate(T.call_extern("int32", "puts", "hi"))
        T.assume(x > 0)
        T.evaluate(T.prefetch(A[5]))
        if x > 3 and not x == 5:
            A[4] = T.float32(T.int64(2))
        else:
            A[4] = T.float16(1.5)
        assert x < 100, "x is small"
        T.evaluate(T.ret(T.int32(5)))

    let = f.body
    assert isinstance(let, S.LetStmt) and let.var.dtype == "int32"
    stores = let.body.seq
    assert isinstance(stores[2].value.value, tir.Let)
    assert isinstance(stores[3].indices[0], tir.Ramp) and stores[3].indices[0].lanes == 4
    assert isinstance(stores[4].value.indices[0], tir.Ramp)
    assert stores[6].value.op.name == "tir.call_extern"
    assert stores[7].value.op.name == "tir.assume"
    assert stores[8].value.op.name == "tir.prefetch"
    branch = stores[9]
    assert isinstance(branch, S.IfThenElse) and isinstance(branch.condition, tir.And)
    assert isinstance(stores[10], S.AssertStmt) and stores[10].message == "x is small"


def test_a_buffer_shape_may_be_a_bare_int():
    # T.Buffer(16, ...) is T.Buffer((16,), ...) (the module's T.bool once hid builtins.bool)
    @T.prim_func
    def f(a: T.Buffer(16, "float32"), b: T.Buffer((16,), "float32")):
        for i in range(16):
            b[i] = a[i]

    (a, b) = f.params
    assert [int(d) for d in f.buffer_map[a].shape] == [16]


def test_from_source_parses_text_with_its_imports():
    text = (
        "from tvm.script import tir as T\n\n"
        "@T.prim_func\n"
        'def f(A: T.Buffer((4,), "int32")):\n'
        "    for i in range(4):\n"
        "        A[i] = i * 2\n"
    )
    func = tvm.script.from_source(text)
    assert func.body.span.line == 5 and func.body.span.source_name.name == "<string>"
    assert func.attrs["global_symbol"] == "f"


def test_a_prim_func_can_be_parsed_twice_from_one_python_function():
    def kernel(A: T.Buffer((2,), "float32")):
        A[0] = T.float32(1)

    first, second = T.prim_func(kernel), T.prim_func(kernel)
    assert first is not second
    tvm.ir.assert_structural_equal(first, second)


def test_scalar_constructors_give_typed_constants_and_variables():
    from tvm.script.ir_builder import IRBuilder

    assert T.int64(3).dtype == "int64" and T.float32(1).value == 1.0
    assert T.bool(True).dtype == "bool" and T.float32("inf").value == float("inf")
    with IRBuilder():
        assert isinstance(T.int32(), tir.Var)
    with pytest.raises(ValueError, match="lanes must be an int of at least 2"):
        T.Ramp(0, 1, 1)


def test_a_loop_over_a_grid_may_bind_one_name_to_all_its_vars():
    # Upstream: `for ij in T.grid(m, n)` binds ij to the list of loop vars (T.axis.remap takes it).
    @T.prim_func
    def f(A: T.Buffer((4, 8), "float32"), B: T.Buffer((4, 8), "float32")):
        for ij in T.grid(4, 8):
            with T.block("B"):
                i, j = T.axis.remap("SS", ij)
                B[i, j] = A[i, j] * T.float32(2)

    @T.prim_func
    def g(A: T.Buffer((4, 8), "float32"), B: T.Buffer((4, 8), "float32")):
        for i0, j0 in T.grid(4, 8):
            with T.block("B"):
                i, j = T.axis.remap("SS", [i0, j0])
                B[i, j] = A[i, j] * T.float32(2)

    tvm.ir.assert_structural_equal(f.body, g.body, map_free_vars=True)


def test_a_buffer_shape_may_be_one_dimension_not_in_a_tuple():
    # Upstream: T.Buffer(T.int64(512), "float32") is a 1-D buffer of 512 (as T.Buffer(512)).
    @T.prim_func
    def f(A: T.Buffer(T.int64(512), "float32"), B: T.Buffer(16, "float32")):
        T.evaluate(0)

    assert [int(d) for d in f.buffer_map[f.params[0]].shape] == [512]
    assert [int(d) for d in f.buffer_map[f.params[1]].shape] == [16]
    with pytest.raises(tvm.error.DiagnosticError, match="shape must be a tuple"):

        @T.prim_func
        def bad(A: T.Buffer(True, "float32")):
            T.evaluate(0)
