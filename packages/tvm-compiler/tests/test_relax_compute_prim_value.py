"""ComputePrimValue: a symbolic expression used as a value is computed by a private host
PrimFunc (tir.is_host_func) called from Relax, as upstream lowers it."""

from relax_programs import if_on_symbolic_module
from tvm import relax, tir
from tvm.relax import transform


def test_if_and_assert_conditions_become_host_functions():
    mod = transform.ComputePrimValue()(if_on_symbolic_module())
    names = sorted(gv.name_hint for gv in mod.get_global_vars())
    assert names == ["compute_symbolic_expr", "compute_symbolic_expr1", "main"]
    cse = mod["compute_symbolic_expr"]
    assert isinstance(cse, tir.PrimFunc)
    assert cse.attrs["tir.is_host_func"] is True and "global_symbol" not in cse.attrs
    assert str(cse.ret_type) == "bool" and [p.name for p in cse.params] == ["N"]
    func = mod["main"]
    first = func.body.blocks[0].bindings[0]
    assert first.value.op.name_hint == "compute_symbolic_expr"
    assert isinstance(first.value.args[0], relax.PrimValue)
    branch = func.body.blocks[0].bindings[1].value
    assert branch.cond is first.var


def test_trivial_prim_values_stay():
    mod = transform.ComputePrimValue()(if_on_symbolic_module())
    assert transform.ComputePrimValue()(mod) is mod
