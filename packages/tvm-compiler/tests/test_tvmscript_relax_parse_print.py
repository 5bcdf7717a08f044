"""TVMScript Relax: each construct parses, prints in upstream's form, and round-trips."""
# ruff: noqa: F821, F841  (TVMScript bodies are IR: their names are bindings, cls is the module)

import textwrap

import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.script import ir as I  # noqa: N812
from tvm.script import relax as R  # noqa: N812
from tvm.script import tir as T  # noqa: N812


def _same_module(a, b):
    assert {g.name_hint for g in a.functions} == {g.name_hint for g in b.functions}
    for gv in a.functions:
        tvm.ir.assert_structural_equal(a[gv.name_hint], b[gv.name_hint])


def _round_trip(mod):
    text = mod.script()
    again = tvm.script.from_source(text)
    if isinstance(mod, tvm.IRModule):
        _same_module(mod, again)
    else:
        tvm.ir.assert_structural_equal(mod, again)
    assert again.script() == text
    return text


@I.ir_module
class Example:
    @T.prim_func
    def add(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
        for i in range(128):
            with T.block("B"):
                vi = T.axis.spatial(128, i)
                B[vi] = A[vi] + T.float32(1)

    @R.function
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        with R.dataflow():
            y = R.add(x, x)
            R.output(y)
        return y


EXAMPLE_TEXT = """\
# from tvm.script import ir as I
# from tvm.script import relax as R
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def add(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
        # with T.block("root"):
        for i in range(128):
            with T.block("B"):
                vi = T.axis.spatial(128, i)
                T.reads(A[vi])
                T.writes(B[vi])
                B[vi] = A[vi] + T.float32(1.0)

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            y: R.Tensor((n,), dtype="float32") = R.add(x, x)
            R.output(y)
        return y"""


def test_issue_example_parses_to_relax_ir():
    main = Example["main"]
    assert isinstance(main, relax.Function)
    n = main.params[0].struct_info.shape.values[0]
    assert isinstance(n, tvm.tir.Var) and n.dtype == "int64"
    block = main.body.blocks[0]
    assert isinstance(block, relax.DataflowBlock)
    binding = block.bindings[0]
    assert type(binding.var) is relax.Var  # R.output makes it visible after the block
    assert binding.value.op.name == "relax.add"
    # the dims in the result annotation are the parameter's
    assert main.ret_struct_info.shape.values[0] is n


def test_issue_example_prints_as_upstream_and_round_trips():
    assert Example.script() == EXAMPLE_TEXT
    assert str(Example) == EXAMPLE_TEXT
    _round_trip(Example)


def test_standalone_function_header_and_symbolic_dims():
    text = Example["main"].script()
    assert text.startswith(
        "# from tvm.script import relax as R\n# from tvm.script import tir as T\n\n@R.function\n"
    )
    _round_trip(Example["main"])


@I.ir_module
class Constructs:
    @T.prim_func
    def add(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
        for i in range(128):
            B[i] = A[i]

    @R.function
    def helper(x: R.Tensor((2, 4), "float32")) -> R.Tensor((2, 4), "float32"):
        return x

    @R.function(pure=False, private=True)
    def f2(
        x: R.Tensor((2, "m"), "float32"),
        s: R.Shape(["a", "b"]),
        p: R.Prim("bool"),
        o: R.Object,
        t: R.Tuple(R.Tensor((2,), "int32"), R.Prim("int64")),
    ):
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        y = R.match_cast(x, R.Tensor((2, 4), "float32"))
        z = R.call_tir(cls.add, (y,), out_sinfo=R.Tensor((128,), "float32"))
        c = R.const(1.0, "float32")
        k = R.call_packed("hello", y, sinfo_args=R.Object)
        w = R.call_pure_packed("hello2", y, sinfo_args=R.Tensor((2, 4), "float32"))
        q = R.matmul(y, R.permute_dims(y))
        r = R.nn.relu(q)
        pv = R.prim_value(T.int64(3))
        sh = R.shape([m, 4])
        st = R.str("abc")
        dt = R.dtype("float32")
        tg = t[0]
        tt = (r, c)
        h = Constructs.helper(y)
        if p:
            v = R.add(r, r)
            res = R.multiply(v, v)
        else:
            res = r
        R.assert_op(R.const(True, "bool"), format="x")
        R.print(r, format="r={}")
        return (res, tt)


CONSTRUCTS_F2 = """\
    @R.function(pure=False, private=True)
    def f2(x: R.Tensor((2, "m"), dtype="float32"), s: R.Shape(["a", "b"]), p: R.Prim("bool"), o: R.Object, t: R.Tuple(R.Tensor((2,), dtype="int32"), R.Prim("int64"))) -> R.Tuple(R.Tensor((2, 2), dtype="float32"), R.Tuple(R.Tensor((2, 2), dtype="float32"), R.Tensor((), dtype="float32"))):
        m = T.int64()
        a = T.int64()
        b = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Module
        y: R.Tensor((2, 4), dtype="float32") = R.match_cast(x, R.Tensor((2, 4), dtype="float32"))
        z = R.call_tir(cls.add, (y,), out_sinfo=R.Tensor((128,), dtype="float32"))
        c: R.Tensor((), dtype="float32") = R.const(1.0, "float32")
        k: R.Object = R.call_packed("hello", y, sinfo_args=(R.Object,))
        w: R.Tensor((2, 4), dtype="float32") = R.call_pure_packed("hello2", y, sinfo_args=(R.Tensor((2, 4), dtype="float32"),))
        gv: R.Tensor((4, 2), dtype="float32") = R.permute_dims(y, axes=None)
        q: R.Tensor((2, 2), dtype="float32") = R.matmul(y, gv, out_dtype="void")
        r: R.Tensor((2, 2), dtype="float32") = R.nn.relu(q)
        pv: R.Prim(value=3) = R.prim_value(3)
        sh: R.Shape([m, 4]) = R.shape([m, 4])
        st: R.Object = R.str("abc")
        dt: R.Object = R.dtype("float32")
        tg: R.Tensor((2,), dtype="int32") = t[0]
        tt: R.Tuple(R.Tensor((2, 2), dtype="float32"), R.Tensor((), dtype="float32")) = r, c
        h: R.Tensor((2, 4), dtype="float32") = cls.helper(y)
        if p:
            v: R.Tensor((2, 2), dtype="float32") = R.add(r, r)
            res: R.Tensor((2, 2), dtype="float32") = R.multiply(v, v)
        else:
            res: R.Tensor((2, 2), dtype="float32") = r
        R.assert_op(R.const(True, "bool"), format=R.str("x"))
        R.print(r, format=R.str("r={}"))
        return (res, tt)"""  # noqa: E501


def test_each_construct_prints_exactly():
    text = Constructs.script()
    assert CONSTRUCTS_F2 in text
    # TIR functions first, then Relax ones, each by name (upstream's order)
    assert text.index("def add") < text.index("def f2") < text.index("def helper")


def test_constructs_parse_to_the_right_nodes():
    f2 = Constructs["f2"]
    assert not f2.is_pure and "global_symbol" not in f2.attrs
    assert f2.attrs["relax.force_pure"]
    bindings = f2.body.blocks[0].bindings
    by_name = {b.var.name_hint: b for b in bindings}
    assert isinstance(by_name["y"], relax.MatchCast)
    assert by_name["z"].value.op.name == "relax.call_tir"
    assert by_name["z"].value.args[0].name_hint == "add"
    assert isinstance(by_name["k"].value.op, relax.ExternFunc)
    assert isinstance(by_name["res"].value, relax.If)
    assert isinstance(by_name["tg"].value, relax.TupleGetItem)
    assert isinstance(by_name["sh"].value, relax.ShapeExpr)
    assert isinstance(by_name["st"].value, relax.StringImm)
    assert isinstance(by_name["dt"].value, relax.DataTypeImm)
    assert isinstance(by_name["h"].value.op, tvm.ir.GlobalVar)
    assert by_name["h"].value.struct_info.shape.values[1].value == 4


def test_constructs_round_trip():
    _round_trip(Constructs)


def test_closure_generic_ops_and_tensor_condition_round_trip():
    @R.function
    def outer(x: R.Tensor((3,), "float32"), c: R.Tensor((), "bool")) -> R.Tensor((3,), "float32"):
        @R.function
        def inner(y: R.Tensor((3,), "float32")) -> R.Tensor((3,), "float32"):
            z = R.add(y, x)
            return z

        a = inner(x)
        b = R.sum(a, axis=[0], keepdims=True)
        s = R.nn.softmax(a, axis=0)
        if c:
            r = s
        else:
            r = R.exp(s)
        return r

    text = _round_trip(outer)
    assert '        def inner(y: R.Tensor((3,), dtype="float32"))' not in text
    assert '    @R.function\n    def inner(y: R.Tensor((3,), dtype="float32"))' in text
    assert "R.sum(a, axis=[0], keepdims=True)" in text
    assert "R.nn.softmax(a, axis=0)" in text
    closure = outer.body.blocks[0].bindings[0].value
    assert isinstance(closure, relax.Function)


def test_every_relax_op_is_reachable_under_its_r_name():
    wrapped = {"assert_op", "call_dps_packed", "call_packed", "call_pure_packed", "call_tir"}
    wrapped |= {"call_tir_inplace", "print", "call_builtin_with_ctx"}  # R. sinfo / format spellings
    wrapped |= {"invoke_closure", "invoke_pure_closure"}
    for name in relax.op.__all__:
        if name not in wrapped:
            assert getattr(R, name) is getattr(relax.op, name)
    assert R.nn.relu is relax.op.nn.relu


def test_closure_calls_take_the_printed_sinfo_spellings():
    # LazyTransformParams prints sinfo_args=(R.Object,): a bare R.Object parses back
    @R.function(pure=False)
    def main(f: R.Callable((R.Prim("int64"),), R.Object)):
        a = R.invoke_pure_closure(f, (R.prim_value(1),), sinfo_args=(R.Object,))
        b = R.invoke_closure(f, (R.prim_value(2),), sinfo_args=R.Object)
        return (a, b)

    a, b = (binding.value for binding in main.body.blocks[0].bindings)
    assert a.op.name == "relax.invoke_pure_closure" and b.op.name == "relax.invoke_closure"
    assert all(isinstance(v.sinfo_args[0], relax.ObjectStructInfo) for v in (a, b))
    with pytest.raises(TypeError, match="R.invoke_closure"):
        R.invoke_closure(main.params[0], (), sinfo_args=5)


def test_parsed_nodes_carry_spans():
    binding = Example["main"].body.blocks[0].bindings[0]
    with open(__file__) as f:
        line = next(i for i, t in enumerate(f, 1) if t.strip() == "y = R.add(x, x)")
    assert binding.span.line == line
    assert binding.span.source_name.name.endswith("test_tvmscript_relax_parse_print.py")
    assert binding.span.column == 13


def test_call_tir_module_compiles_and_runs():
    @I.ir_module
    class Mod:
        @T.prim_func
        def add(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
            for i in range(128):
                with T.block("B"):
                    vi = T.axis.spatial(128, i)
                    B[vi] = A[vi] + T.float32(1)

        @R.function
        def main(x: R.Tensor((128,), "float32")) -> R.Tensor((128,), "float32"):
            with R.dataflow():
                y = R.call_tir(cls.add, (x,), out_sinfo=R.Tensor((128,), "float32"))
                R.output(y)
            return y

    vm = relax.VirtualMachine(tvm.compile(Mod, target="llvm"), tvm.cpu())
    a = np.arange(128, dtype="float32")
    np.testing.assert_allclose(vm["main"](tvm.runtime.tensor(a)).numpy(), a + 1)


@pytest.mark.skipif(
    not hasattr(relax.transform, "LegalizeOps"), reason="needs relax.transform.LegalizeOps"
)
def test_issue_example_runs():
    vm = relax.VirtualMachine(tvm.compile(Example, target="llvm"), tvm.cpu())
    a = np.arange(5, dtype="float32")
    np.testing.assert_allclose(vm["main"](tvm.runtime.tensor(a)).numpy(), a + a)


def _diagnostic(src):
    with pytest.raises(tvm.error.DiagnosticError) as info:
        tvm.script.from_source(textwrap.dedent(src))
    return str(info.value)


def test_undefined_name_is_a_rendered_diagnostic():
    text = _diagnostic("""
        @R.function
        def f(x: R.Tensor((3,), "float32")) -> R.Tensor((3,), "float32"):
            y = R.add(x, undefined_name)
            return y
        """)
    assert text == (
        "error: name 'undefined_name' is not defined\n"
        " --> <string>:4:18\n"
        "   |\n"
        " 4 |     y = R.add(x, undefined_name)\n"
        "   |                  ^^^^^^^^^^^^^^"
    )


def test_dtype_typo_names_r_tensor():
    text = _diagnostic("""
        @R.function
        def f(x: R.Tensor((3,), "flaot32")) -> R.Tensor((3,), "float32"):
            return x
        """)
    assert text.startswith("error: R.Tensor: ")
    assert "'flaot32'" in text and "<string>:3:10" in text


def test_dataflow_without_output_and_if_without_else():
    text = _diagnostic("""
        @R.function
        def f(x: R.Tensor((3,), "float32")) -> R.Tensor((3,), "float32"):
            with R.dataflow():
                y = R.add(x, x)
            return y
        """)
    assert "a dataflow block must end with R.output(...)" in text and "<string>:5:9" in text
    text = _diagnostic("""
        @R.function
        def f(x: R.Tensor((3,), "float32"), c: R.Prim("bool")) -> R.Tensor((3,), "float32"):
            if c:
                y = x
            return y
        """)
    assert "an if in Relax needs an else branch" in text and "<string>:4:5" in text


def test_shape_mismatch_and_loops_are_diagnostics():
    text = _diagnostic("""
        @R.function
        def f(x: R.Tensor((3,), "float32"), y: R.Tensor((4,), "float32")):
            z = R.add(x, y)
            return z
        """)
    assert "do not broadcast" in text and "<string>:4:5" in text
    text = _diagnostic("""
        @R.function
        def f(x: R.Tensor((3,), "float32")):
            for i in range(3):
                x = x
            return x
        """)
    assert "a for loop" in text and "<string>:4:5" in text


def test_bad_annotation_is_a_diagnostic():
    text = _diagnostic("""
        @R.function
        def f(x: 3):
            return x
        """)
    assert "expected struct info such as R.Tensor" in text and "<string>:3:10" in text


def test_a_shape_op_on_two_constants_keeps_its_node_and_int64_dtype():
    # A Relax shape's ints print bare (int64); `6 // 2 + 1` would fold while parsing.
    folded = tvm.tir.FloorDiv(tvm.tir.const(6, "int64"), tvm.tir.const(2, "int64")) + 1
    x = relax.Var("x", relax.TensorStructInfo([2, folded], "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        bb.emit_func_output(x)
    text = _round_trip(bb.get()["main"])
    assert 'x: R.Tensor((2, T.FloorDiv(T.int64(6), T.int64(2)) + 1), dtype="float32")' in text


def test_symbolic_variables_declared_in_one_tuple_assignment():
    @R.function
    def f(x: R.Tensor(("n", "m"), "float32")):
        n, m = T.int64(), T.int64()
        y = R.reshape(x, (m, n))
        return y

    n, m = f.params[0].struct_info.shape.values
    assert (n.name, m.name) == ("n", "m")
    assert list(f.ret_struct_info.shape.values) == [m, n]
    assert "n = T.int64()\n    m = T.int64()" in f.script()
