# relax.transform.RewriteDataflowReshape: reshape-like call_tir inside dataflow blocks become
# relax reshapes (as apache-tvm 0.27 rewrites the same module), which LowerRuntimeBuiltin turns
# into vm.builtin.reshape views; the compiled module computes what the copying one does.
import numpy as np
import tvm
from tvm import relax
from tvm.relax import transform as T


def _legalized():
    x = relax.Var("x", relax.TensorStructInfo((2, 3, 4), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            a = bb.emit(relax.op.reshape(x, (6, 4)))
            b = bb.emit(relax.op.add(a, a))
            c = bb.emit(relax.op.permute_dims(b, [1, 0]))  # moves data: stays a kernel
            e = bb.emit(relax.op.expand_dims(c, 0))
            g = bb.emit_output(relax.op.add(e, e))
        r = bb.emit(relax.op.reshape(g, (24,)))  # outside a dataflow block: stays a kernel
        bb.emit_func_output(r)
    return T.LegalizeOps()(bb.get())


def _kinds(func):
    out = []
    for block in func.body.blocks:
        for b in block.bindings:
            v = b.value
            out.append(v.args[0].name_hint if v.op.name == "relax.call_tir" else v.op.name)
    return out


def test_rewrites_reshape_like_kernels_in_dataflow_blocks():
    mod = _legalized()
    out = T.RewriteDataflowReshape()(mod)
    assert _kinds(out["main"]) == [
        "relax.reshape",
        "add",
        "transpose",
        "relax.reshape",
        "add1",
        "reshape1",
    ]
    shapes = [
        [int(d) for d in b.value.args[1].values]
        for b in out["main"].body.blocks[0].bindings
        if b.value.op.name == "relax.reshape"
    ]
    assert shapes == [[6, 4], [1, 4, 6]]
    assert relax.analysis.well_formed(out)
    assert T.RewriteDataflowReshape()(out) is out


def test_views_compute_the_same_values():
    mod = _legalized()
    after_legalize = [
        T.ToNonDataflow(),
        T.RemovePurityChecking(),
        T.CallTIRRewrite(),
        T.StaticPlanBlockMemory(),
        T.LowerAllocTensor(),
        T.KillAfterLastUse(),
        T.LowerRuntimeBuiltin(),
        T.ComputePrimValue(),
        T.VMShapeLower(),
        T.AttachGlobalSymbol(),
    ]
    lowered = tvm.transform.Sequential([T.RewriteDataflowReshape(), *after_legalize])(mod)
    assert "vm.builtin.reshape" in lowered["main"].script()
    data = np.arange(24, dtype="float32").reshape(2, 3, 4)
    want = np.expand_dims((data.reshape(6, 4) * 2).T, 0) * 2
    pipeline = tvm.transform.Sequential(after_legalize)
    for exec_mode in ("bytecode", "compiled"):
        for candidate in (T.RewriteDataflowReshape()(mod), mod):
            ex = relax.build(candidate, "llvm", relax_pipeline=pipeline, exec_mode=exec_mode)
            got = relax.VirtualMachine(ex, tvm.cpu())["main"](data).numpy()
            np.testing.assert_allclose(got, want.reshape(24))
