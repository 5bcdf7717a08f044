# dlight's CPU rules and ApplyDefaultSchedule: results equal NumPy, the attribute, what is skipped.
import numpy as np
import pytest
import tvm
from host_isa import AVX2_TARGET, AVX512_TARGET, requires_avx512
from tvm import relax, te, tir
from tvm.s_tir import dlight as dl
from tvm.script import tir as T
from tvm.target import Target
from tvm.tir.functor import post_order_visit
from tvm.tir.stmt import For, ForKind

# Runs on any x86-64 host; the vector widths themselves are checked under pinned targets.
RUN_TARGET = "llvm -mcpu=x86-64"
BATCHES = [1, 7, 64]


def _batch(batch):
    return tir.Var("n", "int64") if batch is None else tir.const(batch, "int64")


def dense_bias_relu(batch, k=96, m=80):
    """relu(x @ w + b) as two te blocks (a matmul and its epilogue)."""
    x = te.placeholder((_batch(batch), tir.const(k, "int64")), name="x")
    w = te.placeholder((tir.const(k, "int64"), tir.const(m, "int64")), name="w")
    b = te.placeholder((tir.const(m, "int64"),), name="b")
    r = te.reduce_axis((0, x.shape[1]), "r")
    y = te.compute((x.shape[0], m), lambda i, j: te.sum(x[i, r] * w[r, j], axis=r), name="dense")
    zero = tir.const(0, "float32")
    out = te.compute(y.shape, lambda i, j: tir.Max(y[i, j] + b[j], zero), name="bias_relu")
    return te.create_prim_func([x, w, b, out])


def softmax(batch, cols=40):
    """Row-wise softmax as te blocks: max, exp, sum, divide."""
    x = te.placeholder((_batch(batch), tir.const(cols, "int64")), name="x")
    r1 = te.reduce_axis((0, cols), "r1")
    mx = te.compute((x.shape[0],), lambda i: te.max(x[i, r1], axis=r1), name="row_max")
    e = te.compute(x.shape, lambda i, j: te.exp(x[i, j] - mx[i]), name="exp")
    r2 = te.reduce_axis((0, cols), "r2")
    s = te.compute((x.shape[0],), lambda i: te.sum(e[i, r2], axis=r2), name="row_sum")
    out = te.compute(x.shape, lambda i, j: e[i, j] / s[i], name="softmax")
    return te.create_prim_func([x, out])


def add_relu(batch, cols=300):
    """relu(a + b) element-wise: two spatial blocks."""
    a = te.placeholder((_batch(batch), tir.const(cols, "int64")), name="a")
    b = te.placeholder(a.shape, name="b")
    s = te.compute(a.shape, lambda i, j: a[i, j] + b[i, j], name="add")
    zero = tir.const(0, "float32")
    out = te.compute(a.shape, lambda i, j: tir.Max(s[i, j], zero), name="relu")
    return te.create_prim_func([a, b, out])


def conv3x3(channels=8, image=10):
    """A 3x3 NCHW convolution with padding 1 (topi: a padding block, then the reduction)."""
    from tvm import topi

    x = te.placeholder((2, channels, image, image), name="x")
    w = te.placeholder((channels, channels, 3, 3), name="w")
    return te.create_prim_func([x, w, topi.nn.conv2d(x, w, 1, 1, 1)])


def _schedule(func, *rules, target=RUN_TARGET):
    with Target(target):
        return dl.ApplyDefaultSchedule(*rules)(tvm.IRModule({"main": func}))


def _rng_arrays(*shapes):
    rng = np.random.default_rng(3)
    return [rng.standard_normal(s).astype("float32") for s in shapes]


def _vector_loops(func):
    found = []

    def visit(node):
        if isinstance(node, For) and node.kind == ForKind.VECTORIZED:
            found.append(node)

    post_order_visit(func.body, visit)
    return found


@pytest.mark.parametrize("symbolic", [True, False], ids=["symbolic", "static"])
@pytest.mark.parametrize("batch", BATCHES)
def test_matmul_rule_equals_numpy(batch, symbolic):
    mod = _schedule(dense_bias_relu(None if symbolic else batch), dl.cpu.Matmul())
    assert mod["main"].attrs["tir.is_scheduled"]
    assert _vector_loops(mod["main"]), "the tile's columns are vectorized"
    x, w, b = _rng_arrays((batch, 96), (96, 80), (80,))
    out = np.zeros((batch, 80), "float32")
    tvm.compile(mod, target=RUN_TARGET)["main"](x, w, b, out)
    np.testing.assert_allclose(out, np.maximum(x @ w + b, 0), rtol=1e-4, atol=1e-4)


