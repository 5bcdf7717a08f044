"""KillAfterLastUse, LowerAllocTensor and LowerRuntimeBuiltin: storage and tensors are dropped
right after their last use and the memory ops become the VM's."""

from relax_programs import mlp_module
from tvm.relax import transform
from tvm.relax.transform.lowering_utils import free_relax_uses, is_op_call


def _lowered(*extra):
    mod = mlp_module((4, 8))
    for p in [
        transform.ToNonDataflow(),
        transform.CallTIRRewrite(),
        transform.StaticPlanBlockMemory(),
        transform.LowerAllocTensor(),
        transform.KillAfterLastUse(),
        *extra,
    ]:
        mod = p(mod)
    return mod["main"]


def _bindings(func):
    return [b for block in func.body.blocks for b in block.bindings]


def test_every_allocation_but_the_result_is_killed_after_its_last_use():
    func = _lowered()
    bindings = _bindings(func)
    kills = {}
    for i, b in enumerate(bindings):
        if is_op_call(b.value, "relax.memory.kill_storage") or is_op_call(
            b.value, "relax.memory.kill_tensor"
        ):
            kills[b.value.args[0]] = i
    allocated = [
        b.var
        for b in bindings
        if is_op_call(b.value, "relax.memory.alloc_storage")
        or is_op_call(b.value, "relax.memory.alloc_tensor")
    ]
    result = func.body.body
    assert result not in kills
    assert set(kills) == set(allocated) - {result}
    for var, at in kills.items():
        later = [u for b in bindings[at + 1 :] for u in free_relax_uses(b.value)]
        assert var not in later


def test_no_trivial_rebinding_survives():
    from tvm import relax

    assert not any(isinstance(b.value, relax.Var) for b in _bindings(_lowered()))


def test_lower_runtime_builtin_turns_memory_ops_into_vm_ops():
    func = _lowered(transform.LowerRuntimeBuiltin())
    names = {b.value.op.name for b in _bindings(func) if hasattr(b.value.op, "name")}
    assert not {n for n in names if n.startswith("relax.memory.")}
    assert {"relax.vm.alloc_storage", "relax.vm.alloc_tensor", "relax.vm.kill_object"} <= names


def test_a_match_cast_of_an_allocation_keeps_it_alive_while_used():
    """A tensor returned through a MatchCast (its result dims symbolic) is the allocation
    itself: it must not be killed before the return (the VM returned None then)."""
    import numpy as np
    import tvm
    from tvm import relax, tir
    from tvm.relax import op as R

    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo([3, 4], "float32"))
    begin = relax.Var("begin", relax.TensorStructInfo([2], "int64"))
    with bb.function("main", [x, begin]):
        end, strides = (relax.const(np.array(v, "int64")) for v in ([9, 9], [1, 1]))
        lv = bb.emit(R.dynamic_strided_slice(x, begin, end, strides))
        dims = [tir.Var("n", "int64"), tir.Var("m", "int64")]
        cast = bb.match_cast(lv, relax.TensorStructInfo(dims, "float32"))
        bb.emit_func_output(cast)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    data = np.arange(12, dtype="float32").reshape(3, 4)
    out = vm["main"](tvm.runtime.tensor(data), tvm.runtime.tensor(np.array([1, 2])))
    np.testing.assert_array_equal(out.numpy(), data[1:, 2:])
