"""VMShapeLower: symbolic shapes become a shape heap. Each function allocates an int64 heap,
checks its arguments (vm.builtin.check_*_info), stores their symbolic dimensions into the heap
(vm.builtin.match_shape), computes composite dimensions in a host PrimFunc, and builds every
shape it needs from the heap (vm.builtin.make_shape)."""

from __future__ import annotations

from tvm.transform import module_pass

from ..transform.lowering_utils import (
    call,
    call_packed,
    dtype_imm,
    new_var,
    prim,
    string,
    void_sinfo,
    with_sinfo,
)


def _codes():
    from tvm.runtime.vm.shape_codes import MakeShapeCode, MatchShapeCode

    return MatchShapeCode, MakeShapeCode


def _sinfo_text(sinfo) -> str:
    """An annotation as the error context of a failed check shows it: its script text, as
    upstream writes the struct info there (R.Tensor((n, 4), dtype="float32"))."""
    return str(sinfo)


def _tir_vars(expr) -> list:
    from tvm.tir.analysis.well_formed import undefined_vars

    return list(undefined_vars(expr))


def _is_const(expr) -> bool:
    from tvm.tir.expr import IntImm

    return isinstance(expr, IntImm)


class _Lowerer:
    """Lowers one function; heap slots are given to symbolic vars and composite expressions."""

    def __init__(
        self, func_name: str, func, new_funcs: dict, taken_names: set, emit_err_ctx: bool = True
    ):
        self.func_name = func_name
        self.emit_err_ctx = emit_err_ctx
        self.func = func
        self.new_funcs = new_funcs
        self.taken = taken_names
        self.slot_of: dict = {}  # structural key of a PrimExpr -> heap slot
        self.defined: set = set()  # slot keys whose value is in the heap
        self.pending_exprs: list = []  # composite exprs waiting for their vars
        self.heap = None
        self.out: list = []
        self.shape_cache: dict = {}  # (ndim, codes...) -> the var that made that shape
        self.depth = 0

    # -- slots ------------------------------------------------------------------------------
    def _key(self, expr):
        from tvm.ir.structural import structural_hash
        from tvm.tir.expr import Var

        if isinstance(expr, Var):
            return ("var", id(expr))
        return ("expr", structural_hash(expr, map_free_vars=False), str(expr))

    def _slot(self, expr) -> int:
        key = self._key(expr)
        slot = self.slot_of.get(key)
        if slot is None:
            slot = len(self.slot_of)
            self.slot_of[key] = slot
        return slot

    def _collect(self, expr) -> None:
        """Give expr (and its vars) heap slots; composite ones are computed later."""
        if _is_const(expr):
            return
        for var in _tir_vars(expr):
            self._slot(var)
        from tvm.tir.expr import Var

        if not isinstance(expr, Var):
            key = self._key(expr)
            if key not in self.slot_of:
                self._slot(expr)
                self.pending_exprs.append(expr)

    def _collect_sinfo(self, sinfo) -> None:
        for dim in _sinfo_dims(sinfo):
            self._collect(dim)

    # -- emission ---------------------------------------------------------------------------
    def emit(self, value, name="_", sinfo=None):
        from tvm.relax.expr import VarBinding

        var = new_var(name, sinfo if sinfo is not None else value.struct_info)
        self.out.append(VarBinding(var, value))
        return var

    def err(self, loc: str, param=None, sinfo=None) -> str:
        if not self.emit_err_ctx:  # upstream: an empty context string
            return ""
        parts = [f"fn={self.func_name}", f"loc={loc}"]
        if param is not None:
            parts.append(f"param={param.name_hint}")
        if sinfo is not None:
            parts.append(f"annotation={_sinfo_text(sinfo)}")
        return f"ErrorContext({', '.join(parts)}) "

    def _match_pairs(self, dims, store: bool) -> list:
        match_code, _ = _codes()
        from tvm.tir.expr import Var

        pairs = []
        for dim in dims:
            if _is_const(dim):
                pairs += [int(match_code.kAssertEqualToImm), dim.value]
                continue
            key = self._key(dim)
            slot = self._slot(dim)
            if key in self.defined:
                pairs += [int(match_code.kAssertEqualToLoad), slot]
            elif isinstance(dim, Var) and store:
                pairs += [int(match_code.kStoreToHeap), slot]
                self.defined.add(key)
            else:
                pairs += [int(match_code.kNoOp), 0]  # checked once its vars are known
        return pairs

    def _undecided(self, dims) -> bool:
        return any(not _is_const(d) and self._key(d) not in self.defined for d in dims)

    def check(self, value, sinfo, err: str) -> None:
        """check_*_info for value against sinfo (ndim, dtype, tuple size)."""
        from tvm.relax.struct_info import (
            FuncStructInfo,
            PrimStructInfo,
            ShapeStructInfo,
            TensorStructInfo,
            TupleStructInfo,
        )

        if isinstance(sinfo, TensorStructInfo):
            args = [value, prim(sinfo.ndim), dtype_imm(sinfo.dtype), string(err)]
            self.emit(call_packed("vm.builtin.check_tensor_info", args, void_sinfo()))
        elif isinstance(sinfo, ShapeStructInfo):
            args = [value, prim(sinfo.ndim), string(err)]
            self.emit(call_packed("vm.builtin.check_shape_info", args, void_sinfo()))
        elif isinstance(sinfo, PrimStructInfo):
            args = [value, dtype_imm(sinfo.dtype), string(err)]
            self.emit(call_packed("vm.builtin.check_prim_value_info", args, void_sinfo()))
        elif isinstance(sinfo, TupleStructInfo):
            args = [value, prim(len(sinfo.fields)), string(err)]
            self.emit(call_packed("vm.builtin.check_tuple_info", args, void_sinfo()))
            for i, field in enumerate(sinfo.fields):
                self.check(self._item(value, i, field), field, err)
        elif isinstance(sinfo, FuncStructInfo):
            self.emit(call_packed("vm.builtin.check_func_info", [value, string(err)], void_sinfo()))

    def _item(self, value, index, sinfo):
        from tvm.relax.expr import Tuple, TupleGetItem

        if isinstance(value, Tuple):  # what normalisation makes of an item of a literal tuple
            return value.fields[index]
        cache = self.__dict__.setdefault("_items", {})
        key = (id(value), index)
        if key not in cache:
            item = with_sinfo(TupleGetItem(value, index), sinfo)
            cache[key] = self.emit(item, "item", sinfo)
        return cache[key]

    def match(self, value, sinfo, err: str, store: bool = True) -> None:
        """match_shape / match_prim_value: store new symbolic vars, assert known ones."""
        from tvm.relax.struct_info import (
            PrimStructInfo,
            ShapeStructInfo,
            TensorStructInfo,
            TupleStructInfo,
        )

        match_code, _ = _codes()
        if isinstance(sinfo, (TensorStructInfo, ShapeStructInfo)):
            dims = _shape_values(sinfo)
            if dims is None:
                return
            if not dims and isinstance(sinfo, TensorStructInfo):
                return  # a scalar: check_tensor_info already checked ndim 0
            pairs = self._match_pairs(dims, store)
            args = [value, self._heap(), prim(len(dims)), *[prim(p) for p in pairs], string(err)]
            self.emit(call_packed("vm.builtin.match_shape", args, void_sinfo()))
        elif isinstance(sinfo, PrimStructInfo) and sinfo.value is not None:
            pairs = self._match_pairs([sinfo.value], store)
            if pairs[0] == int(match_code.kNoOp):
                return
            args = [value, self._heap(), *[prim(p) for p in pairs], string(err)]
            self.emit(call_packed("vm.builtin.match_prim_value", args, void_sinfo()))
        elif isinstance(sinfo, TupleStructInfo):
            for i, field in enumerate(sinfo.fields):
                self.match(self._item(value, i, field), field, err, store)

    def _heap(self):
        if self.heap is not None:
            return self.heap
        if self.slot_of:
            raise AssertionError("VMShapeLower: the shape heap is used before it is allocated")
        # Only static dims to check (kAssertEqualToImm reads no heap): a null heap, as upstream.
        if getattr(self, "null_heap", None) is None:
            from tvm.relax.op import null_value
            from tvm.relax.struct_info import ObjectStructInfo

            self.null_heap = self.emit(
                with_sinfo(null_value(), ObjectStructInfo()), "shape_heap", ObjectStructInfo()
            )
        return self.null_heap

    def compute_ready(self) -> None:
        """Compute (in one host PrimFunc) each composite expression whose vars are known."""
        ready = [
            e for e in self.pending_exprs if all(self._key(v) in self.defined for v in _tir_vars(e))
        ]
        if not ready:
            return
        self.pending_exprs = [e for e in self.pending_exprs if not any(e is r for r in ready)]
        func = self._shape_func(ready)
        name = _fresh("shape_func", self.taken)
        from tvm.ir.module import GlobalVar
        from tvm.relax.expr import Call

        gv = GlobalVar(name)
        self.new_funcs[gv] = func
        self.emit(with_sinfo(Call(gv, [self._heap()]), void_sinfo()))
        for e in ready:
            self.defined.add(self._key(e))

    def _shape_func(self, exprs):
        from tvm.tir.buffer import decl_buffer
        from tvm.tir.expr import IntImm, Var
        from tvm.tir.function import PrimFunc
        from tvm.tir.functor import substitute
        from tvm.tir.stmt import BufferStore, seq

        heap = decl_buffer((len(self.slot_of),), "int64", name="H")
        handle = Var("H", "handle")
        stmts = []
        for e in exprs:
            vmap = {v: heap[IntImm("int64", self._slot(v))] for v in _tir_vars(e)}
            stmts.append(BufferStore(heap, substitute(e, vmap), [IntImm("int64", self._slot(e))]))
        return PrimFunc(
            [handle], seq(*stmts), buffer_map={handle: heap}, attrs={"tir.is_host_func": True}
        )

    # -- values -----------------------------------------------------------------------------
    def lower_value(self, value):
        """value with every symbolic ShapeExpr / PrimValue loaded from the heap."""
        from tvm.relax.expr import Call, If, PrimValue, SeqExpr, ShapeExpr, Tuple

        if isinstance(value, ShapeExpr):
            if all(_is_const(v) for v in value.values):
                return value
            return self._make_shape(value)
        if isinstance(value, PrimValue):
            if _is_const(value.value) or not _tir_vars(value.value):
                return value
            return self._make_prim_value(value)
        if isinstance(value, Call):
            args = [self.lower_value(a) for a in value.args]
            if all(a is b for a, b in zip(args, value.args)):
                return value
            return with_sinfo(value.with_fields(args=tuple(args)), value.struct_info)
        if isinstance(value, Tuple):
            fields = [self.lower_value(a) for a in value.fields]
            if all(a is b for a, b in zip(fields, value.fields)):
                return value
            return Tuple(fields)
        if isinstance(value, If):
            cond = self.lower_value(value.cond)
            then = self.lower_seq(value.true_branch)
            other = self.lower_seq(value.false_branch)
            return with_sinfo(
                value.with_fields(cond=cond, true_branch=then, false_branch=other),
                value.__dict__.get("struct_info_"),
            )
        if isinstance(value, SeqExpr):
            return self.lower_seq(value)
        return value

    def _load_pairs(self, dims):
        _, make_code = _codes()
        pairs = []
        for dim in dims:
            if _is_const(dim):
                pairs += [int(make_code.kUseImm), dim.value]
            else:
                self._ensure_known(dim)
                pairs += [int(make_code.kLoadShape), self._slot(dim)]
        return pairs

    def _ensure_known(self, dim) -> None:
        if self._key(dim) in self.defined:
            return
        self._collect(dim)
        self.compute_ready()
        if self._key(dim) not in self.defined:
            raise ValueError(
                f"VMShapeLower: in function {self.func_name!r}, the dimension {dim} uses a "
                "symbolic variable that no parameter or match_cast defines"
            )

    def _make_shape(self, shape):
        from tvm.relax.struct_info import ShapeStructInfo

        pairs = self._load_pairs(shape.values)
        key = (len(shape.values), *pairs)
        cached = self.shape_cache.get(key) if self.depth == 1 else None
        if cached is not None:  # the same shape made earlier in the function's own body
            return cached
        args = [self._heap(), prim(len(shape.values)), *[prim(p) for p in pairs]]
        sinfo = ShapeStructInfo(ndim=len(shape.values))
        var = self.emit(call_packed("vm.builtin.make_shape", args, sinfo), "gv", sinfo)
        if self.depth == 1:
            self.shape_cache[key] = var
        return var

    def _make_prim_value(self, pv):
        from tvm.relax.struct_info import PrimStructInfo

        pairs = self._load_pairs([pv.value])
        key = ("prim", str(pv.value.dtype), *pairs)
        cached = self.shape_cache.get(key) if self.depth == 1 else None
        if cached is not None:
            return cached
        sinfo = PrimStructInfo(dtype=pv.value.dtype)
        args = [self._heap(), *[prim(p) for p in pairs]]
        var = self.emit(call_packed("vm.builtin.make_prim_value", args, sinfo), "gv", sinfo)
        if self.depth == 1:
            self.shape_cache[key] = var
        return var

    def lower_seq(self, seq):
        from tvm.relax.expr import BindingBlock, MatchCast, SeqExpr, VarBinding

        saved = self.out
        self.out = []
        self.depth += 1  # shapes made inside an If branch do not reach the code after it
        for block in seq.blocks:
            for binding in block.bindings:
                value = self.lower_value(binding.value)
                if isinstance(binding, MatchCast):
                    err = self.err(f"match_cast {binding.var.name_hint}", None, binding.struct_info)
                    self.check(value, binding.struct_info, err)
                    self._collect_sinfo(binding.struct_info)
                    self.match(value, binding.struct_info, err)
                    self.compute_ready()
                    self._assert_composites(value, binding.struct_info, err)
                    # kept a match_cast (codegen binds it like a plain binding), as upstream
                    # does: the symbolic variables its struct info defines stay defined
                    self.out.append(MatchCast(binding.var, value, binding.struct_info))
                else:
                    self.out.append(
                        binding if value is binding.value else VarBinding(binding.var, value)
                    )
        body = self.lower_value(seq.body)
        bindings, self.out = self.out, saved
        self.depth -= 1
        return with_sinfo(
            SeqExpr([BindingBlock(bindings)] if bindings else [], body),
            seq.__dict__.get("struct_info_"),
        )

    def _assert_composites(self, value, sinfo, err) -> None:
        """A composite dimension in an annotation (n * 2) is checked once it is computed."""
        from tvm.tir.expr import Var

        dims = _shape_values(sinfo)
        if dims and any(not _is_const(d) and not isinstance(d, Var) for d in dims):
            self.match(value, sinfo, err, store=False)

    # -- the function -----------------------------------------------------------------------
    def lower(self):
        from tvm.relax.expr import BindingBlock, SeqExpr
        from tvm.relax.struct_info import TensorStructInfo

        func = self.func
        for param in func.params:
            self._collect_sinfo(param.struct_info)
        _collect_body(self, func.body)
        self._collect_sinfo(func.ret_struct_info)
        prologue = self.out
        if self.slot_of or getattr(self, "needs_heap", False):
            heap_sinfo = TensorStructInfo(ndim=1, dtype="int64")
            heap_call = call(
                "relax.call_builtin_with_ctx",
                [_extern("vm.builtin.alloc_shape_heap"), _tuple([prim(len(self.slot_of))])],
                heap_sinfo,
                [heap_sinfo],
            )
            self.heap = self.emit(heap_call, "shape_heap", heap_sinfo)
            heap_binding = len(self.out) - 1
        errs = [self.err(f"param[{i}]", p, p.struct_info) for i, p in enumerate(func.params)]
        for param, err in zip(func.params, errs):
            self.check(param, param.struct_info, err)
        # Static dims are checked too when nothing is symbolic: a (1, 2) tensor passed for a
        # (3, 2) parameter went unchecked (a kernel without its own checks read past it).
        for param, err in zip(func.params, errs):
            self.match(param, param.struct_info, err)
        if self.slot_of:
            self.compute_ready()
            for param, err in zip(func.params, errs):
                self._assert_composites(param, param.struct_info, err)
        body = self.lower_seq(func.body) if isinstance(func.body, SeqExpr) else func.body
        # Check the result against the declared return struct info.
        ret = func.ret_struct_info
        tail = []
        if self.slot_of and ret is not None and _sinfo_dims(ret):
            self.out = []
            self.match(body.body, ret, self.err("return", None, ret), store=False)
            tail = self.out
        if self.heap is not None:  # sized now: composite dims may have taken slots since
            size_call = prologue[heap_binding].value
            fields = _tuple([prim(len(self.slot_of))])
            sized = with_sinfo(size_call.with_fields(args=(size_call.args[0], fields)), None)
            with_sinfo(sized, size_call.struct_info)
            prologue[heap_binding] = prologue[heap_binding].with_fields(value=sized)
        blocks = [BindingBlock(prologue)] if prologue else []
        blocks += list(body.blocks)
        if tail:
            blocks.append(BindingBlock(tail))
        new_body = with_sinfo(SeqExpr(blocks, body.body), func.body.__dict__.get("struct_info_"))
        return func.with_fields(body=new_body)