def test_matmul_rule_tiles_a_convolution_and_equals_numpy():
    mod = _schedule(conv3x3(), dl.cpu.Matmul())
    x, w = _rng_arrays((2, 8, 10, 10), (8, 8, 3, 3))
    out = np.zeros((2, 8, 10, 10), "float32")
    tvm.compile(mod, target=RUN_TARGET)["main"](x, w, out)
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    expected = np.zeros_like(out)
    for dy in range(3):
        for dx in range(3):
            patch = padded[:, :, dy : dy + 10, dx : dx + 10]
            expected += np.einsum("nchw,fc->nfhw", patch, w[:, :, dy, dx])
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "target, batch, columns",
    [
        (AVX512_TARGET, 64, 64),
        (AVX512_TARGET, None, 128),
        (AVX512_TARGET, 1, 128),
        (AVX2_TARGET, None, 16),
        (AVX2_TARGET, 64, 16),
        ("llvm -mcpu=x86-64", None, 8),
    ],
    ids=["avx512", "avx512-symbolic", "avx512-gemv", "avx2-symbolic", "avx2", "x86-64"],
)
def test_matmul_tile_columns_follow_the_target_vector_width(target, batch, columns):
    # With AVX-512, rows that may not fill a tile (a symbolic batch, batch 1) get 8 vectors.
    mod = _schedule(dense_bias_relu(batch, k=64, m=256), dl.cpu.Matmul(), target=target)
    extents = {int(lp.extent) for lp in _vector_loops(mod["main"])}
    assert columns in extents


def test_matmul_rule_skips_a_reduction_too_small_to_tile():
    # 4 outputs of 3 terms: not worth a tile, so the rule does not apply.
    assert dl.cpu.Matmul().apply(dense_bias_relu(2, k=3, m=2), Target(RUN_TARGET), False) is None


@pytest.mark.parametrize("symbolic", [True, False], ids=["symbolic", "static"])
@pytest.mark.parametrize("batch", BATCHES)
def test_reduction_rule_equals_numpy(batch, symbolic):
    mod = _schedule(softmax(None if symbolic else batch), dl.cpu.Reduction())
    assert mod["main"].attrs["tir.is_scheduled"]
    (x,) = _rng_arrays((batch, 40))
    out = np.zeros_like(x)
    tvm.compile(mod, target=RUN_TARGET)["main"](x, out)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("symbolic", [True, False], ids=["symbolic", "static"])
@pytest.mark.parametrize("batch", BATCHES)
def test_fallback_rule_equals_numpy(batch, symbolic):
    mod = _schedule(add_relu(None if symbolic else batch), dl.cpu.Fallback())
    func = mod["main"]
    assert func.attrs["tir.is_scheduled"]
    assert _vector_loops(func)
    a, b = _rng_arrays((batch, 300), (batch, 300))
    out = np.zeros_like(a)
    tvm.compile(mod, target=RUN_TARGET)["main"](a, b, out)
    np.testing.assert_allclose(out, np.maximum(a + b, 0), rtol=1e-6)


def _loop_kinds(func):
    kinds = []
    post_order_visit(func.body, lambda n: kinds.append(n.kind) if isinstance(n, For) else None)
    return kinds


def test_fallback_runs_only_large_nests_in_parallel():
    large = _schedule(add_relu(1024, cols=512), dl.cpu.Fallback())["main"]
    assert ForKind.PARALLEL in _loop_kinds(large)
    small = _schedule(add_relu(4, cols=512), dl.cpu.Fallback())["main"]
    assert ForKind.PARALLEL not in _loop_kinds(small)
    assert ForKind.VECTORIZED in _loop_kinds(small)


def _vectorized_stores(func):
    """Names of the buffers stored to inside vectorized loops."""
    names = set()
    for loop in _vector_loops(func):
        post_order_visit(
            loop, lambda n: names.add(n.buffer.name) if isinstance(n, tir.BufferStore) else None
        )
    return names


