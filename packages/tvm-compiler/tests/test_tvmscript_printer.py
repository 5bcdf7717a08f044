# The TIR printer's exact text, in upstream's TVMScript form, and that the text parses back.
import pytest
import tvm
from test_tvmscript_parser import AddModule
from tvm import te, tir
from tvm.script import from_source
from tvm.script import tir as T


def _round_trips(node):
    text = node.script()
    again = from_source(text)
    tvm.ir.assert_structural_equal(node, again)
    assert again.script() == text
    return text


def test_a_module_prints_with_both_headers_and_parses_back():
    Module = AddModule
    assert _round_trips(Module) == (
        "# from tvm.script import ir as I\n"
        "# from tvm.script import tir as T\n"
        "\n"
        "@I.ir_module\n"
        "class Module:\n"
        "    @T.prim_func\n"
        '    def add(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):\n'
        '        # with T.block("root"):\n'
        "        for i in range(128):\n"
        '            with T.block("B"):\n'
        "                vi = T.axis.spatial(128, i)\n"
        "                T.reads(A[vi])\n"
        "                T.writes(B[vi])\n"
        "                B[vi] = A[vi] + T.float32(1.0)"
    )
    assert str(Module) == Module.script()


def test_symbolic_shapes_print_as_upstream_with_a_string_first_use():
    n = te.var("n")
    A = te.placeholder((n,), name="A", dtype="int8")
    B = te.compute((n,), lambda i: A[i] * tir.const(2, "int8"), name="B")
    assert _round_trips(te.create_prim_func([A, B])) == (
        "# from tvm.script import tir as T\n"
        "\n"
        "@T.prim_func\n"
        'def main(A: T.Buffer(("n",), "int8"), B: T.Buffer((n,), "int8")):\n'
        "    n = T.int32()\n"
        '    T.func_attr({"tir.noalias": True})\n'
        '    # with T.block("root"):\n'
        "    for i in range(n):\n"
        '        with T.block("B"):\n'
        "            v_i = T.axis.spatial(n, i)\n"
        "            T.reads(A[v_i])\n"
        "            T.writes(B[v_i])\n"
        "            B[v_i] = A[v_i] * T.int8(2)"
    )


