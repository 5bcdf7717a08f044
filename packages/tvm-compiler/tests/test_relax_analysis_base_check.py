# relax.analysis.type_base_check / BaseCheckResult (0.26+'s fine-grained base check): each case
# pinned to what apache-tvm 0.27 answers for the same pair of types.
import pytest
from tvm import relax, tir
from tvm.relax.analysis import BaseCheckResult, struct_info_base_check, type_base_check

n = tir.Var("n", "int64")
m = tir.Var("m", "int64")
T, S, Obj = relax.TensorStructInfo, relax.ShapeStructInfo, relax.ObjectStructInfo
F = relax.FuncStructInfo
L0, L1, L2, PASS = (
    BaseCheckResult.FAIL_L0,
    BaseCheckResult.FAIL_L1,
    BaseCheckResult.FAIL_L2,
    BaseCheckResult.PASS,
)


def test_result_values():
    assert [int(r) for r in BaseCheckResult] == [0, 1, 2, 3]
    assert [r.name for r in BaseCheckResult] == ["FAIL_L0", "FAIL_L1", "FAIL_L2", "PASS"]


@pytest.mark.parametrize(
    "base, derived, expected",
    [
        (T((n, 4), "float32"), T((m, 4), "float32"), L2),  # may match at run time
        (T((3, 4), "float32"), T((m, 4), "float32"), L2),
        (T((3, 4), "float32"), T((3, 5), "float32"), L0),  # constants differ
        (T((3, 4), "float32"), T((3, 4, 1), "float32"), L0),
        (T((3, 4), "float32"), S((3, 4)), L0),
        (T((3, 4), "float32"), T((3, 4), "int32"), L0),
        (T(ndim=2, dtype="float32"), T((3, 4), "float32"), PASS),
        (T((3, 4), "float32"), T(ndim=2, dtype="float32"), L2),
        (T((3, 4), "float32"), T(ndim=-1, dtype="float32"), L1),  # ndim unknown statically
        (T((3, 4), "float32"), T(ndim=2), L2),
        (Obj(), T((3, 4), "float32"), PASS),
        (T((3, 4), "float32"), Obj(), L1),
        (S((n, 4)), S((n, 4)), PASS),
        (S((n, 4)), S(ndim=2), L2),
        (S(ndim=2), S(ndim=-1), L1),
        (S((1, 2)), S((1, 3)), L0),
        (
            relax.TupleStructInfo([T((3,), "float32"), S((2,))]),
            relax.TupleStructInfo([T((n,), "float32"), S((2,))]),
            L2,
        ),
        (
            relax.TupleStructInfo([T((3,), "float32")]),
            relax.TupleStructInfo([T((3,), "float32"), S((2,))]),
            L0,
        ),
        (
            F([T((3,), "float32")], T((3,), "float32")),
            F([T((n,), "float32")], T((3,), "float32")),
            L2,
        ),
        (
            F([T((n,), "float32")], T((3,), "float32")),
            F([T((3,), "float32")], T((3,), "float32")),
            L2,
        ),
        (
            F([T((3,), "float32")], T((3,), "float32")),
            F([T((3,), "float32")], T((3,), "float32"), purity=False),
            L0,
        ),
        (F.opaque_func(), F([T((3,), "float32")], T((3,), "float32")), PASS),
        (F([T((3,), "float32")], T((3,), "float32")), F.opaque_func(), L0),
    ],
)
def test_type_base_check(base, derived, expected):
    result = type_base_check(base, derived)
    assert result is expected
    # the boolean check of the StructInfo era passes exactly when the fine one does
    assert struct_info_base_check(base, derived) == (result is PASS)


def test_bad_input():
    with pytest.raises(TypeError, match="type_base_check: derived must be a relax Type"):
        type_base_check(Obj(), "float32")
    with pytest.raises(TypeError, match="type_base_check: base must be a relax Type"):
        type_base_check(None, Obj())
