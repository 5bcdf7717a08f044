"""FoldConstant: a call_tir whose inputs are all constants (and whose output shape is static)
is run once at compile time, and its binding becomes the resulting relax.Constant."""

from __future__ import annotations

from tvm.transform import module_pass

from .lowering_utils import BindingRewriter, is_op_call


def _static_shape(sinfo):
    from tvm.relax.expr import ShapeExpr
    from tvm.relax.struct_info import TensorStructInfo
    from tvm.tir.expr import IntImm

    if not isinstance(sinfo, TensorStructInfo) or not isinstance(sinfo.shape, ShapeExpr):
        return None
    if not all(isinstance(v, IntImm) for v in sinfo.shape.values):
        return None
    return tuple(int(v.value) for v in sinfo.shape.values)


def _fold_candidate(mod, value, is_constant):
    """(kernel GlobalVar, args, output shape) when value is a call_tir of a PrimFunc in mod with
    a static output shape whose arguments all pass is_constant; else None."""
    from tvm.ir.module import GlobalVar
    from tvm.relax.expr import Tuple
    from tvm.tir.function import PrimFunc

    if not is_op_call(value, "relax.call_tir") or len(value.args) != 2:
        return None
    gv, packed = value.args
    args = list(packed.fields) if isinstance(packed, Tuple) else [packed]
    shape = _static_shape(value.sinfo_args[0] if value.sinfo_args else None)
    if not (isinstance(gv, GlobalVar) and gv in mod and isinstance(mod[gv], PrimFunc)):
        return None
    if shape is None or not all(is_constant(a) for a in args):
        return None
    return gv, args, shape


class _FoldPlanner(BindingRewriter):
    """A dry run of the folder (it changes nothing): the kernels that folding will run, found
    ahead so that they compile into one library instead of one C compiler run each."""

    def __init__(self, mod):
        super().__init__()
        self.mod = mod
        self.folded_vars: set = set()
        self.kernels: dict = {}  # name -> GlobalVar, in first-use order

    def _is_constant(self, expr):
        from tvm.relax.expr import Constant

        return isinstance(expr, Constant) or expr in self.folded_vars

    def rewrite_binding(self, binding, emit):
        found = _fold_candidate(self.mod, binding.value, self._is_constant)
        if found is not None:
            self.folded_vars.add(binding.var)
            self.kernels.setdefault(found[0].name_hint, found[0])
        emit(binding)


class _Folder(BindingRewriter):
    def __init__(self, mod, target, kernels):
        super().__init__()
        self.mod = mod
        self.target = target
        self.planned = kernels  # name -> GlobalVar, compiled together on first use
        self.kernels: dict = {}

    def _kernel(self, gv):
        import tvm
        from tvm.ir.module import IRModule

        if gv.name_hint not in self.kernels:
            group = self.planned if gv.name_hint in self.planned else {gv.name_hint: gv}
            funcs = {n: self.mod[g].with_attr("global_symbol", n) for n, g in group.items()}
            lib = tvm.compile(IRModule(funcs), target=self.target)
            self.kernels.update((name, lib[name]) for name in funcs)
        return self.kernels[gv.name_hint]

    def rewrite_binding(self, binding, emit):
        import tvm.runtime
        from tvm.relax.expr import Constant

        value = binding.value
        found = _fold_candidate(self.mod, value, lambda a: isinstance(a, Constant))
        if found is None:
            emit(binding)
            return
        gv, args, shape = found
        out = tvm.runtime.empty(shape, str(value.sinfo_args[0].dtype))
        self._kernel(gv)(*[a.data for a in args], out)
        const = Constant(out)
        self.var_map[binding.var] = const  # later uses see the constant, and may fold too
        emit(binding.with_fields(value=const))


def FoldConstant(target="llvm"):  # noqa: N802
    """Evaluate call_tir of constant inputs at compile time (relax.transform.FoldConstant)."""

    @module_pass(opt_level=0, name="FoldConstant")
    def fold_constant(mod, ctx):
        from tvm.relax.expr import Function

        functions = [(gv, f) for gv, f in mod.functions.items() if isinstance(f, Function)]
        planner = _FoldPlanner(mod)
        for _, func in functions:
            planner.rewrite_function(func)
        folder = _Folder(mod, target, planner.kernels)
        changed = {}
        for gv, func in functions:
            new = folder.rewrite_function(func)
            if new is not func:
                changed[gv] = new
        if not changed:
            return mod
        return mod._with_replaced_functions(changed)

    return fold_constant
