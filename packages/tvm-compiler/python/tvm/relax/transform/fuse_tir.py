"""FuseTIR: each primitive Relax function FuseOps made becomes one PrimFunc (the bodies of its
call_tir kernels in order, intermediates as root-block allocations, each kernel's symbolic
dimensions bound to the group's), and its calls become call_tir of that PrimFunc.

A kernel's tir_vars bind its scalar parameters; the group's "tir_vars" shape parameter becomes
trailing scalar parameters of the fused PrimFunc, passed as the fused call's tir_vars. An
in-place kernel writes into its argument's buffer; when that is a parameter of the group, the
fused call is a call_tir_inplace naming it (as upstream)."""

from __future__ import annotations

from tvm.ir.module import GlobalVar, IRModule
from tvm.transform import PassContext, module_pass

from .lowering_utils import call as make_call
from .lowering_utils import is_op_call, with_sinfo


def _new_buffer(name, sinfo):
    from tvm.relax.op._utils import dims_of
    from tvm.tir.buffer import Buffer
    from tvm.tir.expr import Var

    dims = dims_of(sinfo)
    if dims is None:
        raise ValueError(f"relax.transform.FuseTIR: tensor {name!r} has no known shape")
    return Buffer(Var(name, "handle"), sinfo.dtype, dims, name=name)


def _first_region_each(regions) -> list:
    """regions with one region per buffer, the first (upstream's FuseTIR: two arguments bound
    to one buffer, as concatenate(x, x), make one access)."""
    out, seen = [], []
    for r in regions:
        if all(r.buffer is not b for b in seen):
            seen.append(r.buffer)
            out.append(r)
    return out


def _tensor_sinfos(sinfo) -> list:
    from tvm.relax.struct_info import TensorStructInfo, TupleStructInfo

    if isinstance(sinfo, TensorStructInfo):
        return [sinfo]
    if isinstance(sinfo, TupleStructInfo):
        return [s for f in sinfo.fields for s in _tensor_sinfos(f)]
    raise ValueError(f"relax.transform.FuseTIR: a fused value must be tensors, got {sinfo}")


class _Inline:
    """One kernel's body with its buffers and symbolic dims replaced and every definition (loop
    and block variables, allocations) fresh, so a kernel inlined twice defines nothing twice."""

    def __init__(self, buffer_map, var_map):
        from tvm.tir.functor import StmtExprMutator

        self.buffer_map = dict(buffer_map)
        self.var_map = dict(var_map)
        outer = self

        class _Mut(StmtExprMutator):
            def visit_Var(self, var):  # noqa: N802  (dispatch names follow the node class)
                return outer.var_map.get(var, var)

            def visit_For(self, node):  # noqa: N802
                outer.fresh_var(node.loop_var)
                return self.generic_visit(node)

            def visit_LetStmt(self, node):  # noqa: N802
                outer.fresh_var(node.var)
                return self.generic_visit(node)

            def visit_Block(self, node):  # noqa: N802
                for iv in node.iter_vars:
                    outer.fresh_var(iv.var)
                allocs = tuple(outer.fresh_buffer(b) for b in node.alloc_buffers)
                new = self.generic_visit(node)
                if any(a is not b for a, b in zip(allocs, node.alloc_buffers)):
                    new = new.with_fields(alloc_buffers=allocs)
                reads, writes = _first_region_each(new.reads), _first_region_each(new.writes)
                if len(reads) != len(new.reads) or len(writes) != len(new.writes):
                    new = new.with_fields(reads=reads, writes=writes)
                return new

            def visit_BufferLoad(self, node):  # noqa: N802
                from tvm.tir.expr import BufferLoad

                indices = [self.visit(i) for i in node.indices]
                return BufferLoad(outer.buffer(node.buffer), indices, node.span)

            def visit_BufferStore(self, node):  # noqa: N802
                from tvm.tir.stmt import BufferStore

                value = self.visit(node.value)
                indices = [self.visit(i) for i in node.indices]
                return BufferStore(outer.buffer(node.buffer), value, indices, node.span)

            def visit_BufferRegion(self, node):  # noqa: N802
                from tvm.tir.stmt import BufferRegion

                region = [self.visit(r) for r in node.region]
                return BufferRegion(outer.buffer(node.buffer), region)

        self.mutator = _Mut()

    def fresh_var(self, var):
        from tvm.tir.expr import Var

        if var not in self.var_map:
            self.var_map[var] = Var(var.name, var.dtype)

    def buffer(self, buf):
        return self.buffer_map.get(buf, buf)

    def fresh_buffer(self, buf):
        from tvm.tir.buffer import Buffer
        from tvm.tir.expr import Var
        from tvm.tir.functor import substitute

        if buf in self.buffer_map:
            return self.buffer_map[buf]
        shape = [substitute(s, self.var_map) for s in buf.shape]
        new = Buffer(
            Var(buf.data.name, buf.data.dtype),
            buf.dtype,
            shape,
            name=buf.name,
            scope=buf.scope,
            data_alignment=buf.data_alignment,
        )
        self.buffer_map[buf] = new
        return new

    def run(self, stmt):
        return self.mutator.visit(stmt)


