# Upstream 0.27 schedulable-TIR spellings: T.sblock, s_tir=True on T.prim_func and I.ir_module.
import pytest
import tvm
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@T.prim_func(s_tir=True)
def _addone(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
    for i in range(4):
        with T.sblock("addone"):
            vi = T.axis.remap("S", [i])
            B[vi] = A[vi] + T.float32(1)


@T.prim_func
def _addone_block(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
    T.func_attr({"s_tir": True})
    for i in range(4):
        with T.block("addone"):
            vi = T.axis.remap("S", [i])
            B[vi] = A[vi] + T.float32(1)


def test_sblock_is_block_and_s_tir_is_the_attribute():
    assert T.sblock is T.block
    assert _addone.attrs["s_tir"] is True and _addone.attrs["global_symbol"] == "_addone"
    renamed = _addone_block.with_attr("global_symbol", "_addone")
    tvm.ir.assert_structural_equal(_addone, renamed)
    assert _addone_block.attrs["s_tir"] is True


def test_module_s_tir_marks_every_prim_func_and_no_relax_function():
    @I.ir_module(s_tir=True)
    class Module:
        @T.prim_func
        def f(A: T.Buffer((4,), "float32")):
            for i in range(4):
                with T.sblock("zero"):
                    vi = T.axis.spatial(4, i)
                    A[vi] = T.float32(0)

        @T.prim_func(private=True)
        def g(A: T.Buffer((4,), "float32")):
            T.evaluate(0)

        @R.function
        def main(x: R.Tensor((4,), "float32")):
            return x

    assert Module["f"].attrs["s_tir"] is True and Module["g"].attrs["s_tir"] is True
    assert "global_symbol" not in Module["g"].attrs
    assert "s_tir" not in Module["main"].attrs


def test_prim_func_in_a_plain_module_keeps_its_own_s_tir():
    @I.ir_module
    class Module:
        @T.prim_func(private=True, s_tir=True)
        def f(A: T.Buffer((4,), "float32")):
            T.evaluate(0)

        @T.prim_func
        def g(A: T.Buffer((4,), "float32")):
            T.evaluate(0)

    assert Module["f"].attrs["s_tir"] is True and "global_symbol" not in Module["f"].attrs
    assert "s_tir" not in Module["g"].attrs


def test_s_tir_must_be_a_bool():
    with pytest.raises(TypeError, match="T.prim_func: s_tir must be a bool"):
        T.prim_func(s_tir="yes")
    with pytest.raises(TypeError, match="I.ir_module: s_tir must be a bool"):
        I.ir_module(s_tir=1)


def test_remap_of_one_loop_gives_the_variable_itself():
    @T.prim_func
    def f(A: T.Buffer((4, 4), "float32")):
        for i, j in T.grid(4, 4):
            with T.block("two"):
                vi, vj = T.axis.remap("SS", [i, j])
                A[vi, vj] = T.float32(0)
        for i in range(4):
            with T.block("one"):
                vi = T.axis.remap("S", [i])
                A[vi, 0] = T.float32(1)

    assert isinstance(f, tvm.tir.PrimFunc)
    assert "A[vi_1, 0] = T.float32(1.0)" in f.script()
