# LambdaLift and closures on the VM: local functions lifted to module functions, captured
# tensors bound through make_closure, recursion, and the errors of the closure ops.
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T

F32 = relax.TensorStructInfo((2, 3), "float32")


def _ops_in(func) -> list:
    from tvm.ir.functor import NodeVisitor
    from tvm.ir.op import Op

    names = []

    class _Ops(NodeVisitor):
        namespace = "relax"

        def visit_Call(self, node):  # noqa: N802
            if isinstance(node.op, Op):
                names.append(node.op.name)
            self.generic_visit(node)

    _Ops().visit(func)
    return names


def _calls_of(func, name) -> list:
    from tvm.ir.functor import NodeVisitor

    calls = []

    class _Calls(NodeVisitor):
        namespace = "relax"

        def visit_Call(self, node):  # noqa: N802
            if isinstance(node.op, tvm.ir.GlobalVar) and node.op.name_hint == name:
                calls.append(node)
            self.generic_visit(node)

    _Calls().visit(func)
    return calls


@I.ir_module
class Closure:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")) -> R.Tensor(
        (2, 3), "float32"
    ):
        @R.function
        def outer_func(
            c1: R.Tensor((2, 3), "float32"),
        ) -> R.Callable((R.Tensor((2, 3), "float32"),), R.Tensor((2, 3), "float32")):
            @R.function
            def inner_func(x1: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
                s: R.Tensor((2, 3), "float32") = R.subtract(x1, c1)
                return s

            return inner_func

        in_call = outer_func(x)
        res = in_call(y)
        return res


# Every test that runs a closure runs it in both VM execution modes.
EXEC_MODES = pytest.mark.parametrize("exec_mode", ["bytecode", "compiled"])


def _vm(mod, exec_mode):
    return relax.VirtualMachine(relax.build(mod, target="llvm", exec_mode=exec_mode), tvm.cpu())


def _inputs():
    rng = np.random.default_rng(0)
    return rng.random((2, 3), dtype="float32"), rng.random((2, 3), dtype="float32")


def test_captured_tensor_becomes_a_trailing_parameter_and_a_closure():
    after = relax.transform.LambdaLift()(Closure)
    names = sorted(gv.name_hint for gv in after.get_global_vars())
    assert names == ["main", "main_inner_func", "main_outer_func"]
    inner = after["main_inner_func"]
    assert [p.name_hint for p in inner.params] == ["x1", "c1"]
    assert "global_symbol" not in inner.attrs  # lifted functions are private
    assert _ops_in(after["main_outer_func"]) == ["relax.make_closure"]
    assert isinstance(after["main_outer_func"].ret_struct_info, relax.ObjectStructInfo)
    assert "relax.invoke_pure_closure" in _ops_in(after["main"])
    assert relax.analysis.well_formed(after)


@EXEC_MODES
def test_nested_closure_runs_on_the_vm(exec_mode):
    x, y = _inputs()
    vm = _vm(Closure, exec_mode)
    # the closure computes its argument minus the captured tensor: y - x, not x - y
    np.testing.assert_allclose(vm["main"](x, y).numpy(), y - x, rtol=1e-6)


@EXEC_MODES
def test_a_returned_closure_keeps_its_captured_tensor(exec_mode):
    @I.ir_module
    class Returns:
        @R.function
        def main(
            k: R.Tensor((2, 3), "float32"),
        ) -> R.Callable((R.Tensor((2, 3), "float32"),), R.Tensor((2, 3), "float32")):
            @R.function
            def scale(v: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
                out: R.Tensor((2, 3), "float32") = R.multiply(v, k)
                return out

            return scale

    k, v = _inputs()
    vm = _vm(Returns, exec_mode)
    closure = vm["main"](k)
    np.testing.assert_allclose(vm.invoke_closure(closure, v).numpy(), v * k, rtol=1e-6)


@EXEC_MODES
def test_local_function_without_captures_is_called_directly_under_a_unique_name(exec_mode):
    @I.ir_module
    class Before:
        @R.function
        def main(x1: R.Tensor((2, 3), "float32"), y1: R.Tensor((2, 3), "float32")) -> R.Tensor(
            (2, 3), "float32"
        ):
            @R.function
            def inner(x2: R.Tensor((2, 3), "float32"), y2: R.Tensor((2, 3), "float32")) -> R.Tensor(
                (2, 3), "float32"
            ):
                s: R.Tensor((2, 3), "float32") = R.subtract(x2, y2)
                return s

            gv1: R.Tensor((2, 3), "float32") = inner(x1, y1)
            return gv1

        @R.function
        def main_inner(z: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
            return z

    after = relax.transform.LambdaLift()(Before)
    assert sorted(gv.name_hint for gv in after.get_global_vars()) == [
        "main",
        "main_inner",
        "main_inner_0",
    ]
    call = after["main"].body.blocks[0].bindings[0].value
    assert isinstance(call.op, tvm.ir.GlobalVar) and call.op.name_hint == "main_inner_0"
    x, y = _inputs()
    vm = _vm(Before, exec_mode)
    np.testing.assert_allclose(vm["main"](x, y).numpy(), x - y, rtol=1e-6)


def _recursive_module():
    """main(x) = while_loop(0, x), where the local while_loop(i, s) captures x and calls
    itself: s + x while i < 10, so main(x) == 11 * x."""
    bb = relax.BlockBuilder()
    norm = bb.normalize
    i32 = relax.TensorStructInfo((), "int32")
    x = relax.Var("x", F32)
    i = relax.Var("i", i32)
    s = relax.Var("s", F32)
    loop = relax.Var("while_loop", relax.FuncStructInfo([i32, F32], F32))
    cond = relax.Var("cond", relax.TensorStructInfo((), "bool"))
    new_i, new_s, r = relax.Var("new_i", i32), relax.Var("new_s", F32), relax.Var("r", F32)
    ten, one = relax.const(10, "int32"), relax.const(1, "int32")
    then = relax.SeqExpr(
        [
            relax.BindingBlock(
                [
                    relax.VarBinding(new_i, norm(relax.op.add(i, one))),
                    relax.VarBinding(new_s, norm(relax.op.add(s, x))),
                    relax.VarBinding(r, norm(relax.Call(loop, [new_i, new_s]))),
                ]
            )
        ],
        r,
    )
    body = relax.SeqExpr(
        [relax.BindingBlock([relax.VarBinding(cond, norm(relax.op.less(i, ten)))])],
        norm(relax.If(cond, norm(then), norm(relax.SeqExpr([], s)))),
    )
    inner = relax.Function([i, s], norm(body), F32)
    out = relax.Var("gv", F32)
    main_body = relax.SeqExpr(
        [
            relax.BindingBlock(
                [
                    relax.VarBinding(loop, inner),
                    relax.VarBinding(out, norm(relax.Call(loop, [relax.const(0, "int32"), x]))),
                ]
            )
        ],
        out,
    )
    main = relax.Function([x], norm(main_body), F32).with_attr("global_symbol", "main")
    return tvm.IRModule({"main": main})


def test_recursive_local_function_calls_the_lifted_function_directly():
    after = relax.transform.LambdaLift()(_recursive_module())
    lifted = after["main_while_loop"]
    assert [p.name_hint for p in lifted.params] == ["i", "s", "x"]
    (recursive,) = _calls_of(lifted, "main_while_loop")
    assert recursive.args[2] is lifted.params[2]  # the capture is passed on
    assert _ops_in(after["main"]) == ["relax.make_closure", "relax.invoke_pure_closure"]


@EXEC_MODES
def test_recursive_local_function_runs_on_the_vm(exec_mode):
    x, _ = _inputs()
    vm = _vm(_recursive_module(), exec_mode)
    np.testing.assert_allclose(vm["main"](x).numpy(), 11 * x, rtol=1e-5)


def test_module_without_local_functions_comes_back_unchanged():
    @I.ir_module
    class Plain:
        @R.function
        def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
            y: R.Tensor((2, 3), "float32") = R.add(x, x)
            return y

    assert relax.transform.LambdaLift()(Plain) is Plain


def test_input_module_is_left_as_it_was():
    before = Closure.script()
    relax.transform.LambdaLift()(Closure)
    assert Closure.script() == before


def test_closure_op_errors_name_the_op_and_the_argument():
    x = relax.Var("x", F32)
    with pytest.raises(TypeError, match="make_closure: argument 'func' must be a GlobalVar"):
        relax.op.make_closure(x, [x])
    with pytest.raises(TypeError, match="make_closure: argument 'args' must be a relax Tuple"):
        relax.op.make_closure(tvm.ir.GlobalVar("f"), 3)
    with pytest.raises(TypeError, match="invoke_closure: argument 'closure' must be a relax"):
        relax.op.invoke_closure(3, [x], sinfo_args=F32)
    with pytest.raises(TypeError, match="invoke_pure_closure: sinfo_args must be StructInfo"):
        relax.op.invoke_pure_closure(x, [x], sinfo_args=[3])
    bb = relax.BlockBuilder()
    with pytest.raises(TypeError, match="invoke_closure: argument 'closure' must be a closure"):
        bb.normalize(relax.op.invoke_closure(x, [x], sinfo_args=F32))


def test_vm_closure_builtins_reject_what_is_not_a_function():
    from tvm.runtime.vm.builtins import invoke_closure, make_closure

    with pytest.raises(TypeError, match="vm.builtin.make_closure: argument 'func'"):
        make_closure(3, 1)
    with pytest.raises(TypeError, match="vm.builtin.invoke_closure: argument 'closure'"):
        invoke_closure(None, "not a closure", 1)


def test_lambda_lift_rejects_what_is_not_a_module():
    with pytest.raises(TypeError, match="LambdaLift'?: expected an IRModule"):
        relax.transform.LambdaLift()(relax.Var("x", F32))


@EXEC_MODES
def test_closure_over_a_symbolic_shape_tensor_runs_for_each_size(exec_mode):
    @I.ir_module
    class Dyn:
        @R.function
        def main(x: R.Tensor(("n", 3), "float32"), y: R.Tensor(("n", 3), "float32")) -> R.Tensor(
            ("n", 3), "float32"
        ):
            n = T.int64()

            @R.function
            def f(a: R.Tensor((n, 3), "float32")) -> R.Tensor((n, 3), "float32"):
                b: R.Tensor((n, 3), "float32") = R.multiply(a, x)
                return b

            r1 = f(y)
            r2 = f(r1)
            return r2

    vm = _vm(Dyn, exec_mode)
    rng = np.random.default_rng(1)
    for n in (1, 5):
        x, y = rng.random((n, 3), dtype="float32"), rng.random((n, 3), dtype="float32")
        np.testing.assert_allclose(vm["main"](x, y).numpy(), y * x * x, rtol=1e-5)


def test_compiled_closures_are_native_functions_of_the_library():
    # compiled mode binds the lifted function itself, not a bytecode runner
    ex = relax.build(Closure, target="llvm", exec_mode="compiled")
    kinds = {f.name: f.kind for f in ex.functions}
    assert kinds["main_inner_func"] == tvm.runtime.vm.VMFuncKind.VM_TIR_FUNC
    assert ex.lib.get_function("__vmtir__main_inner_func", allow_missing=True) is not None


def test_a_compiled_closure_outlives_its_vm_and_is_called_many_times():
    @I.ir_module
    class Returns:
        @R.function
        def main(
            k: R.Tensor((2, 3), "float32"),
        ) -> R.Callable((R.Tensor((2, 3), "float32"),), R.Tensor((2, 3), "float32")):
            @R.function
            def scale(v: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
                out: R.Tensor((2, 3), "float32") = R.multiply(v, k)
                return out

            return scale

    k, v = _inputs()
    vm = _vm(Returns, "compiled")
    closures = [vm["main"](k * i) for i in range(3)]
    arg = tvm.runtime.tensor(v)
    del vm
    import gc

    gc.collect()
    for i, closure in enumerate(closures):
        for _ in range(2):
            np.testing.assert_allclose(closure(arg).numpy(), v * k * i, rtol=1e-6)
    # a native closure's arity error reads as the bytecode runner's (the count, the names)
    with pytest.raises(TypeError) as info:
        closures[0](arg, arg)
    assert str(info.value) == (
        "VirtualMachine: function 'main_scale' takes 2 argument(s) (v, k), got 3"
    )


@EXEC_MODES
def test_closures_passed_to_a_module_function_from_either_branch(exec_mode):
    @I.ir_module
    class HigherOrder:
        @R.function
        def apply(
            f: R.Callable((R.Tensor((2, 3), "float32"),), R.Tensor((2, 3), "float32")),
            v: R.Tensor((2, 3), "float32"),
        ) -> R.Tensor((2, 3), "float32"):
            r = f(v)
            return r

        @R.function
        def main(
            x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32"), c: R.Tensor((), "bool")
        ) -> R.Tensor((2, 3), "float32"):
            cls = HigherOrder

            @R.function
            def plain(a: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
                b = R.multiply(a, a)
                return b

            @R.function
            def uses_both(a: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
                b = plain(a)
                d = R.add(b, x)
                return d

            if c:

                @R.function
                def in_branch(a: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
                    e = R.subtract(a, y)
                    return e

                out = cls.apply(in_branch, x)
            else:
                out = cls.apply(uses_both, y)
            return out

    after = relax.transform.LambdaLift()(HigherOrder)
    assert relax.analysis.well_formed(after)
    # plain captures nothing: uses_both calls it directly, it needs no closure of its own
    assert len(_calls_of(after["main_uses_both"], "main_plain")) == 1
    vm = _vm(HigherOrder, exec_mode)
    x, y = _inputs()
    np.testing.assert_allclose(vm["main"](x, y, np.array(True)).numpy(), x - y, rtol=1e-6)
    np.testing.assert_allclose(vm["main"](x, y, np.array(False)).numpy(), y * y + x, rtol=1e-6)


def _recursive_script():
    """main(x) = while_loop(0, x) as TVMScript, the local function calling itself."""

    @I.ir_module
    class RecursiveScript:
        @R.function
        def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
            @R.function
            def while_loop(i: R.Tensor((), "int32"), s: R.Tensor((2, 3), "float32")) -> R.Tensor(
                (2, 3), "float32"
            ):
                cond: R.Tensor((), "bool") = R.less(i, R.const(10, "int32"))
                if cond:
                    new_i: R.Tensor((), "int32") = R.add(i, R.const(1, "int32"))
                    new_s: R.Tensor((2, 3), "float32") = R.add(s, x)
                    r = while_loop(new_i, new_s)
                else:
                    r = s
                return r

            gv: R.Tensor((2, 3), "float32") = while_loop(R.const(0, "int32"), x)
            return gv

    return RecursiveScript


@EXEC_MODES
def test_a_recursive_local_function_written_in_tvmscript_parses_lifts_and_runs(exec_mode):
    # The local function's name was unbound inside its own body ("name 'while_loop' is not
    # defined"): the variable is now made from its annotated signature first.
    from tvm.script import from_source

    RecursiveScript = _recursive_script()  # noqa: N806
    tvm.ir.assert_structural_equal(from_source(RecursiveScript.script()), RecursiveScript)
    after = relax.transform.LambdaLift()(RecursiveScript)
    (recursive,) = _calls_of(after["main_while_loop"], "main_while_loop")
    assert len(recursive.args) == 3  # the captured x is passed on
    x, _ = _inputs()
    vm = _vm(RecursiveScript, exec_mode)
    np.testing.assert_allclose(vm["main"](x).numpy(), 11 * x, rtol=1e-5)


def test_compiled_closures_run_from_an_exported_library(tmp_path):
    path = str(tmp_path / "closure.so")
    relax.build(Closure, target="llvm", exec_mode="compiled").export_library(path)
    vm = relax.VirtualMachine(tvm.runtime.load_module(path), tvm.cpu())
    x, y = _inputs()
    np.testing.assert_allclose(vm["main"](x, y).numpy(), y - x, rtol=1e-6)
