# TIR While loops: the node, its TVMScript form (`while cond:`), traversal, and C codegen.
import math

import numpy as np
import pytest
import tvm
import tvm.testing
from tvm import tir
from tvm.script import from_source
from tvm.script import tir as T
from tvm.tir.functor import StmtExprMutator, StmtExprVisitor, post_order_visit, substitute
from tvmscript_checks import assert_round_trip, rendered_error


@T.prim_func
def gcd(A: T.Buffer((8,), "int32"), B: T.Buffer((8,), "int32"), C: T.Buffer((8,), "int32")):
    for i in range(8):
        with T.block("C"):
            vi = T.axis.spatial(8, i)
            x = T.alloc_buffer((2,), "int32")
            x[0] = A[vi]
            x[1] = B[vi]
            while x[1] != 0:
                r = T.truncmod(x[0], x[1])
                x[0] = x[1]
                x[1] = r
            C[vi] = x[0]


GCD_TEXT = """# from tvm.script import tir as T

@T.prim_func
def gcd(A: T.Buffer((8,), "int32"), B: T.Buffer((8,), "int32"), C: T.Buffer((8,), "int32")):
    # with T.block("root"):
    for i in range(8):
        with T.block("C"):
            vi = T.axis.spatial(8, i)
            T.reads(A[vi], B[vi])
            T.writes(C[vi])
            x = T.alloc_buffer((2,), "int32")
            x[0] = A[vi]
            x[1] = B[vi]
            while x[1] != 0:
                r: T.int32 = T.truncmod(x[0], x[1])
                x[0] = x[1]
                x[1] = r
            C[vi] = x[0]"""


def _while_of(func):
    found = []
    post_order_visit(func.body, lambda n: found.append(n) if isinstance(n, tir.While) else None)
    return found


def test_while_parses_to_a_while_node_with_its_span():
    (loop,) = _while_of(gcd)
    assert isinstance(loop.condition, tir.NE) and loop.condition.dtype == "bool"
    assert isinstance(loop.body, tir.LetStmt) and loop.body.var.name == "r"
    assert loop.span is not None and loop.span.column == 13
    assert loop.span.line - gcd.span.line == 7


def test_while_prints_as_upstream_and_round_trips():
    assert_round_trip(gcd, GCD_TEXT)


def test_a_free_variable_in_the_condition_is_declared_before_it():
    n = tir.Var("n", "int32")
    stmt = tir.While(n < 10, tir.Evaluate(0))
    assert str(stmt) == "n = T.int32()\nwhile n < 10:\n    T.evaluate(0)"


def test_structural_equality_sees_condition_and_body():
    n = tir.Var("n", "int32")
    a = tir.While(n < 10, tir.Evaluate(0))
    assert tvm.ir.structural_equal(a, tir.While(n < 10, tir.Evaluate(0)))
    assert not tvm.ir.structural_equal(a, tir.While(n < 11, tir.Evaluate(0)))
    assert not tvm.ir.structural_equal(a, tir.While(n < 10, tir.Evaluate(1)))
    assert tvm.ir.structural_hash(a) != tvm.ir.structural_hash(tir.While(n < 11, tir.Evaluate(0)))
    with pytest.raises(ValueError, match=r"caused by lhs at <root>\.condition:"):
        tvm.ir.assert_structural_equal(a, tir.While(n <= 10, tir.Evaluate(0)))


def test_visitor_and_mutator_walk_condition_and_body():
    n, m = tir.Var("n", "int32"), tir.Var("m", "int32")
    stmt = tir.While(n < 10, tir.Evaluate(n + 1))
    seen = []

    class Vars(StmtExprVisitor):
        def visit_Var(self, v):
            seen.append(v)

    Vars().visit(stmt)
    assert seen == [n, n]

    class Rename(StmtExprMutator):
        def visit_Var(self, v):
            return m if v is n else v

    renamed = Rename().visit(stmt)
    assert isinstance(renamed, tir.While) and renamed.condition.a is m
    assert renamed.body.value.a is m
    assert StmtExprMutator().visit(stmt) is stmt  # nothing changed: the same node
    assert substitute(stmt, {n: 3}).condition.a.value == 3