def _bind_dims(kernel_buf, fused_buf, var_map):
    """Map the kernel's symbolic dims to the fused buffer's (the call's struct info)."""
    from tvm.tir.expr import Var

    for mine, theirs in zip(kernel_buf.shape, fused_buf.shape):
        if isinstance(mine, Var) and mine not in var_map:
            var_map[mine] = theirs


class _Fuse:
    """Builds the fused PrimFunc of one primitive Relax function."""

    def __init__(self, mod, func):
        self.mod = mod
        self.func = func
        self.params: list = []
        self.buffer_map: dict = {}
        self.allocs: list = []
        self.bodies: list = []
        # upstream: a fused kernel never aliases its buffers (each is a distinct tensor)
        self.attrs: dict = {"tir.noalias": True}
        self.buffers_of: dict = {}  # relax var -> its flattened list of buffers
        self.scalars: list = []  # TIR vars of the group's shape parameter: trailing params
        self.inplace_of: dict = {}  # id(buffer) -> True when an in-place kernel wrote it
        # per non-shape parameter: the tuple fields it reads (a tuple read only through items,
        # as upstream passes just those), or None for all of it
        self.param_items: list = []

    def build(self):
        from tvm.relax.expr import SeqExpr, Tuple, TupleGetItem, Var
        from tvm.relax.struct_info import ShapeStructInfo
        from tvm.tir.expr import Var as TVar

        for p in self.func.params:
            if isinstance(p.struct_info, ShapeStructInfo):
                if p.struct_info.values is None or not all(
                    isinstance(v, TVar) for v in p.struct_info.values
                ):
                    raise ValueError(
                        f"relax.transform.FuseTIR: shape parameter {p.name_hint!r} must list "
                        f"symbolic vars, got {p.struct_info}"
                    )
                for v in p.struct_info.values:
                    if all(v is not w for w in self.scalars):
                        self.scalars.append(v)
                continue
            items = _items_read(self.func, p)
            self.param_items.append(items)
            bufs = []
            for i, sinfo in enumerate(_tensor_sinfos(p.struct_info)):
                if items is not None and _field_of(p.struct_info, i) not in items:
                    bufs.append(None)  # a field the function never reads: no buffer
                    continue
                name = p.name_hint if i == 0 else f"{p.name_hint}_{i}"
                buf = _new_buffer(name, sinfo)
                handle = TVar(name, "handle")
                self.params.append(handle)
                self.buffer_map[handle] = buf
                bufs.append(buf)
            self.buffers_of[p] = bufs
        body = self.func.body
        if not isinstance(body, SeqExpr):
            raise ValueError(
                "relax.transform.FuseTIR: a primitive function's body must be a SeqExpr"
            )
        result = body.body
        outputs = self._outputs(result)
        for block in body.blocks:
            for binding in block.bindings:
                value = binding.value
                var = binding.var
                if is_op_call(value, "relax.call_tir") or is_op_call(
                    value, "relax.call_tir_inplace"
                ):
                    self._inline(var, value, outputs)
                elif isinstance(value, TupleGetItem):
                    src = self.buffers_of[value.tuple_value]
                    start = self._offset(value.tuple_value.struct_info, value.index)
                    count = len(_tensor_sinfos(var.struct_info))
                    self.buffers_of[var] = src[start : start + count]
                elif isinstance(value, Tuple):
                    self.buffers_of[var] = self._tuple_buffers(value)
                elif isinstance(value, Var):
                    self.buffers_of[var] = self.buffers_of[value]
                else:
                    raise ValueError(
                        f"relax.transform.FuseTIR: cannot fuse binding {var.name_hint!r} "
                        f"(only call_tir, tuples and tuple items are fused)"
                    )
        params_bufs = list(self.buffer_map.values())
        results = self._result_buffers(result)
        # inplace_indices of the fused call: the parameter an output was written over, or -1
        self.inplace_indices = []
        for i, buf in enumerate(results):
            in_param = [j for j, b in enumerate(params_bufs) if b is buf]
            if any(buf is b for b in results[:i]) or (in_param and id(buf) not in self.inplace_of):
                raise ValueError(
                    "relax.transform.FuseTIR: a primitive function may not return one of its "
                    "inputs, nor one value twice"
                )
            if in_param:
                self.inplace_indices.append(in_param[0])
                continue
            self.inplace_indices.append(-1)
            self.allocs = [b for b in self.allocs if b is not buf]
            handle = TVar(buf.name, "handle")
            self.params.append(handle)
            self.buffer_map[handle] = buf
        self.params += self.scalars
        return self._prim_func()

    @staticmethod
    def _offset(sinfo, index):
        return sum(len(_tensor_sinfos(f)) for f in sinfo.fields[:index])

    def _outputs(self, result):
        """The Relax vars whose buffers the fused function writes as its outputs."""
        from tvm.relax.expr import Tuple

        if isinstance(result, Tuple):
            return set(result.fields)
        return {result}

    def _result_buffers(self, result):
        from tvm.relax.expr import Tuple

        if isinstance(result, Tuple):
            return [b for f in result.fields for b in self.buffers_of[f]]
        return self.buffers_of[result]

    def _inline(self, var, call, outputs):
        from tvm.tir.function import PrimFunc
        from tvm.tir.stmt import BlockRealize

        callee = call.args[0]
        kernel = self.mod[callee] if isinstance(callee, GlobalVar) and callee in self.mod else None
        if not isinstance(kernel, PrimFunc) or len(call.args) not in (2, 3):
            raise ValueError(
                f"relax.transform.FuseTIR: {var.name_hint!r} must call a PrimFunc of the module"
            )
        args = call.args[1].fields
        in_bufs = [b for a in args for b in self.buffers_of[a]]
        out_sinfos = _tensor_sinfos(var.struct_info)
        tir_vars = list(call.args[2].values) if len(call.args) == 3 else []
        inplace = [-1] * len(out_sinfos)
        if is_op_call(call, "relax.call_tir_inplace"):
            inplace = [int(i) for i in call.attrs.inplace_indices]
        is_output = var in outputs
        handles = kernel.params
        n_fresh = inplace.count(-1)
        if len(handles) != len(in_bufs) + n_fresh + len(tir_vars):
            raise ValueError(
                f"relax.transform.FuseTIR: {callee.name_hint} takes {len(handles)} parameters, "
                f"the call gives {len(in_bufs)} inputs, {n_fresh} outputs and "
                f"{len(tir_vars)} tir_vars"
            )
        out_bufs, fresh = [], []
        for sinfo, index in zip(out_sinfos, inplace):
            if index >= 0:  # written over the argument's buffer
                buf = in_bufs[index]
                self.inplace_of[id(buf)] = True
            else:
                kbuf = kernel.buffer_map[handles[len(in_bufs) + len(fresh)]]
                buf = _new_buffer(f"{kbuf.name}_intermediate", sinfo)
                fresh.append(buf)
                if not is_output:
                    self.allocs.append(buf)
            out_bufs.append(buf)
        self.buffers_of[var] = out_bufs
        buffer_map, var_map = {}, {}
        for handle, value in zip(handles[len(in_bufs) + n_fresh :], tir_vars):
            var_map[handle] = value  # a scalar parameter: the value the call passes
        for handle, buf in zip(handles, [*in_bufs, *fresh]):
            kbuf = kernel.buffer_map[handle]
            buffer_map[kbuf] = buf
            _bind_dims(kbuf, buf, var_map)
        inline = _Inline(buffer_map, var_map)
        body = kernel.body
        if isinstance(body, BlockRealize) and body.block.name_hint == "root":
            root = body.block
            self.allocs.extend(inline.fresh_buffer(b) for b in root.alloc_buffers)
            body = root.body
        self.bodies.append(inline.run(body))
        for key, value in kernel.attrs.items():
            if key not in ("global_symbol", "op_pattern"):
                self.attrs.setdefault(key, value)

    def _tuple_buffers(self, tup) -> list:
        """The buffers of a tuple's fields in order, a field itself a tuple included."""
        from tvm.relax.expr import Tuple

        out: list = []
        for f in tup.fields:
            out += self._tuple_buffers(f) if isinstance(f, Tuple) else self.buffers_of[f]
        return out

    def _prim_func(self):
        from tvm.tir.function import PrimFunc
        from tvm.tir.stmt import Block, BlockRealize, SeqStmt

        body = self.bodies[0] if len(self.bodies) == 1 else SeqStmt(self.bodies)
        root = Block([], [], [], "root", body, alloc_buffers=self.allocs)
        return PrimFunc(
            self.params,
            BlockRealize([], True, root),
            buffer_map=self.buffer_map,
            attrs=self.attrs,
        )


