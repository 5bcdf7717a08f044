"""AnnotateTIROpPattern, FuseOps and FuseTIR: patterns as upstream assigns them, groups as
upstream's partitioner makes them (structurally equal to hand-built modules), the fused kernels
computing what the unfused ones did, and copy-on-write."""

import numpy as np
import pytest
import tvm
from tvm import relax, te, tir, topi
from tvm.relax import op as R
from tvm.relax import transform


def _pattern(fcompute, *shapes):
    ts = [te.placeholder(s, "float32", name=f"a{i}") for i, s in enumerate(shapes)]
    func = te.create_prim_func([*ts, fcompute(*ts)])
    annotated = transform.AnnotateTIROpPattern()(tvm.IRModule({"f": func}))
    return annotated["f"].attrs["op_pattern"]


# Each value is what apache-tvm 0.27's AnnotateTIROpPattern gives the same te computation.
_PATTERNS = {
    "add": (lambda a, b: topi.add(a, b), 0, (4, 3), (4, 3)),
    "add broadcasting a row": (lambda a, b: topi.add(a, b), 0, (4, 3), (3,)),
    "add broadcasting a unit dim": (lambda a, b: topi.add(a, b), 0, (4, 3), (4, 1)),
    "expand_dims": (lambda a: topi.expand_dims(a, 0), 1, (3,)),
    "transpose": (lambda a: topi.transpose(a), 2, (4, 3)),
    "reshape": (lambda a: topi.reshape(a, (12,)), 2, (4, 3)),
    "strided_slice": (lambda a: topi.strided_slice(a, [1, 0], [3, 3]), 2, (4, 3)),
    "pad": (lambda a: topi.nn.pad(a, [1, 1], [1, 1]), 2, (4, 3)),
    "concat": (lambda a, b: topi.concatenate([a, b]), 2, (4, 3), (4, 3)),
    "constant fill": (lambda a: te.compute((4, 3), lambda i, j: tir.const(1.0)), 0, (4, 3)),
    "sum": (lambda a: topi.sum(a, axis=1), 3, (4, 3)),
    "sum of all": (lambda a: topi.sum(a), 3, (4, 3)),
    "sum then exp": (lambda a: topi.exp(topi.sum(a, axis=1)), 4, (4, 3)),
    "exp then sum": (lambda a: topi.sum(topi.exp(a), axis=1), 3, (4, 3)),
    "softmax": (lambda a: topi.nn.softmax(a), 4, (4, 3)),
    "dense": (lambda a, b: topi.nn.dense(a, b), 4, (4, 3), (5, 3)),
    "max_pool": (
        lambda a: topi.nn.pool2d(a, (2, 2), (1, 1), (1, 1), (0, 0, 0, 0), "max"),
        4,
        (1, 1, 4, 4),
    ),
    "a fixed row": (lambda a: te.compute((4, 3), lambda i, j: a[0, j]), 2, (4, 3)),
}


@pytest.mark.parametrize("name", sorted(_PATTERNS))
def test_op_pattern_is_upstreams(name):
    fcompute, expected, *shapes = _PATTERNS[name]
    assert _pattern(fcompute, *shapes) == expected


def test_op_pattern_of_a_gather_is_opaque():
    # Regression: an index read from a tensor (take) was taken as injective; upstream's
    # UsesVar sees the index tensor's data variable, which no store index is: kOpaque.
    a = te.placeholder((4, 3), "float32", name="a")
    idx = te.placeholder((2,), "int64", name="idx")
    out = te.compute((2, 3), lambda i, j: a[idx[i], j], name="take")
    func = te.create_prim_func([a, idx, out])
    mod = transform.AnnotateTIROpPattern()(tvm.IRModule({"f": func}))
    assert mod["f"].attrs["op_pattern"] == int(relax.analysis.OpPatternKind.kOpaque)


def _t(*shape, dtype="float32"):
    return relax.TensorStructInfo(shape, dtype)


# Legalised relax ops and the patterns apache-tvm 0.27 gives its own legalisations of them.
_OP_PATTERNS = {
    "conv2d": (lambda p: R.nn.conv2d(p(1, 3, 8, 8), p(4, 3, 3, 3), padding=1), [4]),
    "softmax": (lambda p: R.nn.softmax(p(4, 8)), [4]),
    "layer_norm": (lambda p: R.nn.layer_norm(p(4, 8), p(8), p(8), axes=[-1]), [4]),
    "max_pool2d": (lambda p: R.nn.max_pool2d(p(1, 3, 8, 8), (2, 2), (2, 2)), [4]),
    "reshape": (lambda p: R.reshape(p(4, 8), (8, 4)), [2]),
    "permute_dims": (lambda p: R.permute_dims(p(4, 8)), [2]),
    "take": (lambda p: R.take(p(4, 8), relax.Var("i", _t(3, dtype="int64")), axis=0), [8]),
    "mean": (lambda p: R.mean(p(4, 8), axis=[1]), [4]),
    "max": (lambda p: R.max(p(4, 8), axis=[1]), [3]),
    "broadcast_to": (lambda p: R.broadcast_to(p(1, 8), (4, 8)), [1]),
    "linear": (lambda p: R.linear(p(4, 8), p(3, 8), p(3)), [0, 2, 4]),
}


