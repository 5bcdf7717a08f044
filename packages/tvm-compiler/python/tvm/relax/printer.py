"""Relax as upstream's TVMScript prints it (`@R.function`, `R.Tensor((n, 4), dtype="float32")`,
`with R.dataflow():`); PrimExprs inside go through the TIR printer, sharing its names.

Every printed function parses back (tvm.script.from_source) to a structurally equal one.
"""

from __future__ import annotations

from tvm.ir import underline
from tvm.ir.module import GlobalVar
from tvm.ir.naming import NameTable
from tvm.ir.op import Op
from tvm.ir.printer import MetadataTable, register_printer
from tvm.ir.printer_config import option
from tvm.tir import expr as E
from tvm.tir.printer import _float_text, _identifier, _Printer, literal, quote

from . import expr as X
from . import struct_info as S
from .global_info import VDevice

# Ops whose result struct info is spelled in the call (out_sinfo=...): their bindings print
# without an annotation, as upstream does.
_SINFO_IN_CALL = {"relax.call_tir", "relax.call_tir_inplace", "relax.call_dps_packed"}
# Scalar constants upstream prints as R.const(value, dtype) (its SpecialScalar).
_INLINE_SCALARS = ("int8", "int16", "int32", "int64", "float16", "float32", "float64", "bool")


class _PrimPrinter(_Printer):
    """TIR expressions inside Relax: int64 (Relax's index type) prints as a plain int."""

    def _e_IntImm(self, e, prec):
        if e.dtype == "int64":
            return str(e.value)
        if e.dtype == "int32":
            return f"T.int32({e.value})"
        return super()._e_IntImm(e, prec)

    def node_call(self, e) -> str:
        if isinstance(e.a, E.IntImm) and isinstance(e.b, E.IntImm):
            # A bare int here would parse as int32: the constants keep their dtype.
            a, b = (_Printer._e_IntImm(self, x, 0) for x in (e.a, e.b))
            return f"T.{type(e).__name__}({a}, {b})"
        return super().node_call(e)


