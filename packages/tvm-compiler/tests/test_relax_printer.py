# The Relax printer: functions and modules in upstream's TVMScript text form, symbolic dims
# declared once and named like the TIR printer names them.
import numpy as np
from tvm import relax, tir, topi
from tvm.relax import op as R


def _module():
    n = tir.Var("n", "int64")
    x = relax.Var("x", relax.TensorStructInfo([n, 4], "float32"))
    w = relax.Var("w", relax.TensorStructInfo([4, 8], "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w]):
        with bb.dataflow():
            lv = bb.emit(R.matmul(x, w))
            lv1 = bb.emit_te(topi.add, lv, lv)
            gv = bb.emit_output(R.sum(lv1, axis=1))
        bb.emit_func_output(gv)
    return bb.get()


def test_module_prints_as_an_ir_module_class():
    text = _module().script()
    assert "@I.ir_module\nclass Module:" in text
    assert "    @T.prim_func(private=True)\n    def add(" in text
    assert (
        '    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 8), '
        'dtype="float32")) -> R.Tensor(("n",), dtype="float32"):\n        n = T.int64()\n'
        "        cls = Module\n        with R.dataflow():\n"
    ) in text
    # call_tir spells its result's struct info in the call: its binding has no annotation.
    assert (
        '            lv1 = R.call_tir(cls.add, (lv,), out_sinfo=R.Tensor((n, 8), dtype="float32"))'
    ) in text
    assert "R.sum(lv1, axis=[1], keepdims=False)" in text
    assert "            R.output(gv)\n        return gv" in text


def test_function_struct_info_and_expression_forms():
    c = relax.Var("c", relax.PrimStructInfo("bool"))
    t = relax.Var(
        "t", relax.TupleStructInfo([relax.ShapeStructInfo(ndim=2), relax.ObjectStructInfo()])
    )
    bb = relax.BlockBuilder()
    with bb.function("f", [c, t], private=True, pure=False):
        a = bb.emit(relax.const(np.zeros(3, "float32")))
        b = bb.emit(relax.If(c, R.exp(a), a))
        s = bb.emit(relax.ShapeExpr([1, 2]))
        bb.emit(R.call_packed("log", b, sinfo_args=relax.ObjectStructInfo()))
        bb.emit_func_output(relax.Tuple([b, s, t[0], relax.PrimValue(3), relax.StringImm("hi")]))
    text = bb.get()["f"].script()
    assert "@R.function(pure=False, private=True)\n" in text
    assert 'def main(c: R.Prim("bool"), t: R.Tuple(R.Shape(ndim=2), R.Object))' in text
    # A tensor constant prints as upstream's metadata reference (the section is left out).
    assert 'gv: R.Tensor((3,), dtype="float32") = metadata["relax.expr.Constant"][0]' in text
    assert text.endswith(
        "\n\n# Metadata omitted. Use show_meta=True in script() method to show it."
    )
    assert (
        "    if c:\n"
        '        gv2: R.Tensor((3,), dtype="float32") = R.exp(gv)\n'
        "    else:\n"
        '        gv2: R.Tensor((3,), dtype="float32") = gv\n'
    ) in text
    assert "R.shape([1, 2])" in text
    assert 'R.call_packed("log", gv2, sinfo_args=(R.Object,))' in text
    assert 'return (gv2, gv3, gv5, R.prim_value(3), R.str("hi"))' in text
    assert str(relax.TensorStructInfo(ndim=2, dtype="int8")) == 'R.Tensor(dtype="int8", ndim=2)'


def test_a_seq_expr_prints_on_its_own_as_its_bindings_then_its_value():
    x = relax.Var("x", relax.TensorStructInfo([2], "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        y = bb.emit(R.exp(x))
        bb.emit_func_output(R.add(y, x))
    body = bb.get()["main"].body
    assert str(body) == (
        'gv: R.Tensor((2,), dtype="float32") = R.exp(x)\n'
        'gv1: R.Tensor((2,), dtype="float32") = R.add(gv, x)\n'
        "gv1"
    )