@pytest.mark.parametrize("name", sorted(_OP_PATTERNS))
def test_op_pattern_of_legalized_ops_is_upstreams(name):
    from tvm.relax.transform.lowering_utils import free_relax_uses

    build, expected = _OP_PATTERNS[name]
    call = build(lambda *shape: relax.Var("p", _t(*shape)))
    params = list(dict.fromkeys(free_relax_uses(call)))
    bb = relax.BlockBuilder()
    with bb.function("main", params):
        with bb.dataflow():
            out = bb.emit_output(call)
        bb.emit_func_output(out)
    mod = transform.AnnotateTIROpPattern()(transform.LegalizeOps()(bb.get()))
    patterns = sorted(
        f.attrs["op_pattern"] for f in mod.functions.values() if "op_pattern" in f.attrs
    )
    assert patterns == expected


def test_op_pattern_of_an_extern_call_is_opaque():
    a = te.placeholder((4,), "float32", name="a")
    out = te.extern(
        (4,), [a], lambda ins, outs: tir.call_packed("my_func", ins[0], outs[0]), name="e"
    )
    func = te.create_prim_func([a, out])
    assert transform.AnnotateTIROpPattern()(tvm.IRModule({"f": func}))["f"].attrs[
        "op_pattern"
    ] == int(relax.analysis.OpPatternKind.kOpaque)


def test_annotate_keeps_a_given_pattern_and_is_copy_on_write():
    a = te.placeholder((4,), "float32", name="a")
    func = te.create_prim_func([a, topi.exp(a)]).with_attr("op_pattern", 8)
    mod = tvm.IRModule({"f": func})
    assert transform.AnnotateTIROpPattern()(mod) is mod
    with pytest.raises(TypeError, match="IRModule"):
        transform.AnnotateTIROpPattern()(func)


def _legalized(build, shape=("n", 8)):
    dims = [tir.Var(d, "int64") if isinstance(d, str) else d for d in shape]
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo(dims, "float32"))
    w = relax.Var("w", relax.TensorStructInfo((8, 4), "float32"))
    b = relax.Var("b", relax.TensorStructInfo((4,), "float32"))
    with bb.function("main", [x, w, b]):
        with bb.dataflow():
            out = bb.emit_output(build(bb, x, w, b))
        bb.emit_func_output(out)
    return transform.AnnotateTIROpPattern()(transform.LegalizeOps()(bb.get()))


def _mlp_tail(bb, x, w, b):
    h = bb.emit(R.nn.relu(bb.emit(R.add(bb.emit(R.matmul(x, w)), b))))
    return bb.emit(R.exp(bb.emit(R.sum(h, axis=[1]))))


def _kernel(mod, name):
    return mod.get_global_var(name), mod[name]


def test_fuse_ops_groups_matmul_bias_relu_as_upstream():
    mod = _legalized(_mlp_tail)
    fused = transform.FuseOps()(mod)

    # What upstream's FuseOps makes of it: one primitive function for matmul + add + relu; the
    # reduction and what follows it stay (a reduction's epilogue does not fuse into it).
    n = tir.Var("n", "int64")
    bb = relax.BlockBuilder()
    gvs = {}
    for name in ("matmul", "add", "relu", "sum", "exp"):
        gvs[name] = bb.add_func(mod[name], name)
    t_n4 = relax.TensorStructInfo((n, 4), "float32")
    px = relax.Var("x", relax.TensorStructInfo((n, 8), "float32"))
    pw = relax.Var("w", relax.TensorStructInfo((8, 4), "float32"))
    pb = relax.Var("b", relax.TensorStructInfo((4,), "float32"))
    with bb.function("fused_matmul_add_relu", [px, pw, pb], {"Primitive": 1}, private=True):
        with bb.dataflow():
            lv = bb.emit(R.call_tir(gvs["matmul"], (px, pw), t_n4))
            lv1 = bb.emit(R.call_tir(gvs["add"], (lv, pb), t_n4))
            gv = bb.emit_output(R.call_tir(gvs["relu"], (lv1,), t_n4))
        bb.emit_func_output(gv)
    fused_gv = bb.get().get_global_var("fused_matmul_add_relu")
    x = relax.Var("x", relax.TensorStructInfo((n, 8), "float32"))
    w = relax.Var("w", relax.TensorStructInfo((8, 4), "float32"))
    b = relax.Var("b", relax.TensorStructInfo((4,), "float32"))
    with bb.function("main", [x, w, b]):
        with bb.dataflow():
            lv = bb.emit(relax.Call(fused_gv, [x, w, b]))
            lv = bb.emit(R.call_tir(gvs["sum"], (lv,), relax.TensorStructInfo((n,), "float32")))
            lv = bb.emit(R.call_tir(gvs["exp"], (lv,), relax.TensorStructInfo((n,), "float32")))
            out = bb.emit_output(lv)
        bb.emit_func_output(out)
    _assert_modules_equal(fused, bb.get())
    assert relax.analysis.well_formed(fused)
    assert transform.FuseOps()(fused) is fused


