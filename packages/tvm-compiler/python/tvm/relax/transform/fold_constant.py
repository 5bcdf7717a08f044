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


class _Folder(BindingRewriter):
    def __init__(self, mod, target):
        super().__init__()
        self.mod = mod
        self.target = target
        self.kernels: dict = {}

    def _kernel(self, gv):
        import tvm

        if gv.name_hint not in self.kernels:
            func = self.mod[gv].with_attr("global_symbol", gv.name_hint)
            lib = tvm.compile(tvm.IRModule({gv.name_hint: func}), target=self.target)
            self.kernels[gv.name_hint] = lib[gv.name_hint]
        return self.kernels[gv.name_hint]

    def rewrite_binding(self, binding, emit):
        import tvm.runtime
        from tvm.ir.module import GlobalVar
        from tvm.relax.expr import Constant, Tuple
        from tvm.tir.function import PrimFunc

        value = binding.value
        if not is_op_call(value, "relax.call_tir") or len(value.args) != 2:
            emit(binding)
            return
        gv, packed = value.args
        args = list(packed.fields) if isinstance(packed, Tuple) else [packed]
        shape = _static_shape(value.sinfo_args[0] if value.sinfo_args else None)
        foldable = (
            isinstance(gv, GlobalVar)
            and gv in self.mod
            and isinstance(self.mod[gv], PrimFunc)
            and shape is not None
            and all(isinstance(a, Constant) for a in args)
        )
        if not foldable:
            emit(binding)
            return
        out = tvm.runtime.empty(shape, str(value.sinfo_args[0].dtype))
        self._kernel(gv)(*[a.data for a in args], out)
        const = Constant(out)
        self.var_map[binding.var] = const  # later uses see the constant, and may fold too
        emit(binding.with_fields(value=const))


def FoldConstant(target="llvm"):  # noqa: N802
    """Evaluate call_tir of constant inputs at compile time (relax.transform.FoldConstant)."""

    @module_pass(opt_level=0, name="FoldConstant")
    def fold_constant(mod, ctx):
        from tvm.ir.module import IRModule
        from tvm.relax.expr import Function

        folder = _Folder(mod, target)
        changed = {}
        for gv, func in mod.functions.items():
            if isinstance(func, Function):
                new = folder.rewrite_function(func)
                if new is not func:
                    changed[gv] = new
        if not changed:
            return mod
        return IRModule({gv: changed.get(gv, f) for gv, f in mod.functions.items()}, mod.attrs)

    return fold_constant
