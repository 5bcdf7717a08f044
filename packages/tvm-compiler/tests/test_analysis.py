# Tests of tvm.tir.analysis: the purity cases, undefined variables and well-formedness.
import pytest
import tvm.error
from tvm import tir
from tvm.tir.analysis import (
    assert_pure_function,
    is_pure_function,
    undefined_vars,
    verify_well_formed,
)


def _func(body_fn, ret_type=None):
    a = tir.decl_buffer((4,), "float32", name="A")
    pa = tir.Var("a", "handle")
    x = tir.Var("x", "int32")
    return tir.PrimFunc([pa, x], body_fn(a, x), ret_type=ret_type, buffer_map={pa: a})


PURE_CASES = {
    "no-op": lambda a, x: tir.Evaluate(0),
    "return a value": lambda a, x: tir.Evaluate(tir.ret(tir.const(1))),
    "return a computed value": lambda a, x: tir.Evaluate(tir.ret(x * 2 + 1)),
    "read a buffer argument": lambda a, x: tir.Evaluate(tir.ret(a[0])),
    "write an internal allocation": lambda a, x: _internal_write(),
    "call a pure builtin": lambda a, x: tir.Evaluate(tir.ret(tir.cos(a[1]))),
    "call a pure extern": lambda a, x: tir.Evaluate(
        tir.ret(tir.call_pure_extern("float32", "my_pure", a[0]))
    ),
}
IMPURE_CASES = {
    "write a buffer argument": (
        lambda a, x: tir.BufferStore(a, tir.const(1.0), [0]),
        "writes buffer 'A'",
    ),
    "call an impure extern": (
        lambda a, x: tir.Evaluate(tir.call_extern("int32", "printf", x)),
        "tir.call_extern('printf')",
    ),
}


def _internal_write():
    data = tir.Var("tmp", "handle")
    buf = tir.decl_buffer((4,), "float32", name="tmp", data=data)
    return tir.Allocate(
        data, "float32", [4], tir.DeclBuffer(buf, tir.BufferStore(buf, tir.const(2.0), [1]))
    )


@pytest.mark.parametrize("case", sorted(PURE_CASES))
def test_pure_cases(case):
    func = _func(PURE_CASES[case])
    assert is_pure_function(func)
    assert assert_pure_function(func)


@pytest.mark.parametrize("case", sorted(IMPURE_CASES))
def test_impure_cases(case):
    body, reason = IMPURE_CASES[case]
    func = _func(body)
    assert not is_pure_function(func)
    with pytest.raises(AssertionError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        assert_pure_function(func)


def test_block_allocation_counts_as_internal():
    from tvm import te

    a = te.placeholder((4,), name="A")
    tmp = te.compute((4,), lambda i: a[i] * 2, name="tmp")
    out = te.compute((4,), lambda i: tmp[i] + 1, name="out")
    func = te.create_prim_func([a, out])
    assert not is_pure_function(func)  # writes the argument `out`
    assert "tmp" in str(func)


def test_undefined_vars_in_order():
    x, y, i = tir.Var("x"), tir.Var("y"), tir.Var("i")
    a = tir.decl_buffer((4,), "int32", name="A")
    stmt = tir.For(i, 0, 4, body=tir.BufferStore(a, x + y + i, [i]))
    free = undefined_vars(stmt)
    assert [v.name for v in free] == ["A", "x", "y"]
    assert [v.name for v in undefined_vars(stmt, defs=[a.data, x])] == ["y"]


def test_verify_well_formed():
    a = tir.decl_buffer((4,), "float32", name="A")
    pa, i = tir.Var("a", "handle"), tir.Var("i")
    good = tir.PrimFunc(
        [pa], tir.For(i, 0, 4, body=tir.BufferStore(a, tir.const(1.0), [i])), buffer_map={pa: a}
    )
    assert verify_well_formed(good)
    stray = tir.Var("stray")
    bad = good.with_body(tir.For(i, 0, 4, body=tir.BufferStore(a, tir.const(1.0), [stray])))
    assert not verify_well_formed(bad, assert_mode=False)
    with pytest.raises(
        tvm.error.DiagnosticError, match="variable 'stray' is used but never defined"
    ):
        verify_well_formed(bad)
    twice = good.with_body(tir.For(i, 0, 4, body=tir.For(i, 0, 4, body=tir.Evaluate(0))))
    with pytest.raises(tvm.error.DiagnosticError, match="'i' is defined more than once"):
        verify_well_formed(twice)


def test_block_body_must_not_use_loop_variables():
    a = tir.decl_buffer((4,), "float32", name="A")
    pa, i = tir.Var("a", "handle"), tir.Var("i")
    vi = tir.IterVar(tir.Range(0, 4), tir.Var("vi"))
    block = tir.Block([vi], [], [], "B", tir.BufferStore(a, tir.const(1.0), [i]))
    body = tir.For(i, 0, 4, body=tir.BlockRealize([i], True, block))
    func = tir.PrimFunc([pa], body, buffer_map={pa: a})
    with pytest.raises(tvm.error.DiagnosticError, match="uses loop variable 'i' directly"):
        verify_well_formed(func)
