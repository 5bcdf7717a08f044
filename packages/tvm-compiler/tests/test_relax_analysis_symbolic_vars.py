# relax.analysis on symbolic (TIR) variables and types: tir_vars_in_struct_info,
# definable_tir_vars_in_struct_info, collect_non_negative_expressions, defined/free_symbolic_vars,
# get_static_type and their 0.26+ names; expected values are apache-tvm 0.27's on the same input.
import pytest
from tvm import relax, tir
from tvm.relax import analysis as A

n = tir.Var("n", "int64")
m = tir.Var("m", "int64")
T = relax.TensorStructInfo


def _names(vs):
    return [str(v) for v in vs]


def test_tir_vars_and_definable_vars():
    sinfo = relax.TupleStructInfo([T((n * m, n + 1), "float32"), relax.ShapeStructInfo((m, 3))])
    assert _names(A.tir_vars_in_struct_info(sinfo)) == ["n", "m"]
    assert A.tir_vars_in_type is A.tir_vars_in_struct_info
    # n * m and n + 1 cannot define anything; a bare m can, and so can a prim value
    definable = relax.TupleStructInfo(
        [T((n * m, n + 1, m), "float32"), relax.PrimStructInfo(value=n)]
    )
    assert _names(A.definable_tir_vars_in_struct_info(definable)) == ["m", "n"]
    assert _names(A.definable_tir_vars_in_type(definable)) == ["m", "n"]


def test_collect_non_negative_expressions():
    sinfo = relax.TupleStructInfo(
        [
            T((n * m, n + 1, 3, n), "float32"),
            relax.ShapeStructInfo((m, n)),
            relax.PrimStructInfo(value=m - 5),
        ]
    )
    # extents only (not prim values), constants left out, each once in order of occurrence
    assert _names(A.collect_non_negative_expressions(sinfo)) == [
        "n * m",
        "n + T.int64(1)",
        "n",
        "m",
    ]


def test_defined_and_free_symbolic_vars():
    x = relax.Var("x", T((n, 4), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        r = bb.emit(relax.op.reshape(x, relax.ShapeExpr([n * 4])))
        k = bb.match_cast(r, T((m,), "float32"))
        bb.emit_func_output(k)
    f = bb.get()["main"]
    assert sorted(_names(A.defined_symbolic_vars(f))) == ["m", "n"]
    assert A.free_symbolic_vars(f) == []

    k_free = tir.Var("k", "int64")
    y = relax.Var("y", T((n,), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("uses_k", [y]):
        z = bb.emit(relax.op.reshape(y, relax.ShapeExpr([k_free, n // k_free])))
        bb.emit_func_output(z)
    g = bb.get()["uses_k"]
    assert _names(A.defined_symbolic_vars(g)) == ["n"]
    assert _names(A.free_symbolic_vars(g)) == ["k"]


def test_get_static_type_drops_symbolic_values():
    t = T((n, 4), "float32")
    assert str(A.get_static_type(t)) == 'R.Tensor(dtype="float32", ndim=2)'
    assert str(A.get_static_type(relax.ShapeStructInfo((n, 3)))) == "R.Shape(ndim=2)"
    assert str(A.get_static_type(relax.TupleStructInfo([t, relax.ObjectStructInfo()]))) == (
        'R.Tuple(R.Tensor(dtype="float32", ndim=2), R.Object)'
    )
    static_func = A.get_static_type(relax.FuncStructInfo([t], t))
    assert isinstance(static_func, relax.FuncStructInfo)
    assert str(static_func.params[0]) == 'R.Tensor(dtype="float32", ndim=2)'
    assert str(static_func.ret) == 'R.Tensor(dtype="float32", ndim=2)'
    prim = A.get_static_type(relax.PrimStructInfo(value=n))
    assert prim.dtype == "int64" and prim.value is None


def test_type_lca_and_derive_aliases():
    assert A.type_lca is A.struct_info_lca
    assert A.derive_call_ret_type is A.derive_call_ret_struct_info
    lca = A.type_lca(T((3, 4), "float32"), T((3, 5), "float32"))
    assert str(lca) == 'R.Tensor(dtype="float32", ndim=2)'


@pytest.mark.parametrize(
    "fn",
    [
        A.tir_vars_in_struct_info,
        A.definable_tir_vars_in_struct_info,
        A.collect_non_negative_expressions,
        A.get_static_type,
    ],
)
def test_struct_info_functions_reject_other_input(fn):
    with pytest.raises(TypeError, match=rf"{fn.__name__}: sinfo must be a relax StructInfo"):
        fn(relax.Var("x", T((2,), "float32")))


def test_function_functions_reject_other_input():
    for fn in (A.defined_symbolic_vars, A.free_symbolic_vars):
        with pytest.raises(TypeError, match=rf"{fn.__name__}: func must be a relax Function"):
            fn(T((2,), "float32"))
