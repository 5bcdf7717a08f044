"""FoldConstant: a call_tir whose inputs are all constants (and whose output shape is static)
is run once at compile time, and its binding becomes the resulting relax.Constant. Inside a
dataflow block a Relax op call of constants is folded too, through its legalisation, when that
is one call_tir (a creation op of more than 1024 elements with no tensor input is left, so as
not to bloat the module); bindings left unused afterwards are removed."""

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


def _static_outputs(sinfo):
    """[(shape, dtype)] of a call's output: one tensor, or a tuple of tensors, all of static
    shape; None otherwise."""
    from tvm.relax.struct_info import TupleStructInfo

    fields = sinfo.fields if isinstance(sinfo, TupleStructInfo) else [sinfo]
    shapes = [_static_shape(f) for f in fields]
    if not fields or any(s is None for s in shapes):
        return None
    return [(shape, str(f.dtype)) for shape, f in zip(shapes, fields)]


def _run_kernel(kernel, args, sinfo):
    """Run kernel on the constant args; the Constant (or Tuple of Constants) it produces."""
    import tvm.runtime
    from tvm.relax.expr import Constant, Tuple
    from tvm.relax.struct_info import TupleStructInfo

    outs = [tvm.runtime.empty(shape, dtype) for shape, dtype in _static_outputs(sinfo)]
    kernel(*[a.data for a in args], *outs)
    consts = [Constant(o) for o in outs]
    return Tuple(consts) if isinstance(sinfo, TupleStructInfo) else consts[0]


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
    sinfo = value.sinfo_args[0] if value.sinfo_args else None
    if not (isinstance(gv, GlobalVar) and gv in mod and isinstance(mod[gv], PrimFunc)):
        return None
    if _static_outputs(sinfo) is None or not all(is_constant(a) for a in args):
        return None
    return gv, args, sinfo


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


# A creation op's output (no tensor input) is folded only up to this many elements.
_CREATION_FOLD_LIMIT = 1024


def _is_constant_arg(arg) -> bool:
    """A Relax op argument known at compile time: a Constant, or a leaf such as a ShapeExpr,
    PrimValue, StringImm or DataTypeImm without symbolic values (or a tuple of those)."""
    from tvm.relax.expr import Constant, DataTypeImm, PrimValue, ShapeExpr, StringImm, Tuple
    from tvm.tir.expr import FloatImm, IntImm

    if isinstance(arg, (Constant, StringImm, DataTypeImm)):
        return True
    if isinstance(arg, ShapeExpr):
        return all(isinstance(v, IntImm) for v in arg.values)
    if isinstance(arg, PrimValue):
        return isinstance(arg.value, (IntImm, FloatImm))
    if isinstance(arg, Tuple):
        return all(_is_constant_arg(f) for f in arg.fields)
    return False


def _fold_shape_op(name, args):
    """shape_to_tensor of a static shape, as an int64 Constant, without its legalisation (as
    upstream's fallback does); None for anything else."""
    import numpy as np
    from tvm.relax.expr import Constant, ShapeExpr
    from tvm.tir.expr import IntImm

    if name != "relax.shape_to_tensor" or len(args) != 1 or not isinstance(args[0], ShapeExpr):
        return None
    if not all(isinstance(v, IntImm) for v in args[0].values):
        return None
    return Constant(np.array([int(v.value) for v in args[0].values], dtype="int64"))


class _Folder(BindingRewriter):
    def __init__(self, mod, target, kernels):
        super().__init__()
        self.mod = mod
        self.target = target
        self.planned = kernels  # name -> GlobalVar, compiled together on first use
        self.kernels: dict = {}
        self.in_dataflow = False

    def rewrite_block(self, block):
        from tvm.relax.expr import DataflowBlock

        outer, self.in_dataflow = self.in_dataflow, isinstance(block, DataflowBlock)
        try:
            return super().rewrite_block(block)
        finally:
            self.in_dataflow = outer

    def _fold_op_call(self, value):
        """The Constant a Relax op call of constants evaluates to, or None when it cannot (or
        should not) be folded."""
        import math

        import tvm
        import tvm.runtime
        from tvm.ir.module import IRModule
        from tvm.ir.op import Op
        from tvm.relax.block_builder import BlockBuilder
        from tvm.relax.expr import Call, Constant

        from .legalize_ops.legalize import _STRUCTURAL

        if not isinstance(value, Call):
            return None
        op = value.op
        if not isinstance(op, Op) or op.name in _STRUCTURAL:
            return None
        direct = _fold_shape_op(op.name, value.args)
        if direct is not None:
            return direct
        legalize = op.get_attr("FLegalize")
        shape = _static_shape(value.__dict__.get("struct_info_"))
        if legalize is None or shape is None:
            return None
        if not all(_is_constant_arg(a) for a in value.args):
            return None
        has_tensor_input = any(isinstance(a, Constant) for a in value.args)
        if not has_tensor_input and math.prod(shape) > _CREATION_FOLD_LIMIT:
            return None
        bb = BlockBuilder()
        with bb.testing_scope():
            lowered = legalize(bb, value)
            emitted = bb._frame.bindings if bb._frame is not None else []
        if emitted:
            return None  # legalised to more than one call: not folded (as upstream)
        mod = bb.get()
        found = _fold_candidate(mod, lowered, lambda a: isinstance(a, Constant))
        if found is None:
            return None
        gv, args, sinfo = found
        name = gv.name_hint
        lib = tvm.compile(IRModule({name: mod[gv].with_attr("global_symbol", name)}), self.target)
        return _run_kernel(lib[name], args, sinfo)

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
        from tvm.relax.expr import Constant

        value = binding.value
        found = _fold_candidate(self.mod, value, lambda a: isinstance(a, Constant))
        if found is None:
            const = self._fold_op_call(value) if self.in_dataflow else None
            if const is None:
                emit(binding)
                return
            self.var_map[binding.var] = const
            emit(binding.with_fields(value=const))
            return
        gv, args, sinfo = found
        const = _run_kernel(self._kernel(gv), args, sinfo)
        if isinstance(const, Constant):
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
        from tvm.relax.analysis import remove_all_unused

        folder = _Folder(mod, target, planner.kernels)
        changed = {}
        for gv, func in functions:
            new = folder.rewrite_function(func)
            if new is not func:
                changed[gv] = remove_all_unused(new)  # the folded bindings nothing reads
        if not changed:
            return mod
        return mod._with_replaced_functions(changed)

    return fold_constant