def test_rules_are_tried_in_order():
    # The first rule that applies wins: Fallback before Matmul leaves the dense untiled.
    func = dense_bias_relu(None)
    tiled = _schedule(func, dl.cpu.Matmul(), dl.cpu.Fallback())["main"]
    plain = _schedule(func, dl.cpu.Fallback(), dl.cpu.Matmul())["main"]
    assert _vectorized_stores(tiled) == {"dense", "bias_relu"}
    assert _vectorized_stores(plain) == {"bias_relu"}


def test_an_already_scheduled_function_is_left_alone():
    func = dense_bias_relu(None).with_attr("tir.is_scheduled", True)
    mod = tvm.IRModule({"main": func})
    with Target(RUN_TARGET):
        out = dl.ApplyDefaultSchedule(dl.cpu.Matmul(), dl.cpu.Fallback())(mod)
    assert out["main"] is func


@T.prim_func
def _no_blocks(a: T.Buffer((16,), "float32"), b: T.Buffer((16,), "float32")):
    for i in range(16):
        b[i] = a[i] * T.float32(2)


def test_a_function_no_rule_matches_is_left_unscheduled_and_still_runs():
    mod = tvm.IRModule({"main": _no_blocks})
    with Target(RUN_TARGET):
        out = dl.ApplyDefaultSchedule(dl.cpu.Matmul(), dl.cpu.Reduction(), dl.cpu.Fallback())(mod)
    assert out["main"] is _no_blocks
    assert "tir.is_scheduled" not in out["main"].attrs
    a = np.arange(16, dtype="float32")
    b = np.zeros_like(a)
    tvm.compile(out, target=RUN_TARGET)["_no_blocks"](a, b)
    np.testing.assert_array_equal(b, a * 2)


def test_cpu_rules_do_not_apply_to_other_targets():
    func = dense_bias_relu(4)
    assert dl.cpu.Matmul().is_target_available(Target(RUN_TARGET))
    other = Target("llvm -keys=gpu")  # a target without the "cpu" key
    assert not dl.cpu.Fallback().is_target_available(other)
    assert dl.cpu.Fallback().apply(func, other, False) is None
    with other:
        lowered = relax.get_pipeline("default")(_mlp(None))
    prims = [f for _, f in lowered.functions.items() if isinstance(f, tir.PrimFunc)]
    assert prims and not any("tir.is_scheduled" in f.attrs for f in prims)


def test_bad_input_is_a_clear_error():
    with pytest.raises(TypeError, match="ApplyDefaultSchedule.*expected an IRModule, got int"):
        with Target(RUN_TARGET):
            dl.ApplyDefaultSchedule(dl.cpu.Fallback())(42)
    with pytest.raises(TypeError, match="ApplyDefaultSchedule: argument 'rules'.*got str"):
        dl.ApplyDefaultSchedule("Fallback")
    with pytest.raises(ValueError, match="no target"):
        dl.ApplyDefaultSchedule(dl.cpu.Fallback())(tvm.IRModule({"main": add_relu(4)}))


def test_from_callable_makes_a_rule():
    @dl.ScheduleRule.from_callable("Vectorize")
    def rule(func, target, tunable):
        sch = tir.Schedule(func)
        (i,) = sch.get_loops(sch.get_block("B"))
        sch.vectorize(i)
        return sch

    @T.prim_func
    def add_one(a: T.Buffer((64,), "float32"), b: T.Buffer((64,), "float32")):
        for i in range(64):
            with T.block("B"):
                vi = T.axis.spatial(64, i)
                b[vi] = a[vi] + T.float32(1)

    assert type(rule).__name__ == "Vectorize"
    func = _schedule(add_one, rule)["main"]
    assert func.attrs["tir.is_scheduled"] and _vector_loops(func)


def test_dlight_is_importable_under_both_names():
    import tvm.dlight

    assert tvm.dlight is dl
    assert tvm.dlight.cpu.Matmul is dl.cpu.Matmul


def _mlp(batch):
    n = tir.Var("n", "int64") if batch is None else batch
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo((n, 64), "float32"))
    w = relax.Var("w", relax.TensorStructInfo((64, 48), "float32"))
    b = relax.Var("b", relax.TensorStructInfo((48,), "float32"))
    with bb.function("main", [x, w, b]):
        with bb.dataflow():
            h = bb.emit(relax.op.nn.relu(relax.op.add(relax.op.matmul(x, w), b)))
            s = bb.emit(relax.op.nn.softmax(h, axis=-1))
            out = bb.emit_output(s)
        bb.emit_func_output(out)
    return bb.get()