def test_gcd_compiles_to_a_c_while_loop_and_matches_python():
    lib = tvm.compile(gcd, target="c")
    assert "while ((x[1] != 0)) {" in lib.inspect_source()
    rng = np.random.default_rng(0)
    a = rng.integers(1, 10_000, 8).astype("int32")
    b = rng.integers(0, 10_000, 8).astype("int32")
    c = tvm.runtime.tensor(np.zeros(8, "int32"))
    lib["gcd"](tvm.runtime.tensor(a), tvm.runtime.tensor(b), c)
    np.testing.assert_array_equal(c.numpy(), [math.gcd(int(x), int(y)) for x, y in zip(a, b)])


@T.prim_func
def steps(A: T.Buffer((4,), "int32"), n: T.int32):
    # A serial loop whose body is a while loop updating one element: the C code keeps that
    # element in a local across the for loop, and the while loop must see the local.
    for j in range(4):
        while A[0] < (j + 1) * n:
            A[0] = A[0] + 3
    i = T.alloc_buffer((1,), "int32")
    i[0] = 1
    while i[0] < 4:
        A[i[0]] = A[i[0] - 1] * 2
        i[0] = i[0] + 1


def _steps_reference(n):
    a = [0, 0, 0, 0]
    for j in range(4):
        while a[0] < (j + 1) * n:
            a[0] += 3
    for i in range(1, 4):
        a[i] = a[i - 1] * 2
    return a


@pytest.mark.parametrize("n", [0, 1, 10, 100])
def test_while_loops_in_and_after_a_for_loop_match_python(n):
    lib = tvm.compile(steps, target="c")
    a = tvm.runtime.tensor(np.zeros(4, "int32"))
    lib["steps"](a, n)
    np.testing.assert_array_equal(a.numpy(), _steps_reference(n))


def test_lowering_passes_keep_the_while_loop():
    mod = tvm.IRModule({"gcd": gcd})
    lowered = tvm.tir.transform.default_lowering()(mod)
    (loop,) = _while_of(lowered["gcd"])
    assert isinstance(loop.condition, tir.NE)
    text = lowered["gcd"].script()
    tvm.ir.assert_structural_equal(from_source(text), lowered["gcd"])


def test_the_while_constructor_checks_its_arguments():
    n = tir.Var("n", "int32")
    with pytest.raises(TypeError, match="While: expected a bool expression, got dtype int32"):
        tir.While(n, tir.Evaluate(0))
    with pytest.raises(TypeError, match="While: expected a scalar bool condition, got dtype"):
        tir.While(tir.Broadcast(n < 1, 4), tir.Evaluate(0))
    with pytest.raises(TypeError, match="While: expected a Stmt, got int"):
        tir.While(n < 1, 0)


HEAD = "from tvm.script import tir as T\n@T.prim_func\ndef f(n: T.int32):\n"


def _rendered(body: str) -> str:
    return rendered_error(HEAD + body)


def test_a_while_condition_that_is_not_bool_is_a_diagnostic():
    assert _rendered("    while n:\n        T.evaluate(0)\n") == (
        "error: a while condition must be a scalar bool expression such as i[0] < n, "
        "got dtype int32\n --> <string>:4:11\n   |\n 4 |     while n:\n   |           ^"
    )
    assert _rendered('    while "x":\n        T.evaluate(0)\n').startswith(
        "error: a while condition must be a scalar bool expression such as i[0] < n, got"
    )


def test_while_else_and_break_are_diagnostics():
    assert _rendered(
        "    while n < 3:\n        T.evaluate(0)\n    else:\n        T.evaluate(1)\n"
    ) == (
        "error: while ... else is not supported in TVMScript\n --> <string>:4:5\n   |\n"
        " 4 |     while n < 3:\n   |     ^^^^^^^^^^^^"
    )
    assert _rendered("    while n < 3:\n        break\n") == (
        "error: break is not supported in TVMScript TIR\n --> <string>:5:9\n   |\n"
        " 5 |         break\n   |         ^^^^^"
    )


if __name__ == "__main__":
    tvm.testing.main()
