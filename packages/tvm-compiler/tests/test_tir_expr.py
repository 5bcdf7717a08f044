# Tests of TIR expressions and statements: construction, dtype rules, operator overloads, errors.
import pytest
from tvm import tir


def test_operators_build_nodes_with_dtypes():
    i = tir.Var("i")
    e = i * 4 + 1
    assert isinstance(e, tir.Add) and isinstance(e.a, tir.Mul) and e.dtype == "int32"
    f = tir.Var("x", "float32") * 2
    assert f.dtype == "float32" and isinstance(f.b, tir.FloatImm)
    assert (i < 3).dtype == "bool"
    assert isinstance(i // 2, tir.FloorDiv) and isinstance(i % 2, tir.FloorMod)
    wide = i + tir.Var("n", "int64")
    assert wide.dtype == "int64" and isinstance(wide.a, tir.Cast)


def test_integer_constants_fold():
    assert (tir.const(6) * 7).value == 42
    assert (tir.const(-7) // 2).value == -4 and (tir.const(-7) % 2).value == 1
    assert tir.truncdiv(tir.const(-7), 2).value == -3
    with pytest.raises(ZeroDivisionError):
        tir.const(1) // 0


def test_var_identity_semantics():
    i, j = tir.Var("i"), tir.Var("i")
    assert bool(i == i) and not bool(i == j)
    assert {i: 1}[i] == 1 and j not in {i: 1}
    with pytest.raises(TypeError, match="Python bool"):
        bool(i < 3)


def test_constructor_errors_are_precise():
    with pytest.raises(ValueError, match="does not fit in int8"):
        tir.IntImm("int8", 300)
    buf = tir.decl_buffer((4, 4), "float32", name="A")
    with pytest.raises(ValueError, match="buffer 'A' has 2 dimensions, got 1 indices"):
        buf[0]
    with pytest.raises(TypeError, match="And: expected a bool expression"):
        tir.And(tir.Var("i"), True)
    with pytest.raises(TypeError, match="For: loop_var must be a Var"):
        tir.For(3, 0, 4, body=tir.Evaluate(0))
    with pytest.raises(ValueError, match="Buffer 'B': 1 strides for 2 dimensions"):
        tir.decl_buffer((2, 2), name="B", strides=[1])


def test_calls_and_builtins():
    x = tir.Var("x", "float32")
    c = tir.exp(x)
    assert c.op.name == "tir.exp" and c.dtype == "float32"
    ext = tir.call_extern("int32", "puts", tir.StringImm("hi"))
    assert ext.args[0].value == "puts"
    assert tir.call_effect(ext.op) == tir.CallEffectKind.OPAQUE
    assert tir.call_effect(tir.call_pure_extern("float32", "f", x).op) == tir.CallEffectKind.PURE
    assert tir.max_value("int8").value == 127 and tir.min_value("float32").value == float("-inf")


def test_statements_and_printing():
    a = tir.decl_buffer((4,), "float32", name="A")
    i = tir.Var("i")
    loop = tir.For(i, 0, 4, tir.ForKind.PARALLEL, tir.BufferStore(a, tir.const(1.0), [i]))
    text = str(loop)
    assert "for i in T.parallel(4):" in text and "A[i] = T.float32(1.0)" in text
    s = tir.seq(tir.Evaluate(0), tir.SeqStmt([tir.Evaluate(1), tir.Evaluate(2)]))
    assert len(s.seq) == 3
    assert tir.seq(loop) is loop
