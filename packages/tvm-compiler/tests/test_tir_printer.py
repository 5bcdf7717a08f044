# The TIR printer: operator precedence, literals, names made unique, statements and blocks.
import pytest
from tvm import te, tir
from tvm.ir.naming import NameTable
from tvm.tir import stmt as S

x, y = tir.Var("x", "int32"), tir.Var("y", "int32")


@pytest.mark.parametrize(
    "expr, text",
    [
        ((x + y) * (x - (y - 1)), "(x + y) * (x - (y - 1))"),
        (x - y - 1, "x - y - 1"),
        (x - (y - 1), "x - (y - 1)"),
        (x * (y + 2) // 3, "x * (y + 2) // 3"),
        (tir.And(x < y, tir.Or(x == 1, tir.Not(y > 2))), "x < y and (x == 1 or not y > 2)"),
        (tir.Min(x, y) + tir.Max(x, 2), "T.min(x, y) + T.max(x, 2)"),
        (tir.truncmod(x, y), "T.truncmod(x, y)"),
        (tir.Select(x < 1, x, y), "T.Select(x < 1, x, y)"),
        (tir.Let(x, 3, x + 1), "T.Let(x + 1, where={x: 3})"),
        (tir.Ramp(x, 1, 4), "T.Ramp(x, 1, 4)"),
        (tir.Broadcast(tir.const(1.0, "float32"), 8), "T.Broadcast(T.float32(1.0), 8)"),
    ],
)
def test_expressions_print_with_the_fewest_parentheses_that_keep_their_meaning(expr, text):
    assert str(expr) == text


@pytest.mark.parametrize(
    "value, text",
    [
        (tir.const(3, "int32"), "3"),
        (tir.const(3, "int64"), "T.int64(3)"),
        (tir.const(3, "int8"), "T.int8(3)"),
        (tir.const(2.5, "float32"), "T.float32(2.5)"),
        (tir.const(2.5, "float64"), "T.float64(2.5)"),
        (tir.const(True, "bool"), "T.bool(True)"),
        (tir.Cast("float16", x), 'T.Cast("float16", x)'),
    ],
)
def test_literals_name_their_dtype_unless_it_is_the_default(value, text):
    assert str(value) == text


def test_two_variables_with_one_name_print_apart_and_a_shared_table_keeps_names():
    other_x = tir.Var("x", "int32")
    assert str(x + other_x) == "x + x_1"
    names = NameTable()
    first = tir.printer._print(other_x + 1, names=names)
    second = tir.printer._print(x + other_x, names=names)
    assert (first, second) == ("x + 1", "x_1 + x")


def test_statements():
    i = tir.Var("i", "int32")
    buf = tir.decl_buffer((16,), "float32", name="buf")
    loop = S.For(
        i, 0, 16, S.ForKind.PARALLEL, tir.BufferStore(buf, tir.BufferLoad(buf, [i]) + 1.0, [i])
    )
    assert str(loop) == (
        "for i in T.parallel(16):\n"
        '    buf = T.Buffer((16,), "float32")\n'
        "    buf[i] = buf[i] + T.float32(1.0)"
    )
    branch = S.IfThenElse(x > 0, S.Evaluate(x), S.Evaluate(y))
    # Free variables are declared where first used, as upstream prints them.
    assert str(branch) == (
        "x = T.int32()\nif x > 0:\n    T.evaluate(x)\nelse:\n    y = T.int32()\n    T.evaluate(y)"
    )
    assert str(S.LetStmt(x, 5, S.Evaluate(x + 1))) == "x: T.int32 = 5\nT.evaluate(x + 1)"
    check = S.AssertStmt(x > 0, "x must be positive", S.Evaluate(0))
    assert str(check) == 'x = T.int32()\nassert x > 0, "x must be positive"\nT.evaluate(0)'


def test_loop_kinds_and_ranges_that_do_not_start_at_zero():
    i = tir.Var("i", "int32")
    texts = [
        str(S.For(i, lo, 4, kind, S.Evaluate(i))).splitlines()[0]
        for lo, kind in ((0, S.ForKind.SERIAL), (2, S.ForKind.VECTORIZED), (0, S.ForKind.UNROLLED))
    ]
    assert texts == [
        "for i in range(4):",
        "for i in T.vectorized(2, 6):",
        "for i in T.unroll(4):",
    ]


def test_reduction_block_with_init_and_axis_kinds():
    A = te.placeholder((8, 8), name="A")
    k = te.reduce_axis((0, 8), name="k")
    B = te.compute((8,), lambda i: te.sum(A[i, k], axis=k), name="B")
    assert (
        te.create_prim_func([A, B]).script()
        == """\
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8, 8), "float32"), B: T.Buffer((8,), "float32")):
    T.func_attr({"tir.noalias": True})
    # with T.block("root"):
    for i, k in T.grid(8, 8):
        with T.block("B"):
            v_i, v_k = T.axis.remap("SR", [i, k])
            T.reads(A[v_i, v_k])
            T.writes(B[v_i])
            with T.init():
                B[v_i] = T.float32(0.0)
            B[v_i] = B[v_i] + A[v_i, v_k]"""
    )


def test_symbolic_shapes_and_a_split_loop_print_their_predicate():
    n = tir.Var("n", "int32")
    A = te.placeholder((n,), name="A")
    B = te.compute((n,), lambda i: A[i] * 2.0, name="B")
    sch = tir.Schedule(te.create_prim_func([A, B]))
    (loop,) = sch.get_loops(sch.get_block("B"))
    sch.split(loop, [None, 4])
    text = sch.mod["main"].script()
    assert 'def main(A: T.Buffer(("n",), "float32"), B: T.Buffer((n,), "float32")):' in text
    assert "T.where(" in text and " * 4 + " in text