def _rewrite_calls(func, fused, mod):
    """func with each call of a fused primitive function made a call_tir of its PrimFunc."""
    from tvm.relax.expr import Call, Tuple

    from .lowering_utils import BindingRewriter

    class _Calls(BindingRewriter):
        in_dataflow = False

        def rewrite_block(self, block):
            from tvm.relax.expr import DataflowBlock

            self.in_dataflow = isinstance(block, DataflowBlock)
            return super().rewrite_block(block)

        def rewrite_binding(self, binding, emit):
            value = binding.value
            if isinstance(value, Call) and isinstance(value.op, GlobalVar):
                target = fused.get(value.op.name_hint)
                if target is not None:
                    from tvm.relax.struct_info import ShapeStructInfo, TupleStructInfo

                    fields, shapes = [], []
                    param_items = iter(target[2])
                    for arg in value.args:
                        if isinstance(arg.struct_info, ShapeStructInfo):
                            shapes.append(arg)  # the group's "tir_vars" parameter
                            continue
                        fields += _flatten_arg(arg, emit, self.in_dataflow, next(param_items))
                    tir_vars = _tir_vars_arg(shapes)
                    args = with_sinfo(Tuple(fields), _tuple_sinfo(fields))
                    sinfo = nested = value.struct_info
                    if _is_nested_tuple(nested):  # the PrimFunc writes the tensors flat
                        sinfo = TupleStructInfo(_tensor_sinfos(nested))
                    gv, inplace, _ = target
                    if any(i >= 0 for i in inplace):
                        from tvm.relax.op.op_attrs import CallTIRInplaceAttrs

                        attrs = CallTIRInplaceAttrs(inplace_indices=tuple(inplace))
                        call = make_call(
                            "relax.call_tir_inplace", [gv, args, *tir_vars], sinfo, [sinfo], attrs
                        )
                    else:
                        call = make_call("relax.call_tir", [gv, args, *tir_vars], sinfo, [sinfo])
                    if sinfo is not nested:
                        call = _rebuild_nested(binding.var.name_hint, call, nested, emit)
                    emit(binding.with_fields(value=call))
                    return
            emit(binding)

    return _Calls().rewrite_function(func)