def test_default_pipeline_schedules_every_kernel_for_a_cpu_target():
    with Target(RUN_TARGET):
        lowered = relax.get_pipeline("default")(_mlp(None))
    prims = [f for _, f in lowered.functions.items() if isinstance(f, tir.PrimFunc)]
    kernels = [f for f in prims if "tir.is_host_func" not in f.attrs]
    assert kernels and all(f.attrs.get("tir.is_scheduled") for f in kernels)


@pytest.mark.parametrize("batch", BATCHES)
def test_default_pipeline_model_equals_numpy(batch):
    ex = tvm.compile(_mlp(None), target=RUN_TARGET)
    x, w, b = _rng_arrays((batch, 64), (64, 48), (48,))
    out = relax.VirtualMachine(ex, tvm.cpu())["main"](x, w, b).numpy()
    h = np.maximum(x @ w + b, 0)
    e = np.exp(h - h.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=-1, keepdims=True), rtol=1e-5, atol=1e-6)


def _batched_dense(k=64, m=48, rows=None):
    """x @ w for x of (N, S, k) with symbolic N and S (rows, when given, a constant that
    legalisation might spell as an expression)."""
    n = tir.Var("N", "int64")
    s = tir.Var("S", "int64") if rows is None else rows
    x = te.placeholder((n, s, tir.const(k, "int64")), name="x")
    w = te.placeholder((tir.const(k, "int64"), tir.const(m, "int64")), name="w")
    r = te.reduce_axis((0, x.shape[2]), "r")
    y = te.compute(
        (n, s, w.shape[1]), lambda b, i, j: te.sum(x[b, i, r] * w[r, j], axis=r), name="dense"
    )
    return te.create_prim_func([x, w, y])