def _assert_modules_equal(actual, expected):
    """Function by function (the modules' orders of functions differ)."""
    names = sorted(gv.name_hint for gv in actual.get_global_vars())
    assert names == sorted(gv.name_hint for gv in expected.get_global_vars())
    for name in names:
        tvm.ir.assert_structural_equal(actual[name], expected[name])


# Each graph and the primitive functions apache-tvm 0.27's FuseOps makes of it.
_GROUPS = {
    "elementwise into a reduction": (
        lambda bb, x, w, b: bb.emit(R.sum(bb.emit(R.exp(x)), axis=[1])),
        ["fused_exp_sum"],
    ),
    "a diamond": (
        lambda bb, x, w, b: _diamond(bb, x),
        ["fused_exp_log_add"],
    ),
    "injective in the middle": (
        lambda bb, x, w, b: bb.emit(
            R.add(bb.emit(R.permute_dims(bb.emit(R.exp(x)))), relax.const(1.0))
        ),
        ["fused_exp_transpose_add"],
    ),
    "a reduction then its epilogue": (
        lambda bb, x, w, b: bb.emit(R.exp(bb.emit(R.sum(x, axis=[1])))),
        [],
    ),
    "softmax after exp": (lambda bb, x, w, b: bb.emit(R.nn.softmax(bb.emit(R.exp(x)))), []),
}


def _diamond(bb, x):
    a = bb.emit(R.exp(x))
    return bb.emit(R.add(a, bb.emit(R.log(a))))


@pytest.mark.parametrize("name", sorted(_GROUPS))
def test_fuse_ops_groups_as_upstream(name):
    build, expected = _GROUPS[name]
    fused = transform.FuseOps()(_legalized(build, shape=(4, 8)))
    primitive = sorted(
        gv.name_hint
        for gv, f in fused.functions.items()
        if isinstance(f, relax.Function) and f.attrs.get("Primitive")
    )
    assert primitive == expected
    assert relax.analysis.well_formed(fused)


def test_fuse_ops_at_level_zero_fuses_nothing():
    mod = _legalized(_mlp_tail)
    assert transform.FuseOps(fuse_opt_level=0)(mod) is mod
    with tvm.transform.PassContext(opt_level=0):
        assert transform.FuseOps()(mod) is mod
    assert transform.FuseOps(fuse_opt_level=2)(mod) is not mod


def test_fuse_ops_bad_input():
    with pytest.raises(ValueError, match="FuseOps: fuse_opt_level must be -1"):
        transform.FuseOps(fuse_opt_level=7)
    with pytest.raises(TypeError, match="FuseOps: fuse_opt_level must be an int"):
        transform.FuseOps(fuse_opt_level="2")
    with pytest.raises(TypeError, match="IRModule"):
        transform.FuseOps()(relax.Var("x", relax.TensorStructInfo((2,), "float32")))
    with pytest.raises(TypeError, match="IRModule"):
        transform.FuseTIR()("not a module")


def _fused_reference_kernel():
    """matmul + add + relu as one te program: what FuseTIR should make of the group."""
    n = tir.Var("n", "int64")
    c4, c8 = tir.IntImm("int64", 4), tir.IntImm("int64", 8)  # the dims Relax shapes give
    x = te.placeholder((n, c8), "float32", name="x")
    w = te.placeholder((c8, c4), "float32", name="w")
    b = te.placeholder((c4,), "float32", name="b")
    k = te.reduce_axis((0, c8), "k")
    mm = te.compute((n, c4), lambda i, j: te.sum(x[i, k] * w[k, j], axis=k), name="matmul")
    add = te.compute((n, c4), lambda i, j: mm[i, j] + b[j], name="T_add")
    relu = te.compute(
        (n, c4), lambda i, j: tir.Max(add[i, j], tir.const(0, "float32")), name="T_relu"
    )
    return te.create_prim_func([x, w, b, relu])


def test_fuse_tir_makes_one_kernel_of_the_group():
    fused = transform.FuseTIR()(transform.FuseOps()(_legalized(_mlp_tail)))
    names = sorted(gv.name_hint for gv in fused.get_global_vars())
    assert names == ["exp", "fused_matmul_add_relu", "main", "sum"]
    kernel = fused["fused_matmul_add_relu"]
    expected = _fused_reference_kernel()
    expected = expected.with_fields(
        attrs={k: v for k, v in expected.attrs.items() if k != "global_symbol"}
    )
    tvm.ir.assert_structural_equal(kernel.with_fields(attrs=expected.attrs), expected)
    assert "op_pattern" not in kernel.attrs
    assert relax.analysis.well_formed(fused)
    assert transform.FuseTIR()(fused) is fused


def test_fuse_tir_call_site_is_a_call_tir():
    fused = transform.FuseTIR()(transform.FuseOps()(_legalized(_mlp_tail)))
    first = fused["main"].body.blocks[0].bindings[0].value
    assert first.op.name == "relax.call_tir"
    assert first.args[0].name_hint == "fused_matmul_add_relu"
    assert [a.name_hint for a in first.args[1].fields] == ["x", "w", "b"]


