# relax.analysis.has_reshape_pattern: which PrimFuncs only move elements in row-major order;
# each answer is apache-tvm 0.27's for the same function.
import pytest
import tvm
from tvm import relax, te, tir
from tvm.relax.analysis import has_reshape_pattern


def _legalized(shape, build):
    x = relax.Var("x", relax.TensorStructInfo(shape, "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        bb.emit_func_output(bb.emit(build(x)))
    mod = relax.transform.LegalizeOps()(bb.get())
    [prim] = [f for gv, f in mod.functions.items() if gv.name_hint != "main"]
    return prim


n = tir.Var("n", "int64")


@pytest.mark.parametrize(
    "shape, build, expected",
    [
        ((2, 3, 4), lambda x: relax.op.reshape(x, (6, 4)), True),
        ((2, 3, 4), lambda x: relax.op.reshape(x, (4, 6)), True),
        ((2, 3, 4), lambda x: relax.op.reshape(x, (24,)), True),
        ((2, 3, 4), lambda x: relax.op.expand_dims(x, 0), True),
        ((2, 3, 4), lambda x: relax.op.permute_dims(x, [0, 2, 1]), False),
        ((2, 3, 4), lambda x: relax.op.add(x, x), False),
        ((2, 3, 4), lambda x: relax.op.negative(x), False),
        ((n, 4), lambda x: relax.op.reshape(x, (n * 4,)), True),
        ((n, 2, 3), lambda x: relax.op.reshape(x, (n, 6)), True),
        ((n, 6), lambda x: relax.op.reshape(x, (n, 3, 2)), True),
        ((2, n), lambda x: relax.op.reshape(x, (n, 2)), True),
        ((2, n), lambda x: relax.op.permute_dims(x, [1, 0]), False),
    ],
)
def test_legalized_ops(shape, build, expected):
    assert has_reshape_pattern(_legalized(shape, build)) is expected


def test_te_functions():
    a = te.placeholder((4, 6), name="a")
    copy = te.compute((4, 6), lambda i, j: a[i, j], name="copy")
    assert has_reshape_pattern(te.create_prim_func([a, copy])) is True
    manual = te.compute((6, 4), lambda i, j: a[(i * 4 + j) // 6, (i * 4 + j) % 6], name="rs")
    assert has_reshape_pattern(te.create_prim_func([a, manual])) is True
    # same element count, wrong order
    scrambled = te.compute((6, 4), lambda i, j: a[(i * 4 + j) % 4, (i * 4 + j) // 4], name="bad")
    assert has_reshape_pattern(te.create_prim_func([a, scrambled])) is False
    # fewer elements: a slice, not a reshape
    part = te.compute((3, 4), lambda i, j: a[i, j], name="slice")
    assert has_reshape_pattern(te.create_prim_func([a, part])) is False
    # a value computed from the element is no copy
    scaled = te.compute((4, 6), lambda i, j: a[i, j] * 2.0, name="scaled")
    assert has_reshape_pattern(te.create_prim_func([a, scaled])) is False


def test_bad_input():
    with pytest.raises(TypeError, match="has_reshape_pattern: func must be a tir PrimFunc"):
        has_reshape_pattern(tvm.IRModule())