@pytest.mark.parametrize(
    "rows",
    [None, tir.FloorDiv(tir.const(13, "int64"), tir.const(1, "int64")) + tir.const(1, "int64")],
    ids=["symbolic", "constant-as-expression"],
)
def test_matmul_tiles_stay_in_registers_with_symbolic_or_unsimplified_shapes(rows):
    from tvm.driver import lower

    mod = _schedule(_batched_dense(rows=rows), dl.cpu.Matmul())
    with Target(AVX2_TARGET):  # pinned: whether a tile fits depends on the vector width
        assert "dense_acc" in lower(mod).script()
    s = 14 if rows is not None else 7
    x, w = _rng_arrays((2, s, 64), (64, 48))
    out = np.zeros((2, s, 48), "float32")
    tvm.compile(mod, target=RUN_TARGET)["main"](x, w, out)
    np.testing.assert_allclose(out, x @ w, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("symbolic", [True, False], ids=["symbolic", "static"])
@pytest.mark.parametrize("batch", BATCHES)
def test_matmul_rule_pads_columns_narrower_than_a_vector_and_equals_numpy(batch, symbolic):
    # 3 columns under x86-64 (4 float32 lanes): computed on a copy of w padded to 4 columns,
    # unless the outputs are too few for a tile (MIN_OUTPUTS, a symbolic batch counting 16).
    mod = _schedule(dense_bias_relu(None if symbolic else batch, m=3), dl.cpu.Matmul())
    padded = symbolic or batch * 4 >= 64
    assert ("w_pad = T.alloc_buffer((96, 4))" in mod.script()) == padded
    if padded:
        assert 4 in {int(lp.extent) for lp in _vector_loops(mod["main"])}
    x, w, b = _rng_arrays((batch, 96), (96, 3), (3,))
    out = np.zeros((batch, 3), "float32")
    tvm.compile(mod, target=RUN_TARGET)["main"](x, w, b, out)
    np.testing.assert_allclose(out, np.maximum(x @ w + b, 0), rtol=1e-4, atol=1e-4)


def test_narrow_columns_pad_to_the_target_vector_width():
    # A classifier's 10 columns: one AVX-512 vector of 16, or two AVX2 vectors of 8 each.
    script = _schedule(dense_bias_relu(None, m=10), dl.cpu.Matmul(), target=AVX512_TARGET)
    assert "w_pad = T.alloc_buffer((96, 16))" in script.script()
    script = _schedule(dense_bias_relu(None, m=10), dl.cpu.Matmul(), target=AVX2_TARGET)
    assert "w_pad" not in script.script()


def test_matmul_threads_only_calls_with_enough_work():
    # Static shapes decide at compile time: a batch-1 dense layer (262144 multiply-adds) on
    # the calling thread, batch 64 in parallel.
    one = _schedule(dense_bias_relu(1, k=512, m=512), dl.cpu.Matmul())["main"]
    assert ForKind.PARALLEL not in _loop_kinds(one)
    many = _schedule(dense_bias_relu(64, k=512, m=512), dl.cpu.Matmul())["main"]
    assert ForKind.PARALLEL in _loop_kinds(many)
    # A symbolic batch decides at each call: OpenMP's if clause on the batch's work.
    mod = _schedule(dense_bias_relu(None, k=512, m=512), dl.cpu.Matmul())
    src = tvm.compile(mod, target=RUN_TARGET).inspect_source()
    assert "#pragma omp parallel if((((n * 512) * 512) >= 1048576))" in src
    for batch in (1, 5):
        x, w, b = _rng_arrays((batch, 512), (512, 512), (512,))
        out = np.zeros((batch, 512), "float32")
        tvm.compile(mod, target=RUN_TARGET)["main"](x, w, b, out)
        np.testing.assert_allclose(out, np.maximum(x @ w + b, 0), rtol=1e-4, atol=1e-4)


def row_dense_bias_relu(batch, k=96, m=512):
    """relu(x @ w + b) with int64 shapes throughout (as LegalizeOps makes them)."""
    x = te.placeholder((_batch(batch), tir.const(k, "int64")), name="x")
    w = te.placeholder((tir.const(k, "int64"), tir.const(m, "int64")), name="w")
    b = te.placeholder((w.shape[1],), name="b")
    r = te.reduce_axis((0, x.shape[1]), "r")
    y = te.compute(
        (x.shape[0], w.shape[1]), lambda i, j: te.sum(x[i, r] * w[r, j], axis=r), name="dense"
    )
    zero = tir.const(0, "float32")
    out = te.compute(y.shape, lambda i, j: tir.Max(y[i, j] + b[j], zero), name="bias_relu")
    return te.create_prim_func([x, w, b, out])


def _run_dense_bias_relu(mod, batch, k, m):
    x, w, b = _rng_arrays((batch, k), (k, m), (m,))
    out = np.zeros((batch, m), "float32")
    tvm.compile(mod, target=RUN_TARGET)["main"](x, w, b, out)
    np.testing.assert_allclose(out, np.maximum(x @ w + b, 0), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("batch", [1, 3, 64])
def test_gemv_rule_with_a_symbolic_batch_equals_numpy(batch):
    # One kernel for every batch: the GEMV for n == 1, Matmul's tiles otherwise.
    mod = _schedule(row_dense_bias_relu(None), dl.cpu.GEMV())
    assert mod["main"].attrs["tir.is_scheduled"]
    _run_dense_bias_relu(mod, batch, 96, 512)


@pytest.mark.parametrize("k, m", [(96, 512), (784, 512), (64, 80), (50, 97)])
def test_gemv_rule_at_batch_one_equals_numpy(k, m):
    mod = _schedule(row_dense_bias_relu(1, k=k, m=m), dl.cpu.GEMV())
    assert mod["main"].attrs["tir.is_scheduled"]
    _run_dense_bias_relu(mod, 1, k, m)


@pytest.mark.parametrize(
    "target, columns, acc",
    [
        (AVX512_TARGET, 256, '(16,), "float32x16"'),
        (AVX2_TARGET, 64, '(8,), "float32x8"'),
        ("llvm -mcpu=x86-64", 32, '(8,), "float32x4"'),
    ],
    ids=["avx512", "avx2", "x86-64"],
)
def test_gemv_columns_fill_half_the_vector_registers(target, columns, acc):
    # 16 accumulators with AVX-512's 32 registers, 8 with 16 registers, each held in a
    # register over the whole reduction (the lowered kernel's dense_acc).
    from tvm.driver import lower

    mod = _schedule(row_dense_bias_relu(1), dl.cpu.GEMV(), target=target)
    assert columns in {int(lp.extent) for lp in _vector_loops(mod["main"])}
    with Target(target):
        script = lower(mod).script()
    assert f"dense_acc = T.decl_buffer({acc})" in script


def test_gemv_threads_only_for_large_weights():
    # 96 x 512 float32 weights (192 KiB) stream in faster than a thread wakes; 784 x 512
    # (1.5 MiB) are split between threads by column blocks.
    small = _schedule(row_dense_bias_relu(1, k=96), dl.cpu.GEMV(), target=AVX512_TARGET)
    assert ForKind.PARALLEL not in _loop_kinds(small["main"])
    large = _schedule(row_dense_bias_relu(1, k=784), dl.cpu.GEMV(), target=AVX512_TARGET)
    assert ForKind.PARALLEL in _loop_kinds(large["main"])
    # ... and only while the machine has a CPU to spare, asked at run time.
    src = tvm.compile(large, target=AVX512_TARGET).inspect_source()
    assert "#pragma omp parallel if((tvm_cpu_spare() != 0))" in src
    assert "num_threads(tvm_spare_threads())" in src


def test_gemv_dispatches_on_a_symbolic_batch_inside_the_kernel():
    mod = _schedule(row_dense_bias_relu(None), dl.cpu.GEMV(), target=AVX512_TARGET)
    src = tvm.compile(mod, target=AVX512_TARGET).inspect_source()
    assert "if ((n == 1)) {" in src
    # The batch-1 branch is the GEMV (a 256-column block); the other is Matmul's, unchanged.
    general = _schedule(row_dense_bias_relu(None), dl.cpu.Matmul(), target=AVX512_TARGET)
    assert {int(lp.extent) for lp in _vector_loops(mod["main"])} == {256} | {
        int(lp.extent) for lp in _vector_loops(general["main"])
    }


def test_gemv_dispatch_defines_each_variable_once():
    # The two branches are schedules of one function; sharing loop or block variables made
    # the kernel print, parse and print again to other names.
    mod = _schedule(row_dense_bias_relu(None), dl.cpu.GEMV(), target=AVX512_TARGET)
    defined = []

    def collect(node):
        if isinstance(node, For):
            defined.append(node.loop_var)
        elif isinstance(node, tir.Block):
            defined.extend(iv.var for iv in node.iter_vars)

    post_order_visit(mod["main"].body, collect)
    assert len({id(v) for v in defined}) == len(defined)
    text = mod.script()
    assert tvm.script.from_source(text).script() == text


def test_gemv_rule_skips_what_is_not_a_row_vector_matmul():
    target = Target(RUN_TARGET)
    # Several rows (static) and no matmul at all.
    assert dl.cpu.GEMV().apply(row_dense_bias_relu(64), target, False) is None
    assert dl.cpu.GEMV().apply(add_relu(1), target, False) is None


def _relax_dense_relu(k=96, m=512):
    n = tir.Var("n", "int64")
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo((n, k), "float32"))
    w = relax.Var("w", relax.TensorStructInfo((k, m), "float32"))
    b = relax.Var("b", relax.TensorStructInfo((m,), "float32"))
    with bb.function("main", [x, w, b]):
        with bb.dataflow():
            out = bb.emit_output(relax.op.nn.relu(relax.op.add(relax.op.matmul(x, w), b)))
        bb.emit_func_output(out)
    return bb.get()


def test_default_pipeline_runs_a_batch_one_layer_as_a_gemv():
    with Target(AVX512_TARGET):
        lowered = relax.get_pipeline("default")(_relax_dense_relu())
    (kernel,) = [f for gv, f in lowered.functions.items() if "matmul" in gv.name_hint]
    assert "if n == T.int64(1):" in kernel.script()
    assert 256 in {int(lp.extent) for lp in _vector_loops(kernel)}
    ex = tvm.compile(_relax_dense_relu(), target=RUN_TARGET)
    for batch in (1, 3):
        x, w, b = _rng_arrays((batch, 96), (96, 512), (512,))
        out = relax.VirtualMachine(ex, tvm.cpu())["main"](x, w, b).numpy()
        np.testing.assert_allclose(out, np.maximum(x @ w + b, 0), rtol=1e-4, atol=1e-4)


def _sequence_dense(batch, seq, k=64, m=128):
    """x @ w for x of (batch, seq, k): a transformer's projection."""
    x = te.placeholder((batch, seq, tir.const(k, "int64")), name="x")
    w = te.placeholder((tir.const(k, "int64"), tir.const(m, "int64")), name="w")
    r = te.reduce_axis((0, x.shape[2]), "r")
    y = te.compute(
        (batch, seq, w.shape[1]), lambda b, i, j: te.sum(x[b, i, r] * w[r, j], axis=r), name="y"
    )
    return te.create_prim_func([x, w, y])


@pytest.mark.parametrize("seq", [1, 5])
def test_gemv_dispatches_on_the_one_symbolic_row_extent(seq):
    # (1, S, k) @ (k, m): the GEMV when S == 1, Matmul's tiles for any other S.
    s = tir.Var("S", "int64")
    func = _sequence_dense(tir.const(1, "int64"), s)
    mod = _schedule(func, dl.cpu.GEMV())
    assert "if S == T.int64(1):" in mod.script()
    x, w = _rng_arrays((1, seq, 64), (64, 128))
    out = np.zeros((1, seq, 128), "float32")
    tvm.compile(mod, target=RUN_TARGET)["main"](x, w, out)
    np.testing.assert_allclose(out, x @ w, rtol=1e-4, atol=1e-4)


def test_gemv_leaves_two_symbolic_row_extents_to_matmul():
    func = _sequence_dense(tir.Var("N", "int64"), tir.Var("S", "int64"))
    assert dl.cpu.GEMV().apply(func, Target(RUN_TARGET), False) is None


def test_gemv_narrow_columns_pad_and_split_the_reduction_into_partial_sums():
    # A batch-1 classifier of 10 columns under AVX-512: w padded to one vector of 16, the 512
    # terms in 8 partial sums (rfactor), each a vector of accumulators, then summed.
    mod = _schedule(row_dense_bias_relu(1, k=512, m=10), dl.cpu.GEMV(), target=AVX512_TARGET)
    script = mod.script()
    assert "w_pad = T.alloc_buffer((512, 16))" in script
    assert "dense_pad_rf = T.alloc_buffer((T.int64(8), 1, 16))" in script
    assert 'T.block("dense_rf")' in script


@pytest.mark.parametrize("k", [512, 96])
def test_gemv_narrow_columns_equal_numpy(k):
    # 3 columns under x86-64 (4 float32 lanes).
    mod = _schedule(row_dense_bias_relu(1, k=k, m=3), dl.cpu.GEMV())
    assert "dense_pad_rf" in mod.script()
    _run_dense_bias_relu(mod, 1, k, 3)


def test_gemv_leaves_a_short_narrow_reduction_alone():
    # 40 terms: one short FMA chain, not worth partial sums (nor a tile: Matmul skips it too).
    assert dl.cpu.GEMV().apply(row_dense_bias_relu(1, k=40, m=3), Target(RUN_TARGET), False) is None


def test_gemv_leaves_narrow_columns_of_a_symbolic_batch_to_matmul():
    func = row_dense_bias_relu(None, k=512, m=10)
    assert dl.cpu.GEMV().apply(func, Target(AVX512_TARGET), False) is None


@requires_avx512
def test_gemv_narrow_columns_equal_numpy_with_avx512():
    mod = _schedule(row_dense_bias_relu(1, k=512, m=10), dl.cpu.GEMV(), target=AVX512_TARGET)
    x, w, b = _rng_arrays((1, 512), (512, 10), (10,))
    out = np.zeros((1, 10), "float32")
    tvm.compile(mod, target=AVX512_TARGET)["main"](x, w, b, out)
    np.testing.assert_allclose(out, np.maximum(x @ w + b, 0), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("inside_root", [True, False])
def test_a_run_time_check_first_in_the_function_is_kept_and_the_rest_scheduled(inside_root):
    # legalisations of ops over symbolic dims put such asserts first in the root block (so the
    # text round-trips); dlight skipped the func
    func = dense_bias_relu(None)
    n = func.buffer_map[func.params[0]].shape[0]
    cond = tir.GE(n, tir.const(0, "int64"))
    root = func.body
    if inside_root:
        body = root.with_fields(
            block=root.block.with_fields(body=tir.AssertStmt(cond, "n >= 0", root.block.body))
        )
    else:
        body = tir.AssertStmt(cond, "n >= 0", root)
    with Target(RUN_TARGET):
        mod = dl.ApplyDefaultSchedule(dl.cpu.Matmul())(tvm.IRModule({"main": func.with_body(body)}))
    out = mod["main"]
    assert out.attrs["tir.is_scheduled"]
    check = out.body.block.body
    assert isinstance(check, tir.AssertStmt) and check.message == "n >= 0"
    kinds = []
    post_order_visit(check.body, lambda s: kinds.append(s.kind) if isinstance(s, For) else None)
    assert ForKind.VECTORIZED in kinds  # Matmul's schedule; the te nest is all serial
