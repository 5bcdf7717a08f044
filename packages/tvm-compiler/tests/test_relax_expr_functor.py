# relax.PyExprVisitor / PyExprMutator (upstream's method names) on the shared traversal layer.
import pytest
import tvm
from tvm import relax
from tvm.relax import op as R


def _module():
    x = relax.Var("x", relax.TensorStructInfo([2, 3], "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            lv = bb.emit(R.exp(x))
            lv1 = bb.emit(R.add(lv, x))
            gv = bb.emit_output(R.multiply(lv1, lv1))
        bb.emit_func_output(gv)
    return bb.get()


def test_visitor_sees_calls_and_var_definitions():
    @relax.expr_functor.visitor
    class Collect(relax.PyExprVisitor):
        def __init__(self):
            self.ops, self.defs = [], []

        def visit_call_(self, call):
            self.ops.append(call.op.name)
            self.visit_expr_post_order(call)

        def visit_var_def_(self, var):
            self.defs.append(var.name_hint)

        def visit_dataflow_var_def_(self, var):
            self.defs.append("df:" + var.name_hint)

    c = Collect()
    c.visit_expr(_module()["main"])
    assert c.ops == ["relax.exp", "relax.add", "relax.multiply"]
    assert c.defs == ["x", "df:lv", "df:lv1", "gv"]


def test_mutator_rewrites_through_the_block_builder_and_keeps_unchanged_nodes():
    @relax.expr_functor.mutator
    class AddToSubtract(relax.PyExprMutator):
        def visit_call_(self, call):
            call = self.visit_expr_post_order(call)
            if call.op.name == "relax.add":
                return R.subtract(R.negative(call.args[0]), call.args[1])
            return call

    mod = _module()
    func = mod["main"]
    m = AddToSubtract(mod)
    new = m.visit_expr(func)
    ops = [b.value.op.name for b in new.body.blocks[0].bindings]
    assert ops == ["relax.exp", "relax.negative", "relax.subtract", "relax.multiply"]
    assert new.params == func.params and relax.analysis.well_formed(new)

    @relax.expr_functor.mutator
    class Nothing(relax.PyExprMutator):
        pass

    assert Nothing(mod).visit_expr(func) is func


def test_mutator_changing_struct_info_remaps_the_variable():
    @relax.expr_functor.mutator
    class SumRows(relax.PyExprMutator):
        def visit_call_(self, call):
            call = self.visit_expr_post_order(call)
            if call.op.name == "relax.exp":
                return R.sum(call.args[0], axis=1, keepdims=True)
            return call

    mod = _module()
    new = SumRows(mod).visit_expr(mod["main"])
    lv = new.body.blocks[0].bindings[0].var
    assert [int(d) for d in lv.struct_info.shape.values] == [2, 1]
    assert new.body.blocks[0].bindings[1].value.args[0] is lv
    tvm.ir.assert_structural_equal(new.ret_struct_info, mod["main"].ret_struct_info)


def test_decorators_check_the_class():
    with pytest.raises(TypeError, match="decorate a subclass of PyExprMutator"):
        relax.expr_functor.mutator(object)
