# Tests of tvm.te: placeholder, compute, reductions and create_prim_func, with their errors.
import numpy as np
import pytest
import tvm
from tvm import te, tir


def test_matmul_prim_func_structure():
    n = 8
    a = te.placeholder((n, n), name="A")
    b = te.placeholder((n, n), name="B")
    k = te.reduce_axis((0, n), name="k")
    c = te.compute((n, n), lambda i, j: te.sum(a[i, k] * b[k, j], axis=k), name="C")
    func = te.create_prim_func([a, b, c])
    assert len(func.params) == 3 and [buf.name for buf in func.buffer_map.values()] == [
        "A",
        "B",
        "C",
    ]
    text = func.script()
    assert 'with T.block("C"):' in text and 'v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])' in text
    assert "with T.init():" in text and "C[v_i, v_j] = T.float32(0.0)" in text
    root = func.body.block
    loop = root.body
    assert [loop.loop_var.name, loop.body.loop_var.name, loop.body.body.loop_var.name] == [
        "i",
        "j",
        "k",
    ]
    block = loop.body.body.body.block
    assert [r.buffer.name for r in block.reads] == ["A", "B"]
    assert [w.buffer.name for w in block.writes] == ["C"]


def test_max_min_reductions_and_symbolic_shape():
    n = te.var("n")
    a = te.placeholder((n,), name="A")
    k = te.reduce_axis((0, n), name="k")
    mx = te.compute((1,), lambda i: te.max(a[k], axis=k), name="mx")
    func = te.create_prim_func([a, mx])
    assert "T.max(" in func.script() and "-inf" in func.script()
    mn = te.compute((1,), lambda i: te.min(a[k], axis=k), name="mn")
    assert "inf" in te.create_prim_func([a, mn]).script()


def test_elementwise_max_min_and_math_helpers_run():
    # te.max / te.min on two expressions combine elementwise; te re-exports the TIR math helpers.
    a = te.placeholder((8,), name="A")
    relu = te.compute((8,), lambda i: te.max(a[i], te.const(0.0, "float32")), name="relu")
    clip = te.compute((8,), lambda i: te.min(a[i], 1), name="clip")
    ex = te.compute(
        (8,), lambda i: te.if_then_else(a[i] > 0, te.exp(a[i]), te.sqrt(-a[i])), name="ex"
    )
    f = tvm.compile(te.create_prim_func([a, relu, clip, ex]))["main"]
    x = np.linspace(-2, 2, 8, dtype="float32")
    outs = [np.zeros(8, "float32") for _ in range(3)]
    f(x, *outs)
    np.testing.assert_array_equal(outs[0], np.maximum(x, 0))
    np.testing.assert_array_equal(outs[1], np.minimum(x, 1))
    np.testing.assert_allclose(outs[2], np.where(x > 0, np.exp(x), np.sqrt(np.abs(x))), rtol=1e-6)
    with pytest.raises(TypeError, match="max: 'where' and 'init' need reduce axes"):
        te.max(a[0], 0.0, where=a[0] > 0)


def test_intermediate_tensor_becomes_allocation():
    a = te.placeholder((4,), name="A")
    b = te.compute((4,), lambda i: a[i] * 2.0, name="B")
    c = te.compute((4,), lambda i: b[i] + 1.0, name="C")
    func = te.create_prim_func([a, c])
    assert [buf.name for buf in func.body.block.alloc_buffers] == ["B"]


def test_errors_are_precise():
    a = te.placeholder((4,), name="A")
    stray = te.var("stray")
    bad = te.compute((4,), lambda i: a[i] + stray, name="B")
    with pytest.raises(ValueError, match="variable 'stray' is used but not bound"):
        te.create_prim_func([a, bad])
    k = te.reduce_axis((0, 4), name="k")
    loose = te.compute((4,), lambda i: a[k], name="L")
    with pytest.raises(ValueError, match="variable 'k' is used but not bound"):
        te.create_prim_func([a, loose])
    with pytest.raises(ValueError, match="must be the whole body"):
        te.compute((1,), lambda i: te.sum(a[k], axis=k) + 1.0, name="S")
    with pytest.raises(ValueError, match="fcompute takes 2 index arguments but the shape has 1"):
        te.compute((4,), lambda i, j: a[i], name="W")
    b = te.compute((4,), lambda i: a[i] * 2.0, name="B2")
    with pytest.raises(ValueError, match="placeholder 'A' is used but is not in the argument list"):
        te.create_prim_func([b])
    with pytest.raises(IndexError, match="tensor 'A' has 1 dimensions, got 2 indices"):
        a[0, 1]
    with pytest.raises(TypeError, match="args must be te Tensors or Vars"):
        te.create_prim_func([a, 3])


def test_scalar_parameter():
    a = te.placeholder((4,), name="A")
    s = te.var("s", "float32")
    b = te.compute((4,), lambda i: a[i] * s, name="B")
    func = te.create_prim_func([a, b, s])
    assert func.params[2] is s and s not in func.buffer_map
    assert tir.analysis.undefined_vars(func) == []


def test_intermediate_tensor_held_only_by_a_body_survives_collection():
    # Regression: te tensors were found from the buffers their consumers load through a weak
    # map, so an intermediate that only a helper's closure had held was collected and
    # create_prim_func reported its buffer as an unbound variable.
    import gc

    def helper(x):
        inner = te.compute(x.shape, lambda i: x[i] * 2.0, name="inner")
        return te.compute(x.shape, lambda i: inner[i] + 1.0, name="outer")

    x = te.placeholder((4,), name="x")
    out = helper(x)
    gc.collect()
    func = te.create_prim_func([x, out])
    assert "inner" in func.script()


def test_int64_shapes_give_loops_whose_var_min_and_extent_share_the_dtype():
    # te.compute and te.reduce_axis over int64 extents once started their loops at an int32 0
    # (a For and a block iter var of mixed dtypes, which the TVMScript round trip refuses).
    from tvm.tir import stmt as S
    from tvm.tir.functor import post_order_visit

    n = tvm.tir.Var("n", "int64")
    a = te.placeholder((n, tvm.tir.IntImm("int64", 4)), name="A")
    b = te.compute(a.shape, lambda i, j: a[i, j] + 1.0, name="B")
    k = te.reduce_axis((0, tvm.tir.IntImm("int64", 4)), name="k")
    c = te.compute((n,), lambda i: te.sum(a[i, k], axis=k), name="C")
    f = te.create_prim_func([a, b, c])
    seen = []

    def check(node):
        if isinstance(node, S.For):
            seen.append((str(node.loop_var.dtype), str(node.min.dtype), str(node.extent.dtype)))
        if isinstance(node, S.Block):
            for iv in node.iter_vars:
                seen.append((str(iv.var.dtype), str(iv.dom.min.dtype), str(iv.dom.extent.dtype)))

    post_order_visit(f.body, check)
    assert len(seen) == 8
    assert set(seen) == {("int64", "int64", "int64")}
    lib = tvm.compile(f)
    x = np.arange(12, dtype="float32").reshape(3, 4)
    got_b, got_c = np.zeros((3, 4), "float32"), np.zeros(3, "float32")
    lib(x, got_b, got_c)
    np.testing.assert_array_equal(got_b, x + 1)
    np.testing.assert_array_equal(got_c, x.sum(axis=1))