def _run(mod, *arrays):
    ex = tvm.compile(mod, target="llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    return vm["main"](*[tvm.runtime.tensor(a) for a in arrays]).numpy()


def test_fused_kernels_compute_what_the_unfused_ones_did():
    rng = np.random.default_rng(0)
    w = rng.standard_normal((8, 4)).astype("float32")
    b = rng.standard_normal(4).astype("float32")
    mod = _legalized(_mlp_tail)
    for batch in (1, 5):
        x = rng.standard_normal((batch, 8)).astype("float32")
        expected = np.exp(np.maximum(x @ w + b, 0).sum(axis=1))
        np.testing.assert_allclose(_run(mod, x, w, b), expected, rtol=1e-5)


def _chain(bb, x, w, b):
    """exp twice (one kernel inlined twice), a diamond and a transpose in one group."""
    a = bb.emit(R.exp(x))
    c = bb.emit(R.exp(bb.emit(R.log(bb.emit(R.add(a, relax.const(2.0)))))))
    return bb.emit(R.permute_dims(bb.emit(R.add(a, c))))


def test_a_kernel_inlined_twice_defines_fresh_variables():
    mod = _legalized(_chain, shape=(3, 8))
    fused = transform.FuseTIR()(transform.FuseOps()(mod))
    prims = [gv.name_hint for gv, f in fused.functions.items() if isinstance(f, tir.PrimFunc)]
    assert len(prims) == 1 and prims[0].startswith("fused_")
    x = np.random.default_rng(1).standard_normal((3, 8)).astype("float32")
    w, b = np.zeros((8, 4), "float32"), np.zeros(4, "float32")
    a = np.exp(x)
    expected = (a + np.exp(np.log(a + 2))).T
    np.testing.assert_allclose(_run(fused, x, w, b), expected, rtol=1e-5)


def test_default_pipeline_fuses_the_mlp():
    mod = _legalized(_mlp_tail)
    lowered = relax.get_pipeline("default")(mod)
    prims = sorted(
        gv.name_hint for gv, f in lowered.functions.items() if isinstance(f, tir.PrimFunc)
    )
    assert "fused_matmul_add_relu" in prims
    assert "matmul" not in prims and "relu" not in prims


def _then_tuple(bb, x, w, b):
    """An elementwise chain whose result goes into a tuple and out again (a decomposed
    batch_norm's shape: (out, mean, var)[0])."""
    out = bb.emit(R.add(bb.emit(R.exp(x)), x))
    tup = bb.emit(relax.Tuple([out, x, x]))
    return bb.emit(relax.TupleGetItem(tup, 0))


def test_a_trailing_tuple_stays_outside_the_group():
    # Regression: the tuple and its item were put in the group and then dropped from main,
    # which read a variable nothing bound any more (and FuseTIR allocated its own output).
    fused = transform.FuseOps()(_legalized(_then_tuple, shape=(4, 8)))
    main = fused["main"].body.blocks[0].bindings
    assert isinstance(main[1].value, relax.Tuple) and isinstance(main[2].value, relax.TupleGetItem)
    (prim,) = [f for gv, f in fused.functions.items() if gv.name_hint.startswith("fused_")]
    assert len(prim.body.blocks[0].bindings) == 2
    x = np.random.default_rng(2).standard_normal((4, 8)).astype("float32")
    w, b = np.zeros((8, 4), "float32"), np.zeros(4, "float32")
    np.testing.assert_allclose(_run(fused, x, w, b), np.exp(x) + x, rtol=1e-5)


def test_a_tuple_parameter_of_a_group_is_passed_as_its_tensors():
    # Regression: a group starting with an item of a tuple parameter took the tuple whole,
    # and the fused PrimFunc (one buffer per tensor) was called with too few arguments. As
    # upstream, the group now takes only the item it reads (pair[1]) and the constant.
    pair = relax.Var("pair", relax.TupleStructInfo([_t(4), _t(4)]))
    bb = relax.BlockBuilder()
    with bb.function("main", [pair]):
        with bb.dataflow():
            first = bb.emit(relax.TupleGetItem(pair, 1))
            out = bb.emit_output(R.multiply(first, relax.const(2.0)))
        bb.emit_func_output(out)
    mod = transform.AnnotateTIROpPattern()(transform.LegalizeOps()(bb.get()))
    fused = transform.FuseTIR()(transform.FuseOps()(mod))
    call = fused["main"].body.blocks[0].bindings[-1].value
    assert [a.struct_info.ndim for a in call.args[1].fields] == [1, 0]
    ex = tvm.compile(fused, target="llvm")
    a, b = np.ones(4, "float32"), np.arange(4, dtype="float32")
    got = relax.VirtualMachine(ex, tvm.cpu())["main"](
        [tvm.runtime.tensor(a), tvm.runtime.tensor(b)]
    )
    np.testing.assert_allclose(got.numpy(), 2 * b)


def test_fuse_ops_max_depth_bounds_a_group():
    mod = _legalized(_mlp_tail)
    with tvm.transform.PassContext(config={"relax.FuseOps.max_depth": 2}):
        fused = transform.FuseOps()(mod)
    primitive = sorted(
        gv.name_hint
        for gv, f in fused.functions.items()
        if isinstance(f, relax.Function) and f.attrs.get("Primitive")
    )
    assert primitive == ["fused_matmul_add", "fused_relu_sum"]  # as apache-tvm 0.27 groups it


def test_get_default_pipeline_for_a_cpu_target_fuses():
    lowered = relax.get_default_pipeline(tvm.target.Target("llvm"))(_legalized(_mlp_tail))
    assert "fused_matmul_add_relu" in [gv.name_hint for gv in lowered.get_global_vars()]


def _cnn_block():
    x = relax.Var("x", _t(1, 3, 16, 16))
    w, w2 = relax.Var("w", _t(8, 3, 3, 3)), relax.Var("w2", _t(8, 8, 3, 3))
    g = relax.Var("g", _t(8))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w, w2, g]):
        with bb.dataflow():
            h = bb.emit(R.nn.conv2d(x, w, padding=1))
            h = bb.emit(R.nn.relu(bb.emit(R.multiply(h, R.reshape(g, (1, 8, 1, 1))))))
            r = bb.emit(R.nn.conv2d(h, w2, padding=1))
            h = bb.emit(R.nn.relu(bb.emit(R.add(r, h))))
            h = bb.emit(
                R.nn.softmax(bb.emit(R.flatten(bb.emit(R.nn.max_pool2d(h, (2, 2), (2, 2))))))
            )
            out = bb.emit_output(h)
        bb.emit_func_output(out)
    return bb.get()