class RelaxPrinter:
    def __init__(
        self,
        names: NameTable | None = None,
        module_name: str | None = None,
        vdevices=(),
        metadata: MetadataTable | None = None,
    ):
        # Tensor constants other than scalars print as metadata["relax.expr.Constant"][i].
        self.metadata = MetadataTable() if metadata is None else metadata
        self.vdevices = tuple(vdevices)  # the module's, which vdevice="kind:index" counts in
        self.names = names if names is not None else NameTable()
        self.prim = _PrimPrinter(self.names)
        self.prim.hoisted = []  # symbolic dims first used in the body: declared at the top
        self.module_name = module_name
        self.uses_cls = False
        self.symbolic_first: list[str] = []
        self.signature_vars: set = set()  # dims a signature defines print as "n" there

    # -- names ----------------------------------------------------------------------------
    def var(self, v) -> str:
        text = self.prim.defined.get(id(v))
        return text if text is not None else self.define(v)

    def define(self, v) -> str:
        return self.prim.fresh(v, _identifier(v.name_hint))

    def prim_expr(self, e, signature: bool = False) -> str:
        if signature and isinstance(e, E.Var):
            if id(e) in self.signature_vars:
                return quote(self.prim.defined[id(e)])
            if id(e) not in self.prim.defined:
                name = self.prim.fresh(e)
                self.signature_vars.add(id(e))
                self.symbolic_first.append(f"{name} = T.{e.dtype}()")
                return quote(name)
        return self.prim.expr(e)

    # -- struct info ----------------------------------------------------------------------
    def sinfo(self, s, signature: bool = False) -> str:
        if isinstance(s, S.TensorStructInfo):
            args = []
            if s.shape is not None:
                if isinstance(s.shape, X.ShapeExpr):
                    dims = [self.prim_expr(d, signature) for d in s.shape.values]
                    args.append(f"({', '.join(dims)}{',' if len(dims) == 1 else ''})")
                else:
                    args.append(self.expr(s.shape))
            if s.dtype != "void":
                args.append(f"dtype={quote(s.dtype)}")
            if s.shape is None and s.ndim != -1:
                args.append(f"ndim={s.ndim}")
            if s.vdevice is not None and s.vdevice.target is not None:
                args.append(f"vdevice={quote(self.vdevice_name(s.vdevice))}")
            return f"R.Tensor({', '.join(args)})" if args else "R.Tensor"
        if isinstance(s, S.ShapeStructInfo):
            if s.values is not None:
                return f"R.Shape([{', '.join(self.prim_expr(v, signature) for v in s.values)}])"
            return f"R.Shape(ndim={s.ndim})" if s.ndim != -1 else "R.Shape"
        if isinstance(s, S.PrimStructInfo):
            if s.value is not None:
                return f"R.Prim(value={self.prim_expr(s.value, signature)})"
            return f"R.Prim({quote(s.dtype)})"
        if isinstance(s, S.TupleStructInfo):
            if not s.fields:
                return "R.Tuple"
            return f"R.Tuple({', '.join(self.sinfo(f, signature) for f in s.fields)})"
        if isinstance(s, S.FuncStructInfo):
            ret = self.sinfo(s.ret, signature)
            purity = "" if s.purity else ", purity=False"
            if s.is_opaque():
                return f"R.Callable(ret={ret}{purity})"
            params = [self.sinfo(p, signature) for p in s.params]
            return (
                f"R.Callable(({', '.join(params)}{',' if len(params) == 1 else ''}), {ret}{purity})"
            )
        return "R.Object"

    def vdevice_name(self, vdevice) -> str:
        """ "kind:index:scope", index among the module's virtual devices of that kind (the
        device's own id when the module is not known), as upstream names it."""
        kind = vdevice.target.kind.name
        same_kind = [
            d for d in self.vdevices if d.target is not None and d.target.kind.name == kind
        ]
        index = next(
            (i for i, d in enumerate(same_kind) if d is vdevice or d == vdevice), vdevice.vdevice_id
        )
        return f"{kind}:{index}:{vdevice.memory_scope}"

    def sinfo_list(self, items) -> str:
        return (
            "(" + ", ".join(self.sinfo(i) for i in items) + ("," if len(items) == 1 else "") + ")"
        )

    # -- expressions ----------------------------------------------------------------------
    def expr(self, e) -> str:
        if underline.active():
            return underline.inline(e, lambda: self._expr(e))
        return self._expr(e)

    def _expr(self, e) -> str:
        if isinstance(e, X.Var):
            return self.var(e)
        if isinstance(e, GlobalVar):
            if self.module_name is not None:
                alias = option("module_alias", "cls")  # "": the class name itself, as upstream
                self.uses_cls = bool(alias)
                return f"{alias or self.module_name}.{e.name_hint}"
            return e.name_hint
        if isinstance(e, X.Constant):
            return self.constant(e)
        if isinstance(e, X.PrimValue):
            return f"R.prim_value({self.prim_expr(e.value)})"
        if isinstance(e, X.ShapeExpr):
            return f"R.shape([{', '.join(self.prim_expr(v) for v in e.values)}])"
        if isinstance(e, X.StringImm):
            return f"R.str({quote(e.value)})"
        if isinstance(e, X.DataTypeImm):
            return f"R.dtype({quote(str(e.value))})"
        if isinstance(e, X.Tuple):
            fields = [self.expr(f) for f in e.fields]
            return f"({', '.join(fields)}{',' if len(fields) == 1 else ''})"
        if isinstance(e, X.TupleGetItem):
            return f"{self.expr(e.tuple_value)}[{e.index}]"
        if isinstance(e, X.ExternFunc):
            return f"R.ExternFunc({quote(e.global_symbol)})"
        if isinstance(e, X.Call):
            return self.call(e)
        raise TypeError(f"Relax printer: no text form for {type(e).__name__} here")

    def constant(self, c) -> str:
        # As upstream: a scalar of a dtype a Python literal spells prints inline, any other
        # constant goes to the metadata section (its type key is upstream's).
        dtype = str(c.data.dtype)
        if len(c.data.shape) == 0 and dtype in _INLINE_SCALARS:
            value = c.data.numpy().item()
            text = _float_text(value) if isinstance(value, float) else repr(value)
            return f"R.const({text}, {quote(dtype)})"
        return self.metadata.add("relax.expr.Constant", c)

    def call(self, c) -> str:
        op = c.op
        if isinstance(op, X.ExternFunc):
            args = [quote(op.global_symbol), *(self.expr(a) for a in c.args)]
            args.append(f"sinfo_args={self.sinfo_list(c.sinfo_args)}")
            return f"R.call_packed({', '.join(args)})"
        if not isinstance(op, Op):
            return f"{self.expr(op)}({', '.join(self.expr(a) for a in c.args)})"
        name = op.name.removeprefix("relax.")
        args = list(c.args)
        if op.name in _SINFO_IN_CALL:
            callee = args[0]
            text = [
                quote(callee.global_symbol)
                if isinstance(callee, X.ExternFunc)
                else self.expr(callee),
                self.expr(args[1]),
            ]
            if c.attrs is not None and "inplace_indices" in c.attrs.keys():
                text.append(f"inplace_indices={list(c.attrs.inplace_indices)}")
            out = c.sinfo_args[0]
            if isinstance(out, S.TupleStructInfo) and op.name != "relax.call_dps_packed":
                text.append(f"out_sinfo=[{', '.join(self.sinfo(f) for f in out.fields)}]")
            else:
                text.append(f"out_sinfo={self.sinfo(out)}")
            if len(args) > 2:
                text.append(f"tir_vars={self.expr(args[2])}")
            return f"R.{name}({', '.join(text)})"
        if name == "call_pure_packed":
            callee = args[0]
            text = [quote(callee.global_symbol), *(self.expr(a) for a in args[1:])]
            text.append(f"sinfo_args={self.sinfo_list(c.sinfo_args)}")
            return f"R.call_pure_packed({', '.join(text)})"
        if name == "print":
            text = [self.expr(a) for a in args[1:]] + [f"format={self.expr(args[0])}"]
            return f"R.print({', '.join(text)})"
        if name == "assert_op":
            text = [self.expr(args[0])]
            if len(args) > 2:
                text.append(self.expr(X.Tuple(args[2:])) if len(args) > 3 else self.expr(args[2]))
            text.append(f"format={self.expr(args[1])}")
            return f"R.assert_op({', '.join(text)})"
        # Every other op: its arguments, then its attributes as keyword arguments.
        text = [self.expr(a) for a in args]
        if c.attrs is not None:
            text += [f"{k}={self.attr(v)}" for k, v in c.attrs.items()]
        if c.sinfo_args:
            text.append(f"sinfo_args={self.sinfo_list(c.sinfo_args)}")
        return f"R.{name}({', '.join(text)})"

    def attr(self, value) -> str:
        from tvm.tir.schedule.index_map import IndexMap

        if isinstance(value, IndexMap):
            return self.index_map(value)
        if isinstance(value, E.PrimExpr):
            return self.prim_expr(value)
        if hasattr(value, "_type_key") and not isinstance(value, (str, int, float)):
            return self.expr(value)
        return literal(value, self.prim_expr)

    def index_map(self, m) -> str:
        # upstream's form: T.index_map(lambda i0, ...: (...), index_dtype=...)
        names = ", ".join(v.name for v in m.initial_indices)
        # the lambda's parameters are bound by it: not symbolic dims of the function
        fresh = [v for v in m.initial_indices if id(v) not in self.prim.defined]
        self.prim.defined.update({id(v): v.name for v in fresh})
        try:
            outs = [self.prim_expr(f) for f in m.final_indices]
        finally:
            for v in fresh:
                del self.prim.defined[id(v)]
        body = f"({', '.join(outs)}{',' if len(outs) == 1 else ''})"
        dtype = m.initial_indices[0].dtype if m.initial_indices else "int64"
        return f"T.index_map(lambda {names}: {body}, index_dtype={quote(str(dtype))})"

    # -- bindings -------------------------------------------------------------------------
    def binding(self, b, pad: str, out: list) -> None:
        if underline.active():
            underline.lines(b, lambda: self._binding(b, pad, out), out)
        else:
            self._binding(b, pad, out)

    def _binding(self, b, pad: str, out: list) -> None:
        value = b.value
        if isinstance(value, X.Function):
            self.function(value, self.define(b.var), out, pad, nested=True)
            return
        if isinstance(value, X.If):
            self.if_binding(b, pad, out)
            return
        if isinstance(b, X.MatchCast):
            text = f"R.match_cast({self.expr(value)}, {self.sinfo(b.struct_info)})"
            out.append(f"{pad}{self.define(b.var)}: {self.sinfo(b.var.struct_info)} = {text}")
            return
        text = self.expr(value) if not isinstance(value, X.Tuple) or not value.fields else None
        if text is None or (isinstance(value, X.Tuple) and len(value.fields) > 1):
            text = ", ".join(self.expr(f) for f in value.fields) if value.fields else "()"
            if len(value.fields) == 1:
                text = f"({text},)"  # a bare `x` would be the field itself, not a 1-tuple
        sinfo = b.var.struct_info
        if (
            isinstance(value, X.Call)
            and isinstance(value.op, Op)
            and value.op.get_attr("FPurity") is False
            and isinstance(sinfo, S.TupleStructInfo)
            and not sinfo.fields
        ):
            out.append(pad + text)  # a call made for its effect: upstream prints it bare
            return
        name = self.define(b.var)
        if (
            isinstance(value, X.Call)
            and isinstance(value.op, Op)
            and value.op.name in _SINFO_IN_CALL
        ):
            out.append(f"{pad}{name} = {text}")
        else:
            out.append(f"{pad}{name}: {self.sinfo(sinfo)} = {text}")

    def if_binding(self, b, pad: str, out: list) -> None:
        node = b.value
        out.append(f"{pad}if {self.expr(node.cond)}:")
        name = None
        for i, branch in enumerate((node.true_branch, node.false_branch)):
            if i:
                out.append(f"{pad}else:")
            blocks = list(branch.blocks)
            last = None
            # the branch's last plain binding becomes the If's own (`r = value`); a dataflow
            # block keeps its `with R.dataflow():` and the If binds its output after it
            if blocks and blocks[-1].bindings and not isinstance(blocks[-1], X.DataflowBlock):
                tail = blocks[-1].bindings[-1]
                if isinstance(tail, X.VarBinding) and tail.var is branch.body:
                    last = tail
            self.blocks(blocks[:-1], pad + "    ", out)
            for block in blocks[-1:]:
                if isinstance(block, X.DataflowBlock):
                    self.blocks([block], pad + "    ", out)
                    continue
                for inner in block.bindings:
                    if inner is not last:
                        self.binding(inner, pad + "    ", out)
            value = last.value if last is not None else branch.body
            if name is None:
                name = self.define(b.var)
            sinfo = self.sinfo(b.var.struct_info)
            out.append(f"{pad}    {name}: {sinfo} = {self.expr(value)}")

    def blocks(self, blocks, pad: str, out: list) -> None:
        for block in blocks:
            if isinstance(block, X.DataflowBlock):
                out.append(f"{pad}with R.dataflow():")
                for b in block.bindings:
                    self.binding(b, pad + "    ", out)
                outputs = [
                    self.var(b.var) for b in block.bindings if not isinstance(b.var, X.DataflowVar)
                ]
                out.append(f"{pad}    R.output({', '.join(outputs)})")
            else:
                for b in block.bindings:
                    self.binding(b, pad, out)

    # -- functions ------------------------------------------------------------------------
    def function(self, f, name: str, out: list, pad: str = "", nested: bool = False) -> None:
        saved, self.symbolic_first = self.symbolic_first, []
        params = [f"{self.define(p)}: {self.sinfo(p.struct_info, True)}" for p in f.params]
        ret = self.sinfo(f.ret_struct_info, True)
        attrs = dict(f.attrs)
        symbol = attrs.get("global_symbol")
        if symbol == name:
            del attrs["global_symbol"]
        options = [] if f.is_pure else ["pure=False"]
        if symbol is None and not nested:
            options.append("private=True")
        decorator = f"@R.function({', '.join(options)})" if options else "@R.function"
        body: list[str] = []
        inner = pad + "    "
        seq = f.body
        if isinstance(seq, X.SeqExpr):
            self.blocks(seq.blocks, inner, body)
            result = self.expr(seq.body)
        else:
            result = self.expr(seq)
        body.append(f"{inner}return {result}")
        head = [inner + d for d in self.symbolic_first]
        if not nested:
            head += [inner + d for d in self.prim.hoisted]
            self.prim.hoisted.clear()
        self.symbolic_first = saved
        if attrs:
            head.append(f"{inner}R.func_attr({literal(attrs, self.prim_expr)})")
        if self.uses_cls and not nested:
            head.append(f"{inner}{option('module_alias', 'cls')} = {self.module_name}")
        out.append(pad + decorator)
        out.append(f"{pad}def {name}({', '.join(params)}) -> {ret}:")
        out.extend(head + body)