def _collect_body(lowerer, seq) -> None:
    """Slots for every symbolic dimension the body's shapes and prim values use."""
    from tvm.ir.functor import NodeVisitor

    class _Dims(NodeVisitor):
        namespace = "relax"

        def visit_ShapeExpr(self, node):  # noqa: N802
            for v in node.values:
                lowerer._collect(v)

        def visit_PrimValue(self, node):  # noqa: N802
            lowerer._collect(node.value)

        def visit_MatchCast(self, node):  # noqa: N802
            lowerer._collect_sinfo(node.struct_info)
            # a match_cast to static dims checks them against the heap's codes too
            lowerer.needs_heap = True
            self.generic_visit(node)

    _Dims().visit(seq)


def _extern(name):
    from tvm.relax.expr import ExternFunc

    return ExternFunc(name)


def _tuple(fields):
    from tvm.relax.expr import Tuple

    return Tuple(fields)


def _shape_values(sinfo):
    from tvm.relax.expr import ShapeExpr
    from tvm.relax.struct_info import ShapeStructInfo, TensorStructInfo

    if isinstance(sinfo, TensorStructInfo):
        shape = sinfo.shape
        return list(shape.values) if isinstance(shape, ShapeExpr) else None
    if isinstance(sinfo, ShapeStructInfo):
        return None if sinfo.values is None else list(sinfo.values)
    return None