def _attention_like():
    x, wq, wk = relax.Var("x", _t(4, 16)), relax.Var("wq", _t(16, 16)), relax.Var("wk", _t(16, 16))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, wq, wk]):
        with bb.dataflow():
            q = bb.emit(
                R.permute_dims(bb.emit(R.reshape(bb.emit(R.matmul(x, wq)), (4, 2, 8))), [1, 0, 2])
            )
            k = bb.emit(
                R.permute_dims(bb.emit(R.reshape(bb.emit(R.matmul(x, wk)), (4, 2, 8))), [1, 2, 0])
            )
            s = bb.emit(R.multiply(bb.emit(R.matmul(q, k)), relax.const(0.35, "float32")))
            s = bb.emit(R.sum(bb.emit(R.nn.softmax(s, axis=-1)), axis=[0]))
            s = bb.emit(R.add(s, relax.const(1.0, "float32")))
            out = bb.emit_output(R.concat([bb.emit(R.exp(s)), bb.emit(R.log(s))]))
        bb.emit_func_output(out)
    return bb.get()


def _split_exp_log():
    x = relax.Var("x", _t(4, 8))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            parts = bb.emit(R.split(x, 2, axis=1))
            a = bb.emit(R.exp(bb.emit(relax.TupleGetItem(parts, 0))))
            b = bb.emit(R.log(bb.emit(relax.TupleGetItem(parts, 1))))
            out = bb.emit_output(R.concat([a, b], axis=1))
        bb.emit_func_output(out)
    return bb.get()


