# Tests of the traversal layer (tvm.ir.functor): namespaced dispatch, declared children, rebuilds.
import pytest
from tvm import tir
from tvm.ir.functor import NodeMutator, NodeVisitor
from tvm.ir.naming import NameTable
from tvm.ir.node import Node
from tvm.tir.functor import StmtExprMutator, StmtExprVisitor, post_order_visit, substitute
from tvm.tir.schedule.tree import children


class _OtherVar(Node):
    """A `Var` of another IR: same class name, another namespace."""

    _key_namespace = "other"
    _type_key = "other.Var"
    _fields = ("name",)

    def __init__(self, name):
        self._set(name=name)


def test_type_keys_are_namespaced():
    assert tir.Var("x")._type_key == "tir.Var"
    assert tir.Add(tir.Var("x"), 1)._type_key == "tir.Add"
    assert _OtherVar("x")._type_key == "other.Var"


def test_a_tir_visitor_does_not_catch_another_irs_var():
    seen = []

    class Collect(StmtExprVisitor):
        def visit_Var(self, var):
            seen.append(var)

    x = tir.Var("x")
    Collect().visit(tir.Evaluate(x + 1))
    Collect().visit(_OtherVar("y"))
    assert seen == [x]


def test_dispatch_falls_back_to_the_base_class_key():
    seen = []

    class Collect(StmtExprVisitor):
        def visit_Var(self, var):
            seen.append(var.name)

        def visit_BinaryOpExpr(self, op):
            seen.append(type(op).__name__)
            self.generic_visit(op)

    n = tir.SizeVar("n")
    Collect().visit(tir.Mul(n, 2) < 8)
    assert seen == ["LT", "Mul", "n"]


def test_buffers_are_declared_unvisited_fields():
    buf = tir.decl_buffer((4,), "float32", name="A")
    i = tir.Var("i")
    load = tir.BufferLoad(buf, [i])
    assert tir.BufferLoad._visit_fields() == ("indices",)
    visited = []
    post_order_visit(load, visited.append)
    ids = {id(n) for n in visited}  # identity: == on expressions builds a comparison
    assert id(buf) not in ids and id(buf.data) not in ids and id(i) in ids
    with_buffers = []
    post_order_visit(load, with_buffers.append, visit_buffers=True)
    assert any(n is buf for n in with_buffers)


def test_mutator_rebuild_runs_the_constructor_checks():
    # Substituting an int into And's operands must fail as tir.And(x, x) itself fails.
    b = tir.Var("b", "bool")
    both = tir.And(b, b)
    with pytest.raises((TypeError, ValueError), match="bool"):
        tir.And(tir.Var("x", "int32"), tir.Var("x", "int32"))
    with pytest.raises((TypeError, ValueError), match="bool"):
        substitute(both, {b: tir.Var("x", "int32")})


def test_mutator_rederives_dtypes_and_keeps_unchanged_subtrees():
    x = tir.Var("x", "int32")
    expr = (x + 1) * 2
    assert substitute(expr, {tir.Var("unused"): 3}) is expr
    widened = substitute(expr, {x: tir.Var("y", "int64")})
    assert widened.dtype == "int64" and widened.a.dtype == "int64"

    class Identity(StmtExprMutator):
        pass

    stmt = tir.Evaluate(expr)
    assert Identity().visit(stmt) is stmt


def test_generic_functors_serve_any_namespace():
    class OtherVisitor(NodeVisitor):
        namespace = "other"

        def visit_Var(self, var):
            names.append(var.name)

    class OtherMutator(NodeMutator):
        namespace = "other"

    names = []
    OtherVisitor().visit(_OtherVar("z"))
    OtherVisitor().visit(tir.Var("t"))  # a tir.Var is not an other.Var
    assert names == ["z"]
    node = _OtherVar("z")
    assert OtherMutator().visit(node) is node


def test_schedule_tree_children_come_from_declared_fields():
    i = tir.Var("i")
    body = tir.Evaluate(i)
    loop = tir.For(i, 0, 4, tir.ForKind.SERIAL, body)
    cond = tir.IfThenElse(i < 2, body, loop)
    assert list(children(loop)) == [body]
    assert list(children(cond)) == [body, loop]
    assert list(children(tir.SeqStmt([body, loop]))) == [body, loop]
    assert list(children(body)) == []


def test_name_table_gives_one_unique_name_per_object():
    names = NameTable()
    x1, x2 = tir.Var("x"), tir.Var("x")
    assert names.name(x1) == "x" and names.name(x2) == "x_1" and names.name(x1) == "x"
    names.reserve("y")
    assert names.name(tir.Var("y")) == "y_1"
    buf = tir.decl_buffer((4,), name="A")
    assert names.name(buf, key=buf.data) == names.name(tir.Var("other"), key=buf.data)


def test_a_statement_replaced_by_a_sequence_leaves_one_flat_sequence():
    # A nested SeqStmt prints flat, so it would parse back as another node: a mutator that
    # turns one statement of a sequence into two must leave one sequence of three.
    from tvm.tir.functor import stmt_transform

    buf = tir.decl_buffer((4,), "float32", "A")
    stores = [tir.BufferStore(buf, tir.const(float(i), "float32"), [i]) for i in range(2)]
    loop = tir.For(tir.Var("i", "int32"), 0, 4, tir.ForKind.SERIAL, stores[1])
    seq = tir.SeqStmt([stores[0], loop])

    def split_first(node):
        if node is stores[0]:
            return tir.SeqStmt([node, node])
        return None

    out = stmt_transform(seq, split_first)
    assert isinstance(out, tir.SeqStmt) and len(out.seq) == 3
    assert not any(isinstance(s, tir.SeqStmt) for s in out.seq)
    assert len(seq.with_fields(seq=[tir.SeqStmt([stores[0], stores[1]]), loop]).seq) == 3


def test_stmt_functor_ir_transform_replaces_the_enabled_node_types_only():
    from tvm import tir
    from tvm.script import tir as T

    @T.prim_func
    def func(A: T.Buffer((4,), "float32")):
        for i in range(4):
            A[i] = A[i] + T.float32(1)

    seen = []
    tir.stmt_functor.post_order_visit(func.body, lambda n: seen.append(type(n).__name__))
    assert seen.count("For") == 1 and "BufferStore" in seen

    def unroll(node):
        return node.with_fields(kind=tir.ForKind.UNROLLED)

    body = tir.stmt_functor.ir_transform(func.body, None, unroll, ["tir.For"])
    assert body.kind == tir.ForKind.UNROLLED and func.body.kind == tir.ForKind.SERIAL
    # A disabled type is left to the default rebuild.
    same = tir.stmt_functor.ir_transform(func.body, None, unroll, ["tir.While"])
    assert same.kind == tir.ForKind.SERIAL
    # preorder's result replaces the node without visiting its children.
    stop = tir.stmt_functor.ir_transform(func.body, lambda n: tir.Evaluate(0), None, ["tir.For"])
    assert isinstance(stop, tir.Evaluate)