def _tir_vars_arg(shapes) -> list:
    """The fused call's tir_vars: one ShapeExpr of the shape arguments' values, each var once
    (as the fused PrimFunc's trailing scalar parameters are), as upstream writes it."""
    from tvm.relax.expr import ShapeExpr
    from tvm.relax.struct_info import ShapeStructInfo

    values: list = []
    for arg in shapes:
        for v in _shape_values(arg):
            if all(v is not w for w in values):
                values.append(v)
    if not values:
        return []
    return [with_sinfo(ShapeExpr(values), ShapeStructInfo(values))]


def _shape_values(arg) -> list:
    from tvm.relax.expr import ShapeExpr

    if isinstance(arg, ShapeExpr):
        return list(arg.values)
    values = arg.struct_info.values
    if values is None:
        raise ValueError(
            "relax.transform.FuseTIR: a primitive function's shape argument must have known "
            f"values (the symbolic vars it passes), got {arg.struct_info}"
        )
    return list(values)


def _is_nested_tuple(sinfo) -> bool:
    from tvm.relax.struct_info import TupleStructInfo

    return isinstance(sinfo, TupleStructInfo) and any(
        isinstance(f, TupleStructInfo) for f in sinfo.fields
    )


def _rebuild_nested(name, call, sinfo, emit):
    """The nested tuple sinfo describes, built from the items of call's flat tuple result
    (a primitive function that returns a tuple within a tuple: FuseOpsByPattern's groups)."""
    from tvm.relax.expr import Tuple, TupleGetItem, Var, VarBinding
    from tvm.relax.struct_info import TupleStructInfo

    flat = Var(f"{name}_flat", call.struct_info)
    emit(VarBinding(flat, call))
    count = [0]

    def build(s):
        if isinstance(s, TupleStructInfo):
            return with_sinfo(Tuple([build(f) for f in s.fields]), s)
        item = Var(f"{name}_{count[0]}", s)
        emit(VarBinding(item, with_sinfo(TupleGetItem(flat, count[0]), s)))
        count[0] += 1
        return item

    return build(sinfo)


