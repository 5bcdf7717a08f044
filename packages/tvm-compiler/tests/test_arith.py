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


def test_unsigned_comparisons_and_min_max_are_not_decided_by_a_wrapping_difference():
    # x - y wraps for unsigned x, y: the simplifier once read it as >= 0 and folded
    # `x < y` to False and `x >= y` to True (and min(x, y) to y).
    from tvm.tir.functor import substitute

    x, y = tir.Var("x", "uint32"), tir.Var("y", "uint32")
    ana = arith.Analyzer()
    exprs = {
        "lt": (x < y, lambda a, b: a < b),
        "ge": (x >= y, lambda a, b: a >= b),
        "gt": (x > y, lambda a, b: a > b),
        "le": (x <= y, lambda a, b: a <= b),
        "lt_plus_one": (x < y + 1, lambda a, b: a < b + 1),
        "min": (tir.Min(x, y), min),
        "max": (tir.Max(x, y), max),
    }
    for name, (expr, expected) in exprs.items():
        simplified = ana.simplify(expr)
        for a, b in ((1, 2), (2, 1), (3, 3)):
            values = {x: tir.const(a, "uint32"), y: tir.const(b, "uint32")}
            got = ana.simplify(substitute(simplified, values))
            assert int(got.value) == int(expected(a, b)), (name, a, b, simplified)
    # What bounds do decide still folds.
    ana.bind(x, tir.Range(tir.const(0, "uint32"), tir.const(4, "uint32")))
    ana.bind(y, tir.Range(tir.const(8, "uint32"), tir.const(12, "uint32")))
    assert ana.simplify(x < y).value == 1


def test_unsigned_linear_forms_need_no_negative_literal():
    # The canonical form wrote x - 2*y as x + y * -2, and `IntImm(uint8, -2)` raised (it broke
    # the legalised uint8 max_pool2d's reduction, whose max(acc, v) the simplifier visits).
    from tvm.tir.functor import substitute

    x, y = tir.Var("x", "uint8"), tir.Var("y", "uint8")
    ana = arith.Analyzer()
    exprs = [
        x - y * 2,
        tir.const(3, "uint8") - x - 5,
        x * 200 * 2,
        x - x - 1,
        tir.Max(x, x - y * 2),
    ]
    for expr in exprs:
        simplified = ana.simplify(expr)
        for a, b in ((1, 2), (200, 3), (0, 255)):
            values = {x: tir.const(a, "uint8"), y: tir.const(b, "uint8")}
            want = ana.simplify(substitute(expr, values)).value
            assert ana.simplify(substitute(simplified, values)).value == want, (expr, a, b)


def test_unsigned_comparison_is_not_rewritten_as_a_difference():
    # x - y of uint64 wraps around; the simplifier once built IntImm(uint64, -1) and raised
    x, y = tir.Var("x", "uint64"), tir.Var("y", "uint64")
    out = arith.Analyzer().simplify(x < y)
    assert isinstance(out, tir.LT)
    assert structural_equal(out.a, x) and structural_equal(out.b, y)
    a, b = tir.Var("a", "uint8"), tir.Var("b", "uint8")
    diff = arith.Analyzer().simplify(tir.Sub(tir.Mul(b, a), a))  # once a * -1 in uint8
    assert isinstance(diff, tir.Sub)
