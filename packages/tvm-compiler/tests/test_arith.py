# Tests of tvm.arith: bounds, canonical linear forms and the simplifier on index expressions.
from tvm import arith, tir
from tvm.ir import structural_equal


def _analyzer(**ranges):
    ana = arith.Analyzer()
    made = {}
    for name, extent in ranges.items():
        v = tir.Var(name)
        ana.bind(v, tir.Range(0, extent))
        made[name] = v
    return ana, made


def test_constant_folding_and_linear_canonical_form():
    ana, v = _analyzer(i=10, j=32)
    i, j = v["i"], v["j"]
    assert ana.simplify(tir.Add(tir.const(2), tir.const(3))).value == 5
    lhs = ana.simplify(j + i * 32 + 3 - 3)
    rhs = ana.simplify(i * 32 + j)
    assert structural_equal(lhs, rhs)
    assert ana.simplify((i + 1) * 4 - i * 4).value == 4
    assert ana.simplify(i * 2 - i - i).value == 0


def test_split_index_division_uses_bounds():
    ana, v = _analyzer(io=10, ii=32)
    io, ii = v["io"], v["ii"]
    assert ana.simplify((io * 32 + ii) // 32).same_as(io)
    assert ana.simplify((io * 32 + ii) % 32).same_as(ii)
    assert ana.can_prove(io * 32 + ii < 320)
    assert not ana.can_prove(io * 32 + ii < 300)
    assert isinstance(ana.simplify(io * 32 + ii < 300), tir.LT)


def test_fused_index_recombines():
    ana, v = _analyzer(f=64)
    f = v["f"]
    assert ana.simplify((f // 8) * 8 + f % 8).same_as(f)


def test_const_int_bound():
    ana, v = _analyzer(i=10)
    b = ana.const_int_bound(v["i"] * 3 + 2)
    assert (b.min_value, b.max_value) == (2, 29)
    b = ana.const_int_bound(v["i"] % 4)
    assert (b.min_value, b.max_value) == (0, 3)


def test_min_max_select_and_logic():
    ana, v = _analyzer(i=10)
    i = v["i"]
    assert ana.simplify(tir.Max(i, 20)).value == 20
    assert ana.simplify(tir.Min(i, 20)).same_as(i)
    assert ana.simplify(tir.Select(i < 20, i, 0)).same_as(i)
    assert ana.simplify(tir.And(i >= 0, i < 10)).value == 1
    unknown = tir.Var("u")
    assert isinstance(ana.simplify(unknown < 5), tir.LT)


def test_stmt_simplify_drops_proved_conditions():
    ana = arith.Analyzer()
    a = tir.decl_buffer((64,), "float32", name="A")
    io, ii = tir.Var("io"), tir.Var("ii")
    store = tir.BufferStore(a, tir.const(0.0), [io * 8 + ii])
    loop = tir.For(io, 0, 8, body=tir.For(ii, 0, 8, body=tir.IfThenElse(io * 8 + ii < 64, store)))
    out = ana.rewrite(loop)
    assert isinstance(out.body.body, tir.BufferStore)


def test_unsigned_comparison_is_not_rewritten_as_a_difference():
    # x - y of uint64 wraps around; the simplifier once built IntImm(uint64, -1) and raised
    x, y = tir.Var("x", "uint64"), tir.Var("y", "uint64")
    out = arith.Analyzer().simplify(x < y)
    assert isinstance(out, tir.LT)
    assert structural_equal(out.a, x) and structural_equal(out.b, y)
    a, b = tir.Var("a", "uint8"), tir.Var("b", "uint8")
    diff = arith.Analyzer().simplify(tir.Sub(tir.Mul(b, a), a))  # once a * -1 in uint8
    assert isinstance(diff, tir.Sub)
