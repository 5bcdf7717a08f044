# A test-only interpreter for legalised Relax modules: call_tir runs the module's PrimFuncs,
# compiled together into one library, on NumPy arrays (the VM is not needed to check ops).
import numpy as np
import tvm
from tvm import relax, tir
from tvm.arith import Analyzer
from tvm.tir.functor import substitute


class _Interp:
    def __init__(self, mod):
        self.mod = mod
        prims = {
            gv.name_hint: f.with_attr("global_symbol", gv.name_hint)
            for gv, f in mod.functions.items()
            if isinstance(f, tir.PrimFunc)
        }
        self.lib = tvm.compile(tvm.IRModule(prims)) if prims else None
        self.dims = {}

    def prim(self, expr):
        value = Analyzer().simplify(substitute(expr, self.dims))
        assert isinstance(value, (tir.IntImm, tir.FloatImm)), f"cannot evaluate {expr}"
        return value.value

    def bind(self, sinfo, value):
        if isinstance(sinfo, relax.TensorStructInfo) and sinfo.shape is not None:
            for d, n in zip(sinfo.shape.values, value.shape):
                if isinstance(d, tir.Var) and d not in self.dims:
                    self.dims[d] = n
        elif isinstance(sinfo, relax.TupleStructInfo):
            for s, v in zip(sinfo.fields, value):
                self.bind(s, v)

    def alloc(self, sinfo):
        if isinstance(sinfo, relax.TupleStructInfo):
            return [self.alloc(s) for s in sinfo.fields]
        shape = [self.prim(d) for d in sinfo.shape.values]
        return np.zeros(shape, sinfo.dtype)

    def run(self, func, args):
        env = {}
        for p, a in zip(func.params, args):
            env[p] = a
            self.bind(p.struct_info, a)
        return self.expr(func.body, env)

    def expr(self, e, env):
        if isinstance(e, relax.Var):
            return env[e]
        if isinstance(e, relax.Constant):
            return e.data.numpy()
        if isinstance(e, relax.Tuple):
            return tuple(self.expr(f, env) for f in e.fields)
        if isinstance(e, relax.TupleGetItem):
            return self.expr(e.tuple_value, env)[e.index]
        if isinstance(e, relax.ShapeExpr):
            return tuple(self.prim(v) for v in e.values)
        if isinstance(e, relax.PrimValue):
            return self.prim(e.value)
        if isinstance(e, relax.SeqExpr):
            for block in e.blocks:
                for b in block.bindings:
                    env[b.var] = self.expr(b.value, env)
                    if isinstance(b, relax.MatchCast):
                        self.bind(b.struct_info, env[b.var])
            return self.expr(e.body, env)
        if isinstance(e, relax.Call) and getattr(e.op, "name", "") == "relax.call_tir":
            ins = [self.expr(a, env) for a in e.args[1].fields]
            out_sinfo = e.sinfo_args[0]
            outs = self.alloc(out_sinfo)
            out_list = outs if isinstance(outs, list) else [outs]
            extra = list(self.expr(e.args[2], env)) if len(e.args) > 2 else []
            self.lib[e.args[0].name_hint](*ins, *out_list, *extra)
            return tuple(outs) if isinstance(outs, list) else outs
        raise NotImplementedError(f"relax_eval: cannot run {type(e).__name__} {e}")


def run(mod, *args, func="main"):
    """Run mod[func] (legalised) on NumPy arrays."""
    return _Interp(mod).run(mod[func], [np.asarray(a) for a in args])


def build_and_run(build, *args):
    """build(bb, *vars) emits a function body given params made from args; returns its result
    after LegalizeOps next to the legalised module."""
    bb = relax.BlockBuilder()
    params = [
        relax.Var(f"p{i}", relax.TensorStructInfo(list(a.shape), str(a.dtype)))
        for i, a in enumerate(args)
    ]
    with bb.function("main", params):
        bb.emit_func_output(build(bb, *params))
    mod = relax.transform.LegalizeOps()(bb.get())
    return run(mod, *args), mod