def _flatten_arg(arg, emit, in_dataflow=False, items=None) -> list:
    """The tensors of arg: a tuple-typed argument is taken apart into item bindings (the
    fused PrimFunc has one buffer per tensor, as FuseTIR's _Fuse flattens parameters); in a
    dataflow block the items are DataflowVars, as upstream's builder emits them."""
    from tvm.relax.expr import DataflowVar, TupleGetItem, Var, VarBinding
    from tvm.relax.struct_info import TupleStructInfo

    sinfo = arg.struct_info
    if not isinstance(sinfo, TupleStructInfo):
        return [arg]
    out = []
    for i, field in enumerate(sinfo.fields):
        if items is not None and i not in items:
            continue  # a field the primitive function never reads
        cls = DataflowVar if in_dataflow else Var
        item = cls(f"{getattr(arg, 'name_hint', 'tup')}_{i}", field)
        emit(VarBinding(item, with_sinfo(TupleGetItem(arg, i), field)))
        out += _flatten_arg(item, emit, in_dataflow)
    return out


def _items_read(func, param):
    """The top-level fields of tuple parameter param that func reads through TupleGetItem, or
    None when param is no tuple or is also read whole."""
    from tvm.relax.expr import TupleGetItem
    from tvm.relax.struct_info import TupleStructInfo

    from .lowering_utils import free_relax_uses

    if not isinstance(param.struct_info, TupleStructInfo):
        return None
    items: set = set()
    for block in func.body.blocks:
        for binding in block.bindings:
            value = binding.value
            if isinstance(value, TupleGetItem) and value.tuple_value is param:
                items.add(value.index)
            elif any(u is param for u in free_relax_uses(value)):
                return None
    result = func.body.body
    if result is param or any(u is param for u in free_relax_uses(result)):
        return None
    return items


def _field_of(sinfo, tensor_index) -> int:
    """The top-level field of tuple sinfo holding its tensor_index-th tensor."""
    count = 0
    for i, field in enumerate(sinfo.fields):
        count += len(_tensor_sinfos(field))
        if tensor_index < count:
            return i
    raise IndexError(tensor_index)


def _tuple_sinfo(fields):
    from tvm.relax.struct_info import TupleStructInfo

    return TupleStructInfo([f.struct_info for f in fields])


