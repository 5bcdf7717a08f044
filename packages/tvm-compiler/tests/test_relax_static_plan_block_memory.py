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


def _bounded_module(upper_bound=None):
    """main(x: (n,), y: (m,)): exp(x) then exp(y) then their sums, each an intermediate of a
    different symbolic size; with upper_bound the function carries tir_var_upper_bound."""
    from tvm.script import ir as I
    from tvm.script import relax as R

    @I.ir_module
    class Bounded:
        @R.function
        def main(x: R.Tensor(("n",), "float32"), y: R.Tensor(("m",), "float32")) -> R.Tensor(
            (), "float32"
        ):
            with R.dataflow():
                a = R.exp(x)
                sa = R.sum(a)
                b = R.exp(y)
                sb = R.sum(b)
                out = R.add(sa, sb)
                R.output(out)
            return out

    mod = transform.LegalizeOps()(Bounded)
    if upper_bound is not None:
        functions = dict(mod.functions.items())
        main = mod.get_global_var("main")
        functions[main] = functions[main].with_attr("tir_var_upper_bound", upper_bound)
        mod = mod._with_functions(functions)
    return mod


def _storages(func):
    """The alloc_storage bindings of func but the 4-byte ones of the two scalar sums."""
    return [
        b
        for b in _bindings(func)
        if is_op_call(b.value, "relax.memory.alloc_storage")
        and not (
            isinstance(b.value.args[0].values[0], tir.IntImm)
            and b.value.args[0].values[0].value == 4
        )
    ]


def test_tir_var_upper_bound_gives_bounded_storage_that_tensors_of_other_sizes_reuse():
    # without bounds: 4*n and 4*m bytes cannot be compared, so exp(y) gets a storage of its own
    unbounded = _storages(_planned(_bounded_module())["main"])
    assert len(unbounded) == 2
    assert all(not isinstance(s.value.args[0].values[0], tir.IntImm) for s in unbounded)
    func = _planned(_bounded_module({"n": 1024, "m": 512}))["main"]
    (storage,) = _storages(func)
    assert storage.value.args[0].values[0].value == 4096  # 1024 floats
    allocs = [b for b in _bindings(func) if is_op_call(b.value, "relax.memory.alloc_tensor")]
    exp_x, exp_y = [a for a in allocs if a.var.struct_info.ndim == 1]
    # exp(x) is dead once summed: exp(y) (at most 512 floats) is placed in its 4096 bytes
    assert exp_x.value.args[0] is storage.var and exp_y.value.args[0] is storage.var
    # the tensors keep their symbolic shapes on top of the bounded storage
    assert not isinstance(exp_y.value.args[2].values[0], tir.IntImm)


def test_only_signature_vars_named_in_the_attribute_are_bounded():
    func = _planned(_bounded_module({"n": 1024}))["main"]
    sizes = [s.value.args[0].values[0] for s in _storages(func)]
    assert any(isinstance(s, tir.IntImm) and s.value == 4096 for s in sizes)
    assert any(not isinstance(s, tir.IntImm) for s in sizes)  # m is not bounded


def test_bounded_storage_runs_for_each_size(monkeypatch):
    from tvm.runtime.vm import builtins

    allocated = []
    original = builtins.BUILTINS["vm.builtin.alloc_storage"]

    def counting(vm, shape, *rest):
        allocated.append(int(shape[0]))
        return original(vm, shape, *rest)

    monkeypatch.setitem(builtins.BUILTINS, "vm.builtin.alloc_storage", counting)
    with tvm.transform.PassContext(opt_level=0):  # no fusion: exp(x) and exp(y) stay tensors
        ex = relax.build(_bounded_module({"n": 1024, "m": 1024}), "llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu(), memory_cfg="naive")
    rng = np.random.default_rng(3)
    for n, m in ((1, 7), (64, 1), (1024, 1000)):
        allocated.clear()
        x, y = rng.random(n, dtype="float32"), rng.random(m, dtype="float32")
        got = vm["main"](x, y).numpy()
        np.testing.assert_allclose(got, np.exp(x).sum() + np.exp(y).sum(), rtol=1e-4)
        assert 4096 in allocated  # the shared storage of exp(x) and exp(y), whatever n and m
    import pytest

    # past the bound the tensor does not fit: a clear error, not a write past the storage
    with pytest.raises(ValueError, match=r"vm.builtin.alloc_tensor: .*4096"):
        vm["main"](np.ones(1025, "float32"), np.ones(3, "float32"))


def _shrinking_module():
    """main(x: (n,)) whose intermediates have 64 - n floats: largest at n = 0, not at the
    bound n = 64 (where they are empty)."""
    from tvm import te

    n = tir.Var("n", "int64")
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo((n,), "float32"))

    def shrink(x):
        return te.compute(
            (64 - x.shape[0],), lambda i: x[0] + tir.Cast("float32", i), name="shrink"
        )

    with bb.function("main", [x]):
        with bb.dataflow():
            a = bb.emit_te(shrink, x)
            b = bb.emit(relax.op.exp(a))
            out = bb.emit_output(relax.op.sum(b))
        bb.emit_func_output(out)
    mod = bb.get()
    main = mod.get_global_var("main")
    functions = dict(mod.functions.items())
    functions[main] = functions[main].with_attr("tir_var_upper_bound", {"n": 64})
    return mod._with_functions(functions)