def test_statements_and_expressions_of_every_kind_print_and_parse_back():
    @T.prim_func(private=True)
    def f(a: T.handle, x: T.int32, C: T.Buffer((4, 4), "int64")):
        A = T.match_buffer(a, (4, 4), strides=(8, 1))
        X = T.alloc_buffer((4, 4), scope="local")
        for i in T.parallel(2, 6):
            for j in T.vectorized(4):
                C[i - 2, j] = T.int64(0)
        for t in T.thread_binding(32, thread="threadIdx.x"):  # noqa: B007
            C[0, 0] = T.Select(x > 1, T.int64(1), T.int64(2)) + T.max(T.int64(x), T.int64(2))
        y: T.int32 = 5
        if y > 3 and y < 10 or not y == 2:
            T.call_extern("int32", "foo", y, T.float32(1.5), T.float64(2.0), T.bool(True))
        else:
            T.evaluate(0)
        assert x > 0, "x must be positive"
        D = T.decl_buffer((16,))
        D[0] = T.exp(A[0, 0]) + T.if_then_else(x > 1, T.float32(1), X[0, 0])
        D[0:4] = T.Broadcast(T.float32(0), 4)
        D[1] = T.Cast("float32", x // 2 + T.Div(x, 3) + T.truncmod(x, 3) + (x + 1) * 2)
        D[2] = T.Cast("float32", T.Let(z * 2, where={z: x}))  # noqa: F821  (T.Let binds z)
        T.evaluate(T.prefetch(D[3]))

    assert _round_trips(f) == (
        "# from tvm.script import tir as T\n"
        "\n"
        "@T.prim_func(private=True)\n"
        'def main(a: T.handle, x: T.int32, C: T.Buffer((4, 4), "int64")):\n'
        "    A = T.match_buffer(a, (4, 4), strides=(8, 1))\n"
        '    # with T.block("root"):\n'
        '    X = T.alloc_buffer((4, 4), scope="local")\n'
        "    for i in T.parallel(2, 6):\n"
        "        for j in T.vectorized(4):\n"
        "            C[i - 2, j] = T.int64(0)\n"
        '    for t in T.thread_binding(32, thread="threadIdx.x"):\n'
        "        C[0, 0] = T.Select(x > 1, T.int64(1), T.int64(2))"
        ' + T.max(T.Cast("int64", x), T.int64(2))\n'
        "    y: T.int32 = 5\n"
        "    if y > 3 and y < 10 or not y == 2:\n"
        '        T.call_extern("int32", "foo", y, T.float32(1.5), T.float64(2.0), T.bool(True))\n'
        "    else:\n"
        "        T.evaluate(0)\n"
        '    assert x > 0, "x must be positive"\n'
        "    D = T.decl_buffer((16,))\n"
        "    D[0] = T.exp(A[0, 0]) + T.if_then_else(x > 1, T.float32(1.0), X[0, 0])\n"
        "    D[0:4] = T.Broadcast(T.float32(0.0), 4)\n"
        '    D[1] = T.Cast("float32", x // 2 + T.Div(x, 3) + T.truncmod(x, 3) + (x + 1) * 2)\n'
        '    D[2] = T.Cast("float32", T.Let(z * 2, where={z: x}))\n'
        "    T.prefetch(D[3])"
    )


def test_a_block_with_init_where_attrs_and_a_reduction_prints_every_part():
    @T.prim_func
    def f(A: T.Buffer((8, 8), "float32"), B: T.Buffer((8,), "float32")):
        for i in range(8):
            for k in T.serial(8, annotations={"pragma_unroll": 1}):
                with T.block("B"):
                    vi = T.axis.spatial(8, i)
                    vk = T.axis.reduce((1, 8), k)
                    T.where(k > 0)
                    T.block_attr({"tag": "r"})
                    with T.init():
                        B[vi] = T.float32(0)
                    B[vi] = B[vi] + A[vi, vk]

    text = _round_trips(f)
    assert text.splitlines()[4:] == [
        '    # with T.block("root"):',
        "    for i in range(8):",
        '        for k in T.serial(0, 8, annotations={"pragma_unroll": 1}):',
        '            with T.block("B"):',
        "                vi = T.axis.spatial(8, i)",
        "                vk = T.axis.reduce((1, 8), k)",
        "                T.where(k > 0)",
        "                T.reads(A[vi, vk])",
        "                T.writes(B[vi])",
        '                T.block_attr({"tag": "r"})',
        "                with T.init():",
        "                    B[vi] = T.float32(0.0)",
        "                B[vi] = B[vi] + A[vi, vk]",
    ]


def test_lowered_functions_declare_their_flattened_views():
    A = te.placeholder((4, 4), name="A")
    B = te.compute((4, 4), lambda i, j: A[i, j] + 1.0, name="B")
    lowered = tvm.driver.lower(te.create_prim_func([A, B]))
    text = _round_trips(lowered["main"])
    assert '    A_1 = T.Buffer((16,), "float32", data=A.data)\n' in text


def test_an_op_on_two_constants_prints_as_its_node_so_parsing_does_not_fold_it():
    # `0 * 16` and `0 == 0` would be Python arithmetic while parsing (the `if` would even
    # pick its branch then); schedule primitives build such nodes (blockize's 0 * 16 + k).
    a = tir.decl_buffer((16,), "float32", name="A")
    i, handle = tir.Var("i", "int32"), tir.Var("A_h", "handle")
    index = tir.Mul(tir.const(0), tir.const(16)) + i
    store = tir.BufferStore(a, tir.const(1.0), [index])
    cond = tir.And(tir.EQ(tir.const(0), tir.const(0)), tir.LT(tir.const(1.5), tir.const(2.5)))
    body = tir.For(i, 0, 16, tir.ForKind.SERIAL, tir.IfThenElse(cond, store, None))
    text = _round_trips(tir.PrimFunc([handle], body, buffer_map={handle: a}))
    assert "        if T.EQ(0, 0) and T.LT(T.float32(1.5), T.float32(2.5)):\n" in text
    assert "            A[T.Mul(0, 16) + i] = T.float32(1.0)" in text


def test_a_zero_dim_buffer_element_prints_as_an_empty_tuple_index():
    a = te.placeholder((), name="A")
    b = te.compute((4,), lambda i: a[()] * 2.0, name="B")
    text = _round_trips(te.create_prim_func([a, b]))
    assert "            T.reads(A[()])\n" in text
    assert "            B[v_i] = A[()] * T.float32(2.0)" in text


def test_a_buffer_shape_may_use_a_scalar_parameter_that_comes_after_it():
    n = tir.Var("n", "int32")
    a = tir.decl_buffer((n + 1,), "float32", name="A")
    handle = tir.Var("A_h", "handle")
    i = tir.Var("i", "int32")
    body = tir.For(i, 0, n + 1, tir.ForKind.SERIAL, tir.BufferStore(a, tir.const(0.0), [i]))
    text = _round_trips(tir.PrimFunc([handle, n], body, buffer_map={handle: a}))
    assert 'def main(A: T.Buffer((n + 1,), "float32"), n: T.int32):' in text


def test_script_options_rename_the_dialect_prefixes_as_upstream():
    text = AddModule.script(tir_prefix="tir", ir_prefix="ir")
    assert text.startswith("# from tvm.script import ir as ir\n# from tvm.script import tir as tir")
    assert '            with tir.block("B"):\n' in text and "vi = tir.axis.spatial(128, i)" in text
    assert "@ir.ir_module" in text and "T." not in text
    values = {"ir": tvm.script.ir, "tir": T}
    tvm.ir.assert_structural_equal(from_source(text, extra_vars=values), AddModule)
    func = AddModule["add"]
    assert func.script(show_meta=True) == func.script()
    assert func.script(tir_prefix="T") == func.script()


def test_an_unknown_script_option_is_a_type_error_naming_it():
    with pytest.raises(TypeError, match=r"PrimFunc.script: unexpected option 'colour'"):
        AddModule["add"].script(colour=True)
    with pytest.raises(TypeError, match="tir_prefix must be an identifier, got 'a b'"):
        AddModule.script(tir_prefix="a b")