def FuseTIR():  # noqa: N802  (pass constructors are capitalised)
    """Turn each primitive Relax function into one PrimFunc (relax.transform.FuseTIR); the
    primitive functions and the kernels nothing calls any more are removed. A module without
    primitive functions comes back as itself."""
    from tvm.relax.block_builder import BlockBuilder
    from tvm.relax.expr import Function

    @module_pass(opt_level=0, name="FuseTIR")
    def fuse_tir(mod: IRModule, ctx: PassContext) -> IRModule:
        primitive = {
            gv: f
            for gv, f in mod.functions.items()
            if isinstance(f, Function) and f.attrs.get("Primitive")
        }
        if not primitive:
            return mod
        mod = _lift_constants(mod, primitive)
        primitive = {
            gv: f
            for gv, f in mod.functions.items()
            if isinstance(f, Function) and f.attrs.get("Primitive")
        }
        bb = BlockBuilder(mod._with_functions({}))
        kept = {gv: f for gv, f in mod.functions.items() if gv not in primitive}
        for gv, f in kept.items():
            bb._store(gv, f)
        fused = {}
        for gv, f in primitive.items():
            fuse = _Fuse(mod, f)
            prim = fuse.build()
            fused[gv.name_hint] = (
                bb.add_func(prim, gv.name_hint),
                fuse.inplace_indices,
                fuse.param_items,
            )
        for gv, f in kept.items():
            if isinstance(f, Function):
                new = _rewrite_calls(f, fused, mod)
                if new is not f:
                    bb.update_func(gv, new)
        return _drop_unused_kernels(bb.get(), primitive)

    return fuse_tir


def _lift_constants(mod, primitive):
    """mod with the tensor constants of each primitive function passed in as parameters (its
    callers pass the constants): a composite function of FuseOpsByPattern keeps its matched
    constants inside, which upstream's FuseTIR rejects; a PrimFunc takes them as buffers."""
    from tvm.ir.functor import NodeMutator
    from tvm.relax.expr import Call, Function, Var

    from .lowering_utils import relax_leaves, replace_constants

    lifted = {}  # old GlobalVar name -> (new GlobalVar, the constants to append)
    functions = dict(mod.functions)
    for gv, func in primitive.items():
        consts = list({id(c): c for c in relax_leaves(func.body) if _is_constant(c)}.values())
        if not consts:
            continue
        params = [Var(f"param_{len(func.params) + i}", c.struct_info) for i, c in enumerate(consts)]
        body = replace_constants(func.body, {id(c): p for c, p in zip(consts, params)})
        new = func.with_fields(params=[*func.params, *params], body=body)
        new_gv = GlobalVar(gv.name_hint)
        new_gv._fill_late_field("struct_info_", new.struct_info)
        del functions[gv]
        functions[new_gv] = new
        lifted[gv.name_hint] = (new_gv, consts)
    if not lifted:
        return mod

    class _Callers(NodeMutator):
        namespace = "relax"

        def visit_Call(self, node):  # noqa: N802  (dispatch on the class name)
            new = super().generic_visit(node)
            if isinstance(node.op, GlobalVar) and node.op.name_hint in lifted:
                new_gv, consts = lifted[node.op.name_hint]
                new = Call(new_gv, [*new.args, *consts], new.attrs, new.sinfo_args, new.span)
            if new is not node:
                with_sinfo(new, node.__dict__.get("struct_info_"))
            return new

        def generic_visit(self, node):
            new = super().generic_visit(node)
            if new is not node:
                with_sinfo(new, node.__dict__.get("struct_info_"))
            return new

    for gv, func in list(functions.items()):
        if isinstance(func, Function) and gv.name_hint not in lifted:
            functions[gv] = _Callers().visit(func)
    return mod._with_functions(functions)


def _is_constant(expr) -> bool:
    from tvm.relax.expr import Constant

    return isinstance(expr, Constant)


def _drop_unused_kernels(out, primitive):
    """out without the private PrimFuncs only the primitive functions called."""
    from tvm.tir.function import PrimFunc

    from .dead_code_elimination import _find_global_vars

    used_by_primitive: set = set()
    for f in primitive.values():
        found: list = []
        _find_global_vars(f, found, GlobalVar)
        used_by_primitive.update(g.name_hint for g in found)
    still_used: set = set()
    for gv, f in out.functions.items():
        found = []
        _find_global_vars(f, found, GlobalVar)
        still_used.update(g.name_hint for g in found if g.name_hint != gv.name_hint)
    keep = {
        gv: f
        for gv, f in out.functions.items()
        if not (
            isinstance(f, PrimFunc)
            and gv.name_hint in used_by_primitive
            and gv.name_hint not in still_used
            and "global_symbol" not in f.attrs
        )
    }
    return out._with_functions(keep)
