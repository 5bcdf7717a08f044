# BlockBuilder low-level block stack, Python tuples as relax Tuples, Type-named accessors.
import numpy as np
import pytest
import tvm
from tvm import relax as rx
from tvm.script import relax as R


def _vars():
    return rx.Var("x", R.Tensor((2, 3), "float32")), rx.Var("y", R.Tensor((3,), "float32"))


def test_begun_blocks_nest_as_a_stack():
    x, y = _vars()
    bb = rx.BlockBuilder()
    bb._begin_binding_block()
    gv0 = bb.emit(rx.op.add(x, y))
    bb._begin_dataflow_block()
    lv = bb.emit(rx.op.multiply(gv0, y))
    bb.emit_output(rx.op.multiply(lv, lv))
    inner = bb._end_block()
    gv1 = bb.emit(rx.op.add(x, y))  # back in the binding block under it
    outer = bb._end_block()
    assert isinstance(inner, rx.DataflowBlock) and len(inner.bindings) == 2
    assert not isinstance(outer, rx.DataflowBlock)
    assert [b.var for b in outer.bindings] == [gv0, gv1]
    with pytest.raises(RuntimeError, match="_end_block: no block is open"):
        bb._end_block()


def test_nested_python_tuples_become_relax_tuples():
    x, y = _vars()
    bb = rx.BlockBuilder()
    with bb.function("f", [x, y]):
        pair = bb.emit((x, (y, x)))
        bb.emit_func_output(((pair, x), y))
    func = bb.get()["f"]
    assert isinstance(func.body.blocks[0].bindings[0].value, rx.Tuple)
    inner = func.body.blocks[0].bindings[0].value.fields[1]
    assert isinstance(inner, rx.Tuple) and inner.fields[0] is y
    out = func.body.body
    assert isinstance(out, rx.Tuple) and isinstance(out.fields[0], rx.Tuple)
    assert isinstance(bb.normalize((x, y)).struct_info, rx.TupleStructInfo)
    with pytest.raises(TypeError, match="Tuple: field 0 must be a relax Expr"):
        bb.normalize(("not an expr", x))


def test_type_named_accessors():
    x, y = _vars()
    m = tvm.tir.Var("m", "int64")
    bb = rx.BlockBuilder()
    with bb.function("f", [x, y]):
        cast = bb.match_cast(y, R.Tensor((m,), "float32"))
        out = bb.emit(rx.call_dps_packed("ext", [x], R.Tensor((2, 3), "float32")))
        bb.emit_func_output(out)
    func = bb.get()["f"]
    mc, call_binding = func.body.blocks[0].bindings
    assert mc.ty is mc.struct_info and cast.ty is cast.struct_info
    assert call_binding.value.ty_args is call_binding.value.sinfo_args
    assert len(call_binding.value.ty_args) == 1
    assert func.ret_ty is func.ret_struct_info


def test_function_bind_params_takes_exprs_and_arrays():
    x, y = _vars()
    bb = rx.BlockBuilder()
    with bb.function("f", [x, y]):
        bb.emit_func_output(bb.emit(rx.op.add(x, y)))
    func = bb.get()["f"]
    other = rx.Var("other", R.Tensor((2, 3), "float32"))
    by_var = func.bind_params({x: other})
    assert list(by_var.params) == [y]
    assert by_var.body.blocks[0].bindings[0].value.args[0] is other
    by_name = func.bind_params({"y": np.ones(3, "float32")})
    assert list(by_name.params) == [x]
    assert isinstance(by_name.body.blocks[0].bindings[0].value.args[1], rx.Constant)
    with pytest.raises(TypeError, match="Function.bind_params: binding_map must be a dict"):
        func.bind_params([x])


def _seq_adding_consts():
    bb = rx.BlockBuilder()
    with bb.function("inner", []):
        a = bb.emit(rx.const(1, "int64"), "a")
        b = bb.emit(rx.const(2, "int64"), "b")
        bb.emit_func_output(bb.emit(rx.op.add(a, b), "c"))
    return bb.get()["inner"].body


def test_emitted_seq_expr_is_unwrapped_into_the_block():
    seq = _seq_adding_consts()
    bb = rx.BlockBuilder()
    with bb.function("f", [], private=True):
        d = bb.emit(rx.const(3, "int64"), "d")
        e = bb.emit(seq, "e")
        bb.emit_func_output(bb.emit(rx.op.add(d, e), "f"))
    (block,) = bb.get()["f"].body.blocks
    assert [b.var.name_hint for b in block.bindings] == ["d", "a", "b", "c", "e", "f"]
    assert block.bindings[4].value is seq.body  # e = c


def test_non_dataflow_seq_expr_splits_the_dataflow_block_around_it():
    seq = _seq_adding_consts()
    bb = rx.BlockBuilder()
    with bb.function("f", [], private=True):
        with bb.dataflow():
            bb.emit(rx.const(3, "int64"), "d")
            e = bb.emit(seq, "e")
            out = bb.emit_output(e, "g")
        bb.emit_func_output(out)
    blocks = bb.get()["f"].body.blocks
    assert [type(b).__name__ for b in blocks] == ["DataflowBlock", "BindingBlock", "DataflowBlock"]
    assert [[b.var.name_hint for b in blk.bindings] for blk in blocks] == [
        ["d"],
        ["a", "b", "c"],
        ["e", "g"],
    ]