def _print(
    node,
    name=None,
    names: NameTable | None = None,
    in_module=False,
    vdevices=(),
    metadata: MetadataTable | None = None,
    **_ignored,
):
    printer = RelaxPrinter(names, "Module" if in_module else None, vdevices, metadata)
    if isinstance(node, X.Function):
        out: list[str] = []
        printer.function(node, name or node.attrs.get("global_symbol", "main"), out)
        return "\n".join(out)
    if isinstance(node, S.StructInfo):
        return printer.sinfo(node)
    if isinstance(node, (X.Binding,)):
        out = []
        printer.binding(node, "", out)
        return "\n".join(out)
    if isinstance(node, X.If):  # on its own: each branch ends with its value, as upstream
        out = [f"if {printer.expr(node.cond)}:"]
        for i, branch in enumerate((node.true_branch, node.false_branch)):
            if i:
                out.append("else:")
            blocks = branch.blocks if isinstance(branch, X.SeqExpr) else []
            printer.blocks(blocks, "    ", out)
            value = branch.body if isinstance(branch, X.SeqExpr) else branch
            out.append("    " + printer.expr(value))
        return "\n".join(out)
    if isinstance(node, (X.BindingBlock, X.SeqExpr)):
        out = []
        seq = isinstance(node, X.SeqExpr)
        printer.blocks(node.blocks if seq else [node], "", out)
        if seq:  # its bindings, then its value, as upstream shows a SeqExpr on its own
            out.append(printer.expr(node.body))
        return "\n".join(out)
    text = printer.expr(node)
    if not option("verbose_expr", False):
        return text
    # verbose_expr: the free variables' definitions first (their symbolic dims before them).
    free = [v for v in printer.prim.keep if isinstance(v, X.Var)]
    defs = [f"{printer.var(v)}: {printer.sinfo(v.struct_info)}" for v in free]
    return "\n".join([*printer.prim.hoisted, *printer.prim.pending, *defs, text])


def _vdevice_text(vdevice, **_ignored) -> str:
    """I.vdevice(target config, id, scope), the target spelled as upstream exports it."""
    target = vdevice.target
    if target is None:
        config = None
    else:
        config = {"keys": list(target.keys), "tag": "", **target.export()}
        config = dict(sorted(config.items()))
    return f"I.vdevice({literal(config)}, {vdevice.vdevice_id}, {quote(vdevice.memory_scope)})"


def _is_relax(node) -> bool:
    return isinstance(node, (X.Expr, S.StructInfo, X.Binding, X.BindingBlock)) and not isinstance(
        node, E.PrimExpr
    )


register_printer(_is_relax, _print, dialect=("relax", "R"))
register_printer(lambda node: isinstance(node, VDevice), _vdevice_text, dialect=("ir", "I"))
