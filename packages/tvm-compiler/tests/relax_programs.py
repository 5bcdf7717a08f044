# Small Relax programs written node by node (call_tir of te kernels), for the lowering tests.
import tvm
from tvm import relax, te, tir
from tvm.ir.module import GlobalVar, IRModule
from tvm.relax.transform.lowering_utils import call, string, with_sinfo


def tensor(*shape, dtype="float32"):
    return relax.TensorStructInfo(list(shape), dtype)


def call_tir(gv, args, out):
    return call("relax.call_tir", [gv, relax.Tuple(args)], out, [out])


def _dense_kernel(k, m):
    n = tir.Var("n", "int64")
    a = te.placeholder((n, k), "float32", name="A")
    w = te.placeholder((k, m), "float32", name="W")
    r = te.reduce_axis((0, k), "r")
    c = te.compute((n, m), lambda i, j: te.sum(a[i, r] * w[r, j], axis=r), name="C")
    return te.create_prim_func([a, w, c])


def _bias_kernel(m, relu):
    n = tir.Var("n", "int64")
    x = te.placeholder((n, m), "float32", name="X")
    b = te.placeholder((m,), "float32", name="B")
    if relu:
        y = te.compute(
            (n, m), lambda i, j: tir.Max(x[i, j] + b[j], tir.const(0, "float32")), name="Y"
        )
    else:
        y = te.compute((n, m), lambda i, j: x[i, j] + b[j], name="Y")
    return te.create_prim_func([x, b, y])


def _relu_kernel(m):
    n = tir.Var("n", "int64")
    x = te.placeholder((n, m), "float32", name="X")
    y = te.compute((n, m), lambda i, j: tir.Max(x[i, j], tir.const(0, "float32")), name="Y")
    return te.create_prim_func([x, y])


def mlp_module(sizes=(4, 8), dataflow=True):
    """main(x: (n, sizes[0]), w0, b0, w1, b1, ...) = relu(x @ w + b) per layer, with separate
    matmul, add and relu kernels (so there are intermediates to plan)."""
    n = tir.Var("n", "int64")
    x = relax.Var("x", tensor(n, sizes[0]))
    params = [x]
    kernels: dict = {}  # GlobalVar -> PrimFunc
    by_name: dict = {}

    def kernel(name, make, *args):
        if name not in by_name:
            by_name[name] = GlobalVar(name)
            kernels[by_name[name]] = make(*args)
        return by_name[name]

    var_cls = relax.DataflowVar if dataflow else relax.Var
    bindings = []
    cur = x
    for layer, (k, m) in enumerate(zip(sizes[:-1], sizes[1:])):
        w = relax.Var(f"w{layer}", tensor(k, m))
        b = relax.Var(f"b{layer}", tensor(m))
        params += [w, b]
        steps = [
            (kernel(f"matmul{k}x{m}", _dense_kernel, k, m), [cur, w]),
            (kernel(f"add{m}", _bias_kernel, m, False), None),
            (kernel(f"relu{m}", _relu_kernel, m), None),
        ]
        for step, (gv, args) in enumerate(steps):
            if args is None:
                args = [cur, b] if step == 1 else [cur]
            var = var_cls(f"{gv.name_hint}_{layer}", tensor(n, m))
            bindings.append(relax.VarBinding(var, call_tir(gv, args, tensor(n, m))))
            cur = var
    out = relax.Var("gv", tensor(n, sizes[-1]))
    bindings.append(relax.VarBinding(out, cur))
    block = relax.DataflowBlock(bindings) if dataflow else relax.BindingBlock(bindings)
    func = relax.Function(
        params, relax.SeqExpr([block], out), tensor(n, sizes[-1]), attrs={"global_symbol": "main"}
    )
    return IRModule({**kernels, "main": func})


def mlp_reference(x, weights):
    import numpy as np

    for w, b in weights:
        x = np.maximum(x @ w + b, 0)
    return x


def if_on_symbolic_module():
    """main(A: (N,) int64) -> 5 if N % 16 == 0 else 10, asserting N > 2 with a message."""
    n = tir.Var("N", "int64")
    a = relax.Var("A", tensor(n, dtype="int64"))
    prim = relax.PrimStructInfo("int64")
    i64 = lambda v: tir.IntImm("int64", v)  # noqa: E731
    cond = relax.PrimValue(tir.EQ(tir.FloorMod(n, i64(16)), i64(0)))
    branch = relax.If(
        cond,
        with_sinfo(relax.SeqExpr([], relax.PrimValue(5)), prim),
        with_sinfo(relax.SeqExpr([], relax.PrimValue(10)), prim),
    )
    out = relax.Var("out", prim)
    check = call(
        "relax.assert_op",
        [relax.PrimValue(tir.GT(n, i64(2))), a, string("N too small: {}")],
        relax.TupleStructInfo([]),
    )
    block = relax.BindingBlock(
        [
            relax.VarBinding(out, with_sinfo(branch, prim)),
            relax.VarBinding(relax.Var("_", relax.TupleStructInfo([])), check),
        ]
    )
    func = relax.Function(
        [a], relax.SeqExpr([block], out), prim, is_pure=False, attrs={"global_symbol": "main"}
    )
    return IRModule({"main": func})


def run(ex, *arrays, func="main"):
    vm = relax.VirtualMachine(ex, tvm.cpu())
    return vm[func](*[tvm.runtime.tensor(a) for a in arrays])
