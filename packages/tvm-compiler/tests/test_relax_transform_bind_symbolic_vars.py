# relax.transform.BindSymbolicVars: symbolic dims bound by Var or by name, in every function or
# one, folded where they become constants; the printed results are apache-tvm 0.27's.
import numpy as np
import pytest
import tvm
from tvm import relax, tir
from tvm.error import InternalError
from tvm.relax.transform import BindSymbolicVars

n = tir.Var("n", "int64")
m = tir.Var("m", "int64")


def _module():
    x = relax.Var("x", relax.TensorStructInfo((n, m), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        y = bb.emit(relax.op.add(x, x))
        z = bb.emit(relax.op.reshape(y, relax.ShapeExpr([n * m])))
        bb.emit_func_output(z)
    return bb.get()


def _body(func):
    return [line.strip() for line in func.script().splitlines() if not line.startswith("#")]


def test_bind_by_name():
    out = BindSymbolicVars({"n": 4})(_module())
    assert _body(out["main"])[2:] == [
        'def main(x: R.Tensor((4, "m"), dtype="float32")) -> R.Tensor((m * 4,), dtype="float32"):',
        "m = T.int64()",
        'gv: R.Tensor((4, m), dtype="float32") = R.add(x, x)',
        'gv1: R.Tensor((m * 4,), dtype="float32") = R.reshape(gv, R.shape([m * 4]))',
        "return gv1",
    ]


def test_bind_all_folds_to_constants_and_runs():
    mod = _module()
    out = BindSymbolicVars({n: 4, "m": 8})(mod)
    func = out["main"]
    assert [int(d) for d in func.params[0].struct_info.shape.values] == [4, 8]
    assert [int(d) for d in func.ret_struct_info.shape.values] == [32]
    assert relax.analysis.free_symbolic_vars(func) == []
    assert relax.analysis.well_formed(out)
    assert mod["main"].params[0].struct_info.shape.values[0] is n  # input untouched
    vm = relax.VirtualMachine(tvm.compile(out, target="llvm"), tvm.cpu())
    data = np.arange(32, dtype="float32").reshape(4, 8)
    np.testing.assert_allclose(vm["main"](data).numpy(), (data + data).reshape(32))


def test_func_name_limits_the_scope():
    mod = _module()
    mod["other"] = mod["main"]
    out = BindSymbolicVars({"n": 2}, "other")(mod)
    assert out["main"] is mod["main"]
    assert int(out["other"].params[0].struct_info.shape.values[0]) == 2


def test_expression_values():
    k = tir.Var("k", "int64")
    out = BindSymbolicVars({"n": k * 2})(_module())
    assert str(out["main"].params[0].struct_info) == 'R.Tensor((k * 2, m), dtype="float32")'


def test_errors():
    with pytest.raises(InternalError, match=r"binding_map contains keys \['k'\], which did not"):
        BindSymbolicVars({"k": 4})(_module())
    with pytest.raises(ValueError, match=r"func_name 'nope' .* candidates are: \['main'\]"):
        BindSymbolicVars({"n": 4}, "nope")(_module())
    with pytest.raises(TypeError, match="BindSymbolicVars: binding_map keys must be tir Vars"):
        BindSymbolicVars({3: 4})
    with pytest.raises(TypeError, match=r"binding_map\['n'\] must be an int or PrimExpr, got str"):
        BindSymbolicVars({"n": "x"})
    with pytest.raises(TypeError, match=r"binding_map\['n'\] must be int64"):
        BindSymbolicVars({"n": tir.const(2, "int32")})
    with pytest.raises(TypeError, match="BindSymbolicVars: binding_map must be a dict"):
        BindSymbolicVars([("n", 4)])
