"""ToNonDataflow and RemovePurityChecking: the first lowering steps."""

from relax_programs import mlp_module
from tvm import relax
from tvm.relax import transform


def _bindings(func):
    return [b for block in func.body.blocks for b in block.bindings]


def test_dataflow_blocks_and_vars_become_plain():
    mod = transform.ToNonDataflow()(mlp_module((4, 8)))
    func = mod["main"]
    assert all(type(block) is relax.BindingBlock for block in func.body.blocks)
    assert not any(isinstance(b.var, relax.DataflowVar) for b in _bindings(func))
    # Uses follow the renamed variables: every var used is bound earlier or is a param.
    bound = set(func.params)
    for b in _bindings(func):
        for use in transform.lowering_utils.free_relax_uses(b.value):
            assert use in bound
        bound.add(b.var)


def test_to_non_dataflow_without_dataflow_is_copy_on_write():
    mod = mlp_module((4, 8), dataflow=False)
    assert transform.ToNonDataflow()(mod) is mod


def test_remove_purity_checking_marks_pure_functions():
    mod = transform.RemovePurityChecking()(mlp_module((4, 8)))
    assert mod["main"].attrs["relax.force_pure"] is True
    again = transform.RemovePurityChecking()(mod)
    assert again is mod
