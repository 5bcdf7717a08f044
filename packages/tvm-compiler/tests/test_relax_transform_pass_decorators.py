# relax.transform.function_pass / dataflowblock_pass and the FunctionPass / DataflowBlockPass
# they make: decorating functions and classes, pass info, which functions and blocks they see,
# and the errors upstream gives (a block pass may not drop or rename the block's outputs).
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.error import InternalError
from tvm.relax.transform import (
    DataflowBlockPass,
    FunctionPass,
    dataflowblock_pass,
    function_pass,
)
from tvm.script import tir as T


def _module():
    x = relax.Var("x", relax.TensorStructInfo((2,), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            y = bb.emit(relax.op.add(x, x))
            z = bb.emit_output(relax.op.multiply(y, y))
        bb.emit_func_output(z)
    return bb.get()


@T.prim_func
def _fill(a: T.Buffer((4,), "float32")):
    a[0] = T.float32(1)


def test_function_pass_from_function_sees_only_relax_functions():
    seen = []

    @function_pass(opt_level=2, name="Record", required=["Other"], traceable=True)
    def record(func, mod, ctx):
        seen.append((type(func).__name__, isinstance(ctx, tvm.transform.PassContext)))
        return func

    assert isinstance(record, FunctionPass) and isinstance(record, tvm.transform.Pass)
    assert (record.info.name, record.info.opt_level) == ("Record", 2)
    assert list(record.info.required) == ["Other"] and record.info.traceable is True
    mod = tvm.IRModule({"main": _module()["main"], "fill": _fill})
    assert record(mod) is mod  # nothing changed: the same module (copy-on-write)
    assert seen == [("Function", True)]


def test_function_pass_sees_codegen_functions_too():
    # apache-tvm 0.27 hands functions bound for an external codegen to the pass as well
    seen = []

    @function_pass(opt_level=0)
    def record(func, mod, ctx):
        seen.append(func)
        return func

    mod = _module()
    mod["ext"] = mod["main"].with_attr("Codegen", "dnnl")
    record(mod)
    assert sorted("Codegen" in (f.attrs or {}) for f in seen) == [False, True]


def test_function_pass_from_class_keeps_instance_state():
    @function_pass(opt_level=1)
    class SwapBody:
        """Replaces every function by the one it was given."""

        def __init__(self, new_func):
            self.new_func = new_func
            self.calls = 0

        def transform_function(self, func, mod, ctx):
            self.calls += 1
            return self.new_func

    x = relax.Var("x", relax.TensorStructInfo((2,), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        bb.emit_func_output(bb.emit(relax.op.negative(x)))
    replacement = bb.get()["main"]

    p = SwapBody(replacement)
    assert isinstance(p, FunctionPass)
    assert SwapBody.__name__ == "SwapBody" and "Replaces" in SwapBody.__doc__
    assert p.info.name == "SwapBody" and p.info.opt_level == 1
    out = p(_module())
    assert p.calls == 1 and p.new_func is replacement  # attributes reach the instance
    ex = tvm.compile(out, target="llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    np.testing.assert_allclose(vm["main"](np.array([1.0, 2.0], "float32")).numpy(), [-1, -2])


def test_opt_level_and_disabled_pass_are_honoured():
    calls = []

    @function_pass(opt_level=3)
    def late(func, mod, ctx):
        calls.append(1)
        return func

    mod = _module()
    with tvm.transform.PassContext(opt_level=2):
        late(mod)
    assert calls == []
    with tvm.transform.PassContext(opt_level=3, disabled_pass=["late"]):
        late(mod)
    assert calls == []
    with tvm.transform.PassContext(opt_level=3):
        late(mod)
    assert calls == [1]


def test_dataflowblock_pass_rewrites_a_binding():
    @dataflowblock_pass(opt_level=0)
    def add_to_sub(block, mod, ctx):
        first = block.bindings[0]
        new_first = relax.VarBinding(first.var, relax.op.subtract(*first.value.args))
        return relax.DataflowBlock([new_first, *block.bindings[1:]])

    assert isinstance(add_to_sub, DataflowBlockPass) and add_to_sub.info.name == "add_to_sub"
    mod = _module()
    out = add_to_sub(mod)
    assert out is not mod and "R.add" in mod.script()  # the input is untouched
    assert "R.subtract" in out.script() and "R.add" not in out.script()
    assert relax.analysis.well_formed(out)


def test_dataflowblock_pass_from_class_sees_every_block():
    @dataflowblock_pass(opt_level=0)
    class Count:
        def __init__(self):
            self.sizes = []

        def transform_dataflowblock(self, block, mod, ctx):
            self.sizes.append(len(block.bindings))
            return block

    x = relax.Var("x", relax.TensorStructInfo((2,), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            a = bb.emit_output(relax.op.add(x, x))
        b = bb.emit(relax.op.multiply(a, a))  # a plain block: not handed to the pass
        with bb.dataflow():
            c = bb.emit(relax.op.add(b, b))
            d = bb.emit_output(relax.op.add(c, c))
        bb.emit_func_output(d)
    mod = bb.get()
    counter = Count()
    assert isinstance(counter, DataflowBlockPass)
    assert counter(mod) is mod
    assert counter.sizes == [1, 2]


def test_dataflowblock_pass_may_not_drop_or_rename_outputs():
    @dataflowblock_pass(opt_level=0)
    def drop(block, mod, ctx):
        return relax.DataflowBlock(block.bindings[:1])

    @dataflowblock_pass(opt_level=0)
    def rename(block, mod, ctx):
        last = block.bindings[-1]
        fresh = relax.Var(last.var.name_hint, last.var.struct_info)
        return relax.DataflowBlock([*block.bindings[:-1], relax.VarBinding(fresh, last.value)])

    for bad in (drop, rename):
        with pytest.raises(InternalError, match="should not rewrite or delete any global-scope"):
            bad(_module())


def test_bad_input_names_the_decorator():
    with pytest.raises(ValueError, match="function_pass: please provide opt_level"):
        function_pass(lambda f, m, c: f)
    with pytest.raises(ValueError, match="dataflowblock_pass: please provide opt_level"):
        dataflowblock_pass(lambda b, m, c: b)
    with pytest.raises(TypeError, match="function_pass: pass_func must be a function"):
        function_pass(3, opt_level=1)
    with pytest.raises(TypeError, match="dataflowblock_pass: pass_func must be a function"):
        dataflowblock_pass(opt_level=1)("not a function")

    @function_pass(opt_level=1)
    class NoMethod:
        pass

    with pytest.raises(TypeError, match="class NoMethod must define transform_function"):
        NoMethod()

    @function_pass(opt_level=0)
    def returns_int(func, mod, ctx):
        return 3

    with pytest.raises(TypeError, match="'returns_int' must return a Function for 'main'"):
        returns_int(_module())

    @dataflowblock_pass(opt_level=0)
    def block_returns_int(block, mod, ctx):
        return 3

    with pytest.raises(TypeError, match="'block_returns_int' must return a DataflowBlock"):
        block_returns_int(_module())
