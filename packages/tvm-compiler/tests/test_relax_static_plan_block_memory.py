"""StaticPlanBlockMemory: intermediates share storage once dead, so an MLP's intermediates
take no more memory than the two largest tensors live at once; outputs are never planned."""

import numpy as np
import tvm
from relax_programs import mlp_module, mlp_reference
from tvm import relax, tir
from tvm.relax import transform
from tvm.relax.transform.lowering_utils import is_op_call

_BEFORE = [transform.ToNonDataflow(), transform.CallTIRRewrite()]


def _planned(mod):
    for p in _BEFORE:
        mod = p(mod)
    return transform.StaticPlanBlockMemory()(mod)


def _bindings(func):
    return [b for block in func.body.blocks for b in block.bindings]


def _storage_sizes(func, n):
    """Bytes of each memory.alloc_storage, with the symbolic batch set to n."""
    from tvm.arith import Analyzer

    sizes = []
    for b in _bindings(func):
        if is_op_call(b.value, "relax.memory.alloc_storage"):
            (size,) = b.value.args[0].values
            var = [v for v in tir.analysis.well_formed.undefined_vars(size)]
            expr = tir.functor.substitute(size, {v: tir.IntImm("int64", n) for v in var})
            sizes.append(Analyzer().simplify(expr).value)
    return sizes


def test_mlp_intermediates_fit_in_the_two_largest_live_tensors():
    sizes = (784, 512, 512, 10)
    mod = _planned(mlp_module(sizes))
    func = mod["main"]
    batch = 64
    storages = _storage_sizes(func, batch)
    # Every intermediate (matmul, add, relu of each layer but the returned one) is planned.
    planned = [b for b in _bindings(func) if is_op_call(b.value, "relax.memory.alloc_tensor")]
    assert len(planned) == 3 * (len(sizes) - 1) - 1
    two_largest_live = 2 * batch * 512 * 4
    assert sum(storages) <= two_largest_live
    unplanned = [b for b in _bindings(func) if is_op_call(b.value, "relax.builtin.alloc_tensor")]
    assert [b.var.struct_info.shape.values[1].value for b in unplanned] == [10]


def test_tensors_live_at_once_never_share_storage():
    mod = _planned(mlp_module((4, 8)))
    func = mod["main"]
    allocs = [b for b in _bindings(func) if is_op_call(b.value, "relax.memory.alloc_tensor")]
    # matmul's output is read by add: the two must be in different storages.
    assert allocs[0].value.args[0] is not allocs[1].value.args[0]


def test_a_module_without_allocations_is_returned_unchanged():
    mod = transform.ToNonDataflow()(mlp_module((4, 8)))
    assert transform.StaticPlanBlockMemory()(mod) is mod


def test_peak_memory_at_run_time(monkeypatch):
    from tvm.runtime.vm import builtins

    sizes = (32, 64, 64, 3)
    ex = relax.build(mlp_module(sizes), "llvm")
    allocated = []
    original = builtins.BUILTINS["vm.builtin.alloc_storage"]

    def counting(vm, shape, *rest):
        allocated.append(int(shape[0]))
        return original(vm, shape, *rest)

    monkeypatch.setitem(builtins.BUILTINS, "vm.builtin.alloc_storage", counting)
    vm = relax.VirtualMachine(ex, tvm.cpu())
    batch = 5
    rng = np.random.default_rng(0)
    weights = [
        (rng.standard_normal((k, m)).astype("float32"), rng.standard_normal(m).astype("float32"))
        for k, m in zip(sizes[:-1], sizes[1:])
    ]
    x = rng.standard_normal((batch, sizes[0])).astype("float32")
    args = [tvm.runtime.tensor(a) for pair in weights for a in pair]
    out = vm["main"](tvm.runtime.tensor(x), *args)
    np.testing.assert_allclose(out.numpy(), mlp_reference(x, weights), rtol=1e-4, atol=1e-4)
    assert allocated, "the VM did not allocate through vm.builtin.alloc_storage"
    output_bytes = batch * sizes[-1] * 4
    intermediates = sum(allocated) - output_bytes
    assert intermediates <= 2 * batch * 64 * 4