def _sinfo_dims(sinfo) -> list:
    from tvm.relax.struct_info import PrimStructInfo, TupleStructInfo

    if isinstance(sinfo, TupleStructInfo):
        return [d for f in sinfo.fields for d in _sinfo_dims(f)]
    if isinstance(sinfo, PrimStructInfo):
        return [] if sinfo.value is None else [sinfo.value]
    return _shape_values(sinfo) or []


def _fresh(base: str, taken: set) -> str:
    name, i = base, 0
    while name in taken:
        i += 1
        name = f"{base}{i}"
    taken.add(name)
    return name


def VMShapeLower(*, emit_err_ctx: bool = True):  # noqa: N802
    """Lower symbolic shapes to the VM's shape heap (relax.transform.VMShapeLower); the checks'
    error messages name where they are (ErrorContext(fn=..., loc=...)) unless emit_err_ctx is
    False."""

    @module_pass(opt_level=0, name="VMShapeLower")
    def vm_shape_lower(mod, ctx):
        from tvm.relax.expr import Function

        new_funcs: dict = {}
        taken = {gv.name_hint for gv in mod.get_global_vars()}
        changed = {}
        for gv, func in mod.functions.items():
            if isinstance(func, Function):
                lowerer = _Lowerer(gv.name_hint, func, new_funcs, taken, emit_err_ctx)
                changed[gv] = lowerer.lower()
        if not changed:
            return mod
        funcs = {gv: changed.get(gv, f) for gv, f in mod.functions.items()}
        funcs.update(new_funcs)
        return mod._with_functions(funcs)

    return vm_shape_lower
