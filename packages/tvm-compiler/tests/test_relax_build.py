"""relax.build / tvm.compile of Relax modules: the VM runs them on shapes known only at run
time, checks its arguments, branches on symbolic values and round-trips through a library."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest
import tvm
from relax_programs import if_on_symbolic_module, mlp_module, mlp_reference, run
from tvm import relax


@pytest.fixture(params=["bytecode", "compiled"])
def build(request):
    """relax.build in one execution mode: every program must run the same in both."""

    def build_in_mode(mod, target, **kwargs):
        return relax.build(mod, target, exec_mode=request.param, **kwargs)

    build_in_mode.exec_mode = request.param
    return build_in_mode


def _weights(sizes, seed=0):
    rng = np.random.default_rng(seed)
    return [
        (rng.standard_normal((k, m)).astype("float32"), rng.standard_normal(m).astype("float32"))
        for k, m in zip(sizes[:-1], sizes[1:])
    ]


def _flat(weights):
    return [a for pair in weights for a in pair]


@pytest.mark.parametrize("batch", [1, 7])
def test_mlp_with_symbolic_batch_matches_numpy(batch, build):
    sizes = (6, 16, 5)
    ex = build(mlp_module(sizes), "llvm")
    weights = _weights(sizes)
    x = np.random.default_rng(1).standard_normal((batch, sizes[0])).astype("float32")
    out = run(ex, x, *_flat(weights))
    np.testing.assert_allclose(out.numpy(), mlp_reference(x, weights), rtol=1e-5, atol=1e-5)


def test_tvm_compile_of_a_relax_module_is_a_vm_executable(build):
    ex = tvm.compile(mlp_module(), target="llvm", exec_mode=build.exec_mode)
    assert isinstance(ex, relax.Executable)
    assert "main" in ex


def test_tvm_compile_of_tir_is_unchanged(add_one_func):
    lib = tvm.compile(tvm.IRModule({"add_one": add_one_func.with_attr("global_symbol", "f")}))
    assert not isinstance(lib, relax.Executable)


def test_a_mismatched_dimension_names_argument_dimension_and_values(build):
    ex = build(mlp_module((4, 8)), "llvm")
    x = np.zeros((2, 4), "float32")
    with pytest.raises(ValueError) as info:
        run(ex, x, np.zeros((3, 8), "float32"), np.zeros(8, "float32"))
    message = str(info.value)
    assert "fn=main" in message and "param=w0" in message
    assert "dimension 0" in message and "is 3" in message and "expected 4" in message


def test_a_symbolic_dimension_seen_twice_must_agree(build):
    ex = build(mlp_module((4, 8)), "llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    # The output's batch dimension is checked against n when main returns; here the input
    # itself disagrees with the weights' declared dims, so the VM refuses before any kernel.
    with pytest.raises(ValueError, match="param=x"):
        vm["main"](
            tvm.runtime.tensor(np.zeros((2, 5), "float32")),
            tvm.runtime.tensor(np.zeros((4, 8), "float32")),
            tvm.runtime.tensor(np.zeros(8, "float32")),
        )


def test_wrong_dtype_and_rank_are_refused(build):
    ex = build(mlp_module((4, 8)), "llvm")
    args = [np.zeros((4, 8), "float32"), np.zeros(8, "float32")]
    with pytest.raises((TypeError, ValueError), match="param=x"):
        run(ex, np.zeros((2, 4), "float64"), *args)
    with pytest.raises(ValueError, match="param=x"):
        run(ex, np.zeros((2, 4, 1), "float32"), *args)


def test_if_on_a_symbolic_shape_condition(build):
    ex = build(if_on_symbolic_module(), "llvm")
    assert run(ex, np.arange(16)) == 5
    assert run(ex, np.arange(20)) == 10


def test_assert_op_raises_assertion_error_with_formatted_message(build):
    ex = build(if_on_symbolic_module(), "llvm")
    with pytest.raises(AssertionError, match=r"N too small: \[0 1\]"):
        run(ex, np.arange(2))


def test_if_bytecode_branches_with_if_and_goto(build):
    ex = build(if_on_symbolic_module(), "llvm")
    text = ex.as_text()
    assert "vm.builtin.read_if_cond" in text
    assert "If " in text and "goto" in text


def test_unknown_pipeline_and_exec_mode_are_refused():
    with pytest.raises(ValueError, match="unknown pipeline 'nope'"):
        relax.build(mlp_module(), "llvm", relax_pipeline="nope")
    with pytest.raises(ValueError, match="exec_mode"):
        relax.build(mlp_module(), "llvm", exec_mode="jit")
    with pytest.raises(ValueError, match="relax.build: argument 'exec_mode' must be"):
        relax.build(mlp_module(), "llvm", exec_mode="Compiled")
    with pytest.raises(TypeError, match="argument 'mod'"):
        relax.build("main", "llvm")


_FRESH = textwrap.dedent(
    """
    import sys, importlib.abc
    class _NoCompiler(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            top = name.split(".")[:2]
            if top[0] == "tvm" and len(top) > 1 and top[1] in (
                "relax", "tir", "te", "ir", "driver", "codegen", "target", "topi", "arith"
            ):
                raise ImportError("compiler package imported: " + name)
    sys.meta_path.insert(0, _NoCompiler())
    import numpy as np, tvm
    from tvm.runtime.vm import VirtualMachine
    ex = tvm.runtime.load_module(sys.argv[1])
    vm = VirtualMachine(ex, tvm.cpu())
    x = np.load(sys.argv[2])
    args = [tvm.runtime.tensor(np.load(p)) for p in sys.argv[3:]]
    out = vm["main"](tvm.runtime.tensor(x), *args)
    np.save(sys.argv[2] + ".out.npy", out.numpy())
    print("ok", out.shape)
    """
)


def test_export_library_runs_in_a_fresh_process_without_the_compiler(tmp_path, build):
    sizes = (4, 8, 3)
    ex = build(mlp_module(sizes), "llvm")
    lib = tmp_path / "mlp.so"
    ex.export_library(str(lib))
    weights = _weights(sizes)
    paths = []
    for i, a in enumerate(_flat(weights)):
        paths.append(str(tmp_path / f"p{i}.npy"))
        np.save(paths[-1], a)
    for batch in (1, 9):
        x = np.random.default_rng(batch).standard_normal((batch, 4)).astype("float32")
        xp = str(tmp_path / f"x{batch}.npy")
        np.save(xp, x)
        proc = subprocess.run(
            [sys.executable, "-c", _FRESH, str(lib), xp, *paths],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        np.testing.assert_allclose(
            np.load(xp + ".out.npy"), mlp_reference(x, weights), rtol=1e-5, atol=1e-5
        )


def test_build_params_are_bound_and_exported_for_a_fresh_process(tmp_path, build):
    sizes = (4, 8, 3)
    weights = _weights(sizes)
    names = [f"{kind}{layer}" for layer in range(len(sizes) - 1) for kind in ("w", "b")]
    params = {name: tvm.runtime.tensor(a) for name, a in zip(names, _flat(weights))}
    ex = build(mlp_module(sizes), "llvm", params=params)
    lib = tmp_path / "mlp_params.so"
    ex.export_library(str(lib))
    x = np.random.default_rng(3).standard_normal((5, 4)).astype("float32")
    xp = str(tmp_path / "x.npy")
    np.save(xp, x)
    # main now takes x alone: the weights travel inside the library
    proc = subprocess.run(
        [sys.executable, "-c", _FRESH, str(lib), xp], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_allclose(
        np.load(xp + ".out.npy"), mlp_reference(x, weights), rtol=1e-5, atol=1e-5
    )


def _if_on_tensor_module():
    from tvm import tir
    from tvm.ir.module import IRModule
    from tvm.relax.transform.lowering_utils import with_sinfo

    n = tir.Var("n", "int64")
    s = relax.TensorStructInfo([n], "float32")
    c = relax.Var("c", relax.TensorStructInfo([], "bool"))
    x, y = relax.Var("x", s), relax.Var("y", s)
    r = relax.Var("r", s)
    branch = relax.If(c, with_sinfo(relax.SeqExpr([], x), s), with_sinfo(relax.SeqExpr([], y), s))
    block = relax.BindingBlock([relax.VarBinding(r, with_sinfo(branch, s))])
    func = relax.Function([c, x, y], relax.SeqExpr([block], r), s, attrs={"global_symbol": "main"})
    return IRModule({"main": func})


def test_if_on_a_scalar_bool_tensor(build):
    ex = build(_if_on_tensor_module(), "llvm")
    x, y = np.ones(3, "float32"), np.zeros(3, "float32")
    assert run(ex, np.array(True), x, y).numpy().tolist() == [1, 1, 1]
    assert run(ex, np.array(False), x, y).numpy().tolist() == [0, 0, 0]


def test_a_prim_value_argument_defines_a_symbolic_dimension(build):
    from tvm import tir
    from tvm.ir.module import IRModule

    n = tir.Var("n", "int64")
    p = relax.Var("p", relax.PrimStructInfo(value=n))
    y = relax.Var("y", relax.TensorStructInfo([n], "float32"))
    func = relax.Function([p, y], relax.SeqExpr([], y), y.struct_info, attrs={"global_symbol": "g"})
    ex = build(IRModule({"g": func}), "llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    assert tuple(vm["g"](3, tvm.runtime.tensor(np.ones(3, "float32"))).shape) == (3,)
    with pytest.raises(ValueError, match="param=y.*is 3, expected 4"):
        vm["g"](4, tvm.runtime.tensor(np.ones(3, "float32")))


def test_wrong_argument_count_and_kind_name_the_function_and_parameter(build):
    ex = build(mlp_module((4, 8)), "llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    x = tvm.runtime.tensor(np.zeros((2, 4), "float32"))
    with pytest.raises(TypeError, match=r"'main' takes 3 argument\(s\) \(x, w0, b0\), got 1"):
        vm["main"](x)
    with pytest.raises(TypeError, match="param=w0.*expected a Tensor, got int"):
        vm["main"](x, 1, 2)


def test_match_cast_defines_dims_used_by_a_composite_shape(build):
    from tvm import te, tir

    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo(ndim=2, dtype="float32"))
    m, k = tir.Var("m", "int64"), tir.Var("k", "int64")

    def repeat_rows(a):
        return te.compute((a.shape[0] * 2, a.shape[1]), lambda i, j: a[i // 2, j] + 1.0)

    with bb.function("main", [x]):
        y = bb.match_cast(x, relax.TensorStructInfo((m, k), "float32"))
        bb.emit_func_output(bb.emit_te(repeat_rows, y))
    ex = build(bb.get(), "llvm")
    data = np.arange(6, dtype="float32").reshape(3, 2)
    np.testing.assert_array_equal(run(ex, data).numpy(), np.repeat(data, 2, axis=0) + 1)
    with pytest.raises(ValueError, match="param=x.*2 dimensions"):
        run(ex, np.zeros((4, 1, 1), "float32"))


def test_blockbuilder_mlp_of_relax_ops_compiles_through_legalize_ops(build):
    from tvm import tir

    n = tir.Var("n", "int64")
    x = relax.Var("x", relax.TensorStructInfo((n, 6), "float32"))
    w = relax.Var("w", relax.TensorStructInfo((6, 5), "float32"))
    b = relax.Var("b", relax.TensorStructInfo((5,), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w, b]):
        with bb.dataflow():
            y = bb.emit(relax.op.matmul(x, w))
            y = bb.emit(relax.op.add(y, b))
            out = bb.emit_output(bb.emit(relax.op.nn.relu(y)))
        bb.emit_func_output(out)
    ex = tvm.compile(bb.get(), target="llvm", exec_mode=build.exec_mode)
    ((wv, bv),) = _weights((6, 5))
    for batch in (1, 4):
        xv = np.random.default_rng(batch).standard_normal((batch, 6)).astype("float32")
        got = run(ex, xv, wv, bv).numpy()
        np.testing.assert_allclose(got, mlp_reference(xv, [(wv, bv)]), rtol=1e-5, atol=1e-5)


def test_call_tir_with_tir_vars_passes_the_symbolic_values_as_scalars(build):
    from tvm import te, tir
    from tvm.ir.module import GlobalVar, IRModule
    from tvm.relax.transform.lowering_utils import call

    n, m = tir.Var("n", "int64"), tir.Var("m", "int64")
    a = te.placeholder((n,), "float32", name="A")
    b = te.compute((n,), lambda i: a[i] + m.astype("float32"), name="B")
    kernel = te.create_prim_func([a, b, m])
    s = relax.TensorStructInfo([n], "float32")
    x, y = relax.Var("x", s), relax.Var("y", s)
    gv = GlobalVar("add_m")
    value = call("relax.call_tir", [gv, relax.Tuple([x]), relax.ShapeExpr([n * 2])], s, [s])
    block = relax.BindingBlock([relax.VarBinding(y, value)])
    func = relax.Function([x], relax.SeqExpr([block], y), s, attrs={"global_symbol": "main"})
    ex = build(IRModule({gv: kernel, "main": func}), "llvm")
    assert "vm.builtin.call_tir_dyn" in ex.as_text()
    assert run(ex, np.zeros(3, "float32")).numpy().tolist() == [6, 6, 6]


def test_building_an_equal_module_again_reuses_the_executable():
    first = relax.build(mlp_module((4, 8)), "llvm")
    assert relax.build(mlp_module((4, 8)), "llvm") is first  # a new, structurally equal module
    assert relax.build(mlp_module((4, 6)), "llvm") is not first
    assert relax.build(mlp_module((4, 8)), "llvm", relax_pipeline="default_build") is not first
    x = np.ones((2, 4), "float32")
    out = run(first, x, np.ones((4, 8), "float32"), np.zeros(8, "float32"))
    assert out.numpy().tolist() == [[4.0] * 8] * 2


def test_an_op_left_unlegalised_for_an_unknown_shape_says_so_and_how_to_fix_it():
    bb = relax.BlockBuilder()
    t = relax.Var("t", relax.TensorStructInfo((2,), "int64"))
    with bb.function("main", [t]):
        shape = bb.emit(relax.op.tensor_to_shape(t))
        out = bb.emit(relax.op.zeros(shape, "float32"))
        bb.emit_func_output(out)
    with pytest.raises(Exception, match="'relax.zeros' was not legalised because a shape") as err:
        tvm.compile(bb.get(), target="llvm")
    assert "R.match_cast" in str(err.value)