# The primitive functions apache-tvm 0.27 makes of each (its kernel names without "tir_").
_MODELS = {
    "split then concat": (_split_exp_log, ["fused_split_exp_log_concatenate"]),
    "cnn block": (_cnn_block, ["fused_conv2d1_add_relu1", "fused_conv2d_multiply_relu"]),
    "attention-like": (
        _attention_like,
        [
            "fused_add_exp_log_concatenate",
            "fused_matmul1_multiply",
            "fused_reshape_transpose",
            "fused_reshape_transpose1",
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(_MODELS))
def test_fuse_ops_groups_models_as_upstream(name):
    # Regressions: paths through two injective ops combined to kOpaque in the post-dominator
    # tree (the add before exp/log/concat stayed out), and topi's A[0, c] for a unit dim made
    # a multiply kBroadcast, so conv2d kept its epilogue.
    build, expected = _MODELS[name]
    mod = transform.AnnotateTIROpPattern()(transform.LegalizeOps()(build()))
    fused = transform.FuseOps()(mod)
    primitive = sorted(
        gv.name_hint
        for gv, f in fused.functions.items()
        if isinstance(f, relax.Function) and f.attrs.get("Primitive")
    )
    assert primitive == expected
    rng = np.random.default_rng(3)
    args = [
        rng.uniform(0.5, 1.5, [int(d) for d in p.struct_info.shape]).astype("float32")
        for p in mod["main"].params
    ]
    with tvm.transform.PassContext(opt_level=0):  # FuseOps at level 0: nothing fused
        reference = _run(mod, *args)
    np.testing.assert_allclose(_run(mod, *args), reference, rtol=1e-4, atol=1e-6)


def test_values_read_only_inside_a_nested_tuple_stay_bound_after_fusion():
    """Two elementwise ops whose results are read only through a tuple inside the returned
    tuple: FuseOps must export them from the group (they were left unbound, and the VM
    codegen failed with "variable 'lv2' is used before it is bound")."""
    bb = relax.BlockBuilder()
    pair = relax.TupleStructInfo(
        [relax.TensorStructInfo([3], "float32"), relax.TensorStructInfo([1], "float32")]
    )
    xs = relax.Var("xs", pair)
    t = relax.Var("t", relax.TensorStructInfo([1], "float32"))
    with bb.function("main", [xs, t]):
        with bb.dataflow():
            a = bb.emit(relax.TupleGetItem(xs, 0))
            b = bb.emit(relax.TupleGetItem(xs, 1))
            m1, m2 = bb.emit(R.multiply(a, t)), bb.emit(R.multiply(b, t))
            c = relax.const(np.array([3]), "int64")
            out = bb.emit_output(relax.Tuple([relax.Tuple([m1, m2]), relax.Tuple([c])]))
        bb.emit_func_output(out)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    x0, x1 = np.arange(3, dtype="float32"), np.array([5.0], "float32")
    got = vm["main"]([tvm.runtime.tensor(x0), tvm.runtime.tensor(x1)], tvm.runtime.tensor(x1))
    np.testing.assert_array_equal(got[0][0].numpy(), x0 * 5)
    np.testing.assert_array_equal(got[0][1].numpy(), x1 * 5)
    np.testing.assert_array_equal(got[1][0].numpy(), [3])


def test_a_fused_function_defines_its_own_symbolic_vars():
    # Upstream renews the symbolic vars of each fused function: a tir Var in main and in the
    # fused function would make the module malformed (well_formed: one function per var).
    n = tir.Var("n", "int64")
    x = relax.Var("x", relax.TensorStructInfo([n, 4], "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            lv = bb.emit_te(topi.exp, x)
            gv = bb.emit_output(bb.call_te(topi.add, lv, relax.const(1.0)))
        bb.emit_func_output(gv)
    fused = transform.FuseOps()(transform.AnnotateTIROpPattern()(bb.get()))
    (prim,) = [f for gv, f in fused.functions.items() if gv.name_hint.startswith("fused_")]
    (inner_n,) = {v.name: v for v in relax.analysis.defined_symbolic_vars(prim)}.values()
    assert inner_n.name == "n" and not inner_n.same_as(n)
    assert fused["main"].params[0].struct_info.shape[0].same_as(n)
    assert relax.analysis.well_formed(fused)


def _items_then_kernels(num_input=None):
    # main(x, packed): a = packed[0]; b = packed[1]; exp(a) + b, legalized and annotated
    t = relax.TensorStructInfo((4,), "float32")
    x, packed = relax.Var("x", t), relax.Var("packed", relax.TupleStructInfo([t, t, t]))
    bb = relax.BlockBuilder()
    attrs = None if num_input is None else {"num_input": num_input}
    with bb.function("main", [x, packed], attrs=attrs):
        with bb.dataflow():
            a = bb.emit(relax.TupleGetItem(packed, 0))
            b = bb.emit(relax.TupleGetItem(packed, 2))
            lv = bb.emit(R.exp(a))
            gv = bb.emit_output(R.add(lv, b))
        bb.emit_func_output(gv)
    return transform.AnnotateTIROpPattern()(transform.LegalizeOps()(bb.get()))


def test_a_group_takes_the_items_it_reads_of_a_tuple_parameter():
    # Upstream: items of a tuple parameter join the group (injective), and the fused function
    # takes those items ("packed_0", "packed_2"), unpacked before the call, not the tuple.
    fused = transform.FuseOps()(_items_then_kernels())
    (prim,) = [f for gv, f in fused.functions.items() if gv.name_hint.startswith("fused_")]
    assert [p.name_hint for p in prim.params] == ["packed_0", "packed_2"]
    assert all(isinstance(b.value, relax.Call) for b in prim.body.blocks[0].bindings)
    main = fused["main"].body.blocks[0].bindings
    assert [type(b.value).__name__ for b in main] == ["TupleGetItem", "TupleGetItem", "Call"]
    assert [b.value.index for b in main[:2]] == [0, 2]
    assert relax.analysis.well_formed(fused)
    ex = tvm.compile(transform.FuseTIR()(fused), target="llvm")
    vals = [np.arange(4, dtype="float32") + k for k in range(3)]
    got = relax.VirtualMachine(ex, tvm.cpu())["main"](
        tvm.runtime.tensor(vals[0]), [tvm.runtime.tensor(v) for v in vals]
    )
    np.testing.assert_allclose(got.numpy(), np.exp(vals[0]) + vals[2], rtol=1e-5)


def test_items_of_the_model_parameters_stay_outside_groups():
    # Upstream: an item of a parameter after num_input (packed weights) is opaque to fusion.
    fused = transform.FuseOps()(_items_then_kernels(num_input=1))
    main = fused["main"].body.blocks[0].bindings
    assert [type(b.value).__name__ for b in main] == ["TupleGetItem", "TupleGetItem", "Call"]
    (prim,) = [f for gv, f in fused.functions.items() if gv.name_hint.startswith("fused_")]
    assert [p.name_hint for p in prim.params] == ["lv", "lv1"]


def test_a_split_and_its_item_fuse():
    # Upstream fuses a kernel returning a tuple with the item read of it (fused_split).
    x = relax.Var("x", relax.TensorStructInfo((1, 30), "float32"))
    w = relax.Var("w", relax.TensorStructInfo((10, 10), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w]):
        with bb.dataflow():
            parts = bb.emit_te(topi.split, x, indices_or_sections=3, axis=1)
            first = bb.emit(relax.TupleGetItem(parts, 0))
            gv = bb.emit_output(bb.call_te(topi.nn.dense, first, w))
        bb.emit_func_output(gv)
    fused = transform.FuseOps()(transform.AnnotateTIROpPattern()(bb.get()))
    prim = fused["fused_split"]
    kinds = [type(b.value).__name__ for b in prim.body.blocks[0].bindings]
    assert kinds == ["Call", "TupleGetItem"]
    assert prim.ret_struct_info.ndim == 2


def test_a_group_nothing_reads_is_dropped_with_a_warning(caplog):
    # Upstream: a group without outputs (dead code) gets no function; its bindings go.
    x = relax.Var("x", relax.TensorStructInfo((4,), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            dead = bb.emit(R.exp(x))
            bb.emit(R.add(dead, x))
            gv = bb.emit_output(R.multiply(x, x))
        bb.emit_func_output(gv)
    mod = transform.AnnotateTIROpPattern()(transform.LegalizeOps()(bb.get()))
    with caplog.at_level("WARNING", logger="tvm.relax.transform"):
        fused = transform.FuseOps()(mod)
    assert "dead code" in caplog.text and "DeadCodeElimination" in caplog.text
    assert not [gv for gv in fused.functions if gv.name_hint.startswith("fused_")]
    (binding,) = fused["main"].body.blocks[0].bindings
    assert binding.value.args[0].name_hint == "multiply"


def _kernel_without_attrs():
    # one primitive function calling a hand-written PrimFunc with no attributes at all
    a = tir.Var("a", "handle")
    b = tir.Var("b", "handle")
    A = tir.decl_buffer((4,), "float32", "A")
    B = tir.decl_buffer((4,), "float32", "B")
    i = tir.Var("i", "int64")
    body = tir.For(i, 0, 4, tir.ForKind.SERIAL, tir.BufferStore(B, A[i] + 1.0, [i]))
    return tir.PrimFunc([a, b], body, buffer_map={a: A, b: B})


def test_a_fused_kernel_is_noalias():
    # Upstream's FuseTIR marks every fused PrimFunc tir.noalias (and keeps no kernel's attrs).
    x = relax.Var("x", relax.TensorStructInfo((4,), "float32"))
    bb = relax.BlockBuilder()
    kernel = bb.add_func(_kernel_without_attrs(), "kernel")
    sinfo = relax.TensorStructInfo((4,), "float32")
    with bb.function("fused", [x], attrs={"Primitive": 1}, private=True):
        with bb.dataflow():
            lv = bb.emit(relax.call_tir(kernel, (x,), sinfo))
            gv = bb.emit_output(relax.call_tir(kernel, (lv,), sinfo))
        bb.emit_func_output(gv)
    fused_gv = bb.get().get_global_var("fused")
    y = relax.Var("y", sinfo)
    with bb.function("main", [y]):
        with bb.dataflow():
            out = bb.emit_output(relax.Call(fused_gv, [y]))
        bb.emit_func_output(out)
    mod = transform.FuseTIR()(bb.get())
    assert dict(mod["fused"].attrs) == {"tir.noalias": True}


def test_fuse_tir_unpacks_a_tuple_argument_into_dataflow_vars():
    # Upstream emits the items of a tuple argument inside the dataflow block as DataflowVars.
    t = relax.TensorStructInfo((10,), "float32")
    pair = relax.TupleStructInfo([t, t])
    bb = relax.BlockBuilder()
    p = relax.Var("p", pair)
    with bb.function("fused_exp_add", [p], attrs={"Primitive": 1}, private=True):
        with bb.dataflow():
            a = bb.emit(relax.TupleGetItem(p, 0))
            b = bb.emit(relax.TupleGetItem(p, 1))
            e = bb.emit_te(topi.exp, a)
            gv = bb.emit_output(bb.call_te(topi.add, e, b))
        bb.emit_func_output(gv)
    fused_gv = bb.get().get_global_var("fused_exp_add")
    x = relax.Var("x", pair)
    with bb.function("main", [x]):
        with bb.dataflow():
            out = bb.emit_output(relax.Call(fused_gv, [x]))
        bb.emit_func_output(out)
    mod = transform.FuseTIR()(bb.get())
    block = mod["main"].body.blocks[0]
    assert isinstance(block, relax.DataflowBlock)
    kinds = [type(b.var).__name__ for b in block.bindings]
    assert kinds == ["DataflowVar", "DataflowVar", "Var"]
    assert relax.analysis.well_formed(mod)


def test_fuse_tir_takes_buffers_through_a_nested_tuple():
    # Regression: a tuple binding with a tuple field (x, (x, y)) raised KeyError in FuseTIR.
    t = relax.TensorStructInfo((10,), "float32")
    bb = relax.BlockBuilder()
    x, y = relax.Var("x", t), relax.Var("y", t)
    with bb.function("fused_add", [x, y], attrs={"Primitive": 1}, private=True):
        with bb.dataflow():
            tup = bb.emit(relax.Tuple([x, relax.Tuple([x, y])]))
            first = bb.emit(relax.TupleGetItem(tup, 0))
            inner = bb.emit(relax.TupleGetItem(tup, 1))
            second = bb.emit(relax.TupleGetItem(inner, 1))
            gv = bb.emit_output(bb.call_te(topi.add, first, second))
        bb.emit_func_output(gv)
    fused_gv = bb.get().get_global_var("fused_add")
    a, b = relax.Var("a", t), relax.Var("b", t)
    with bb.function("main", [a, b]):
        with bb.dataflow():
            out = bb.emit_output(relax.Call(fused_gv, [a, b]))
        bb.emit_func_output(out)
    mod = transform.FuseTIR()(bb.get())
    assert [p.name for p in mod["fused_add"].params][:2] == ["x", "y"]
    ex = tvm.compile(mod, target="llvm")
    va, vb = np.arange(10, dtype="float32"), np.ones(10, "float32")
    got = relax.VirtualMachine(ex, tvm.cpu())["main"](
        tvm.runtime.tensor(va), tvm.runtime.tensor(vb)
    )
    np.testing.assert_allclose(got.numpy(), va + vb)


def test_fuse_tir_passes_only_the_items_a_primitive_function_reads():
    # Upstream: a tuple parameter read only through items becomes just those items' buffers;
    # the caller unpacks only them (the other field is never passed).
    t = relax.TensorStructInfo((4,), "float32")
    pair = relax.TupleStructInfo([t, t])
    bb = relax.BlockBuilder()
    p = relax.Var("p", pair)
    with bb.function("fused_exp", [p], attrs={"Primitive": 1}):
        with bb.dataflow():
            second = bb.emit(relax.TupleGetItem(p, 1))
            gv = bb.emit_output(bb.call_te(topi.exp, second))
        bb.emit_func_output(gv)
    fused_gv = bb.get().get_global_var("fused_exp")
    x = relax.Var("x", pair)
    with bb.function("main", [x]):
        with bb.dataflow():
            out = bb.emit_output(relax.Call(fused_gv, [x]))
        bb.emit_func_output(out)
    mod = transform.FuseTIR()(bb.get())
    assert len(mod["fused_exp"].params) == 2  # x[1] and the output
    items = [b.value for b in mod["main"].body.blocks[0].bindings[:-1]]
    assert [i.index for i in items] == [1]
    ex = tvm.compile(mod, target="llvm")
    a, b = np.zeros(4, "float32"), np.arange(4, dtype="float32")
    got = relax.VirtualMachine(ex, tvm.cpu())["main"](
        [tvm.runtime.tensor(a), tvm.runtime.tensor(b)]
    )
    np.testing.assert_allclose(got.numpy(), np.exp(b), rtol=1e-5)


def test_fuse_tir_keeps_one_access_region_per_buffer():
    # Upstream: a kernel given one tensor for two parameters (cat(x, x)) reads it through one
    # region (the first) in the fused PrimFunc; the fused kernel still computes the same.
    from tvm.script import ir as I
    from tvm.script import relax as RS
    from tvm.script import tir as T

    @I.ir_module
    class Module:
        @T.prim_func(private=True)
        def cat(
            A: T.Buffer((2,), "float32"), B: T.Buffer((2,), "float32"), C: T.Buffer((4,), "float32")
        ):
            for i in range(4):
                with T.block("C"):
                    vi = T.axis.spatial(4, i)
                    C[vi] = T.if_then_else(vi < 2, A[vi], B[vi - 2])

        @T.prim_func(private=True)
        def double(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
            for i in range(4):
                with T.block("B"):
                    vi = T.axis.spatial(4, i)
                    B[vi] = A[vi] * T.float32(2)

        @RS.function(private=True)
        def fused(x: RS.Tensor((2,), "float32")) -> RS.Tensor((4,), "float32"):
            RS.func_attr({"Primitive": 1})
            cls = Module
            with RS.dataflow():
                c = RS.call_tir(cls.cat, (x, x), out_sinfo=RS.Tensor((4,), "float32"))
                gv = RS.call_tir(cls.double, (c,), out_sinfo=RS.Tensor((4,), "float32"))
                RS.output(gv)
            return gv

        @RS.function
        def main(x: RS.Tensor((2,), "float32")) -> RS.Tensor((4,), "float32"):
            cls = Module
            with RS.dataflow():
                gv = cls.fused(x)
                RS.output(gv)
            return gv

    mod = transform.FuseTIR()(Module)
    blocks = []
    tvm.tir.stmt_functor.post_order_visit(
        mod["fused"].body, lambda n: blocks.append(n) if isinstance(n, tvm.tir.Block) else None
    )
    cat = next(b for b in blocks if b.name_hint == "C")
    assert len(cat.reads) == 1 and cat.reads[0].buffer.name == "x"
    ex = tvm.compile(mod, target="llvm")
    a = np.array([1.0, 2.0], "float32")
    got = relax.VirtualMachine(ex, tvm.cpu())["main"](tvm.runtime.tensor(a))
    np.testing.assert_allclose(got.numpy(), 2 * np.concatenate([a, a]))