def test_a_bounded_storage_holds_the_largest_size_below_the_bound_not_the_size_at_it():
    sizes = [s.value.args[0].values[0] for s in _storages(_planned(_shrinking_module())["main"])]
    assert sizes and all(isinstance(s, tir.IntImm) and s.value == 256 for s in sizes)
    with tvm.transform.PassContext(opt_level=0):  # no fusion: the intermediates stay tensors
        ex = relax.build(_shrinking_module(), "llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu(), memory_cfg="naive")
    for n in (64, 40, 1):  # every n within the bound runs (n = 40 did not fit before)
        x = np.full(n, 0.5, "float32")
        got = vm["main"](x).numpy()
        if n < 64:  # (the value of a sum over no elements is another matter)
            want = np.exp(0.5 + np.arange(64 - n, dtype="float32")).sum()
            np.testing.assert_allclose(got, want, rtol=1e-5)


def test_a_bad_tir_var_upper_bound_is_a_clear_error():
    import pytest

    with pytest.raises(ValueError, match="tir_var_upper_bound.*'n' must be a non-negative int"):
        _planned(_bounded_module({"n": -1}))
    # 4 bytes a float at n = 2**62: the storage size does not fit an int64
    with pytest.raises(ValueError, match="'tir_var_upper_bound': the bounds make a storage of"):
        _planned(_bounded_module({"n": 2**62}))


def test_the_bound_written_as_tvmscript_func_attr_is_honoured():
    from tvm.script import ir as I
    from tvm.script import relax as R

    @I.ir_module
    class Script:
        @R.function
        def main(x: R.Tensor(("n",), "float32")) -> R.Tensor((), "float32"):
            R.func_attr({"tir_var_upper_bound": {"n": 256}})
            with R.dataflow():
                a = R.exp(x)
                s = R.sum(a)
                R.output(s)
            return s

    func = _planned(transform.LegalizeOps()(Script))["main"]
    (storage,) = _storages(func)
    assert storage.value.args[0].values[0].value == 1024  # 256 floats


def test_a_tensor_read_by_control_flow_is_not_planned():
    # Upstream leaves to the runtime what an If reads (its condition, or a value its branches
    # use): only the allocation nothing but kernels read gets a planned storage.
    from tvm.script import ir as I
    from tvm.script import relax as R
    from tvm.script import tir as T

    @I.ir_module
    class Module:
        @T.prim_func
        def exp(A: T.Buffer((2, 3), "float32"), B: T.Buffer((2, 3), "float32")):
            T.evaluate(0)

        @R.function
        def main(cond: R.Tensor((), "bool"), x: R.Tensor((2, 3), "float32")):
            R.func_attr({"relax.force_pure": True})
            cls = Module
            a = R.builtin.alloc_tensor(R.shape([2, 3]), dtype="float32", runtime_device_index=0)
            _ = cls.exp(x, a)
            b = R.builtin.alloc_tensor(R.shape([2, 3]), dtype="float32", runtime_device_index=0)
            _1 = cls.exp(x, b)
            if cond:
                z = a
            else:
                z = x  # noqa: F841  (TVMScript: the If's result, unused)
            return x

    out = transform.StaticPlanBlockMemory()(Module)["main"]
    bindings = out.body.blocks[0].bindings
    calls = [b.value for b in bindings if isinstance(b.value, relax.Call)]
    kinds = [c.op.name for c in calls if isinstance(c.op, tvm.ir.Op) and "alloc" in c.op.name]
    assert kinds == [
        "relax.builtin.alloc_tensor",
        "relax.memory.alloc_storage",
        "relax.memory.alloc_tensor",
    ]
