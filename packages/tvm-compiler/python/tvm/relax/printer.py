"""Relax's text form, as upstream's TVMScript prints it (R.function, R.dataflow, R.Tensor...);
symbolic dimensions and TIR functions share one naming context with the TIR printer."""

from __future__ import annotations

from tvm.ir.module import GlobalVar, IRModule
from tvm.ir.naming import NameTable
from tvm.ir.op import Op
from tvm.ir.printer import node_to_str, register_printer
from tvm.tir import expr as E
from tvm.tir.printer import _Printer as _TIRPrinter

from . import expr as X
from . import struct_info as S
from .analysis.struct_info_analysis import tir_vars_in
from .op.op_attrs import Attrs

_HEADER = [
    "# from tvm.script import ir as I",
    "# from tvm.script import relax as R",
    "# from tvm.script import tir as T",
    "",
]


def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _Printer:
    def __init__(self, names: NameTable | None = None, in_module: bool = False):
        self.names = names if names is not None else NameTable()
        self.tir = _TIRPrinter(self.names)
        self.in_module = in_module
        self.constants: list = []

    # -- leaves -----------------------------------------------------------------------------
    def prim(self, e) -> str:
        return self.tir.expr(e)

    def dims(self, values) -> str:
        inner = ", ".join(self.prim(v) for v in values)
        return f"({inner},)" if len(values) == 1 else f"({inner})"

    def sinfo(self, s) -> str:
        if s is None:
            return "R.Object"
        if isinstance(s, S.ObjectStructInfo):
            return "R.Object"
        if isinstance(s, S.PrimStructInfo):
            return (
                f"R.Prim(value={self.prim(s.value)})"
                if s.value is not None
                else (f"R.Prim({_quote(s.dtype)})")
            )
        if isinstance(s, S.ShapeStructInfo):
            if s.values is not None:
                return f"R.Shape([{', '.join(self.prim(v) for v in s.values)}])"
            return f"R.Shape(ndim={s.ndim})" if s.ndim != -1 else "R.Shape"
        if isinstance(s, S.TensorStructInfo):
            args = []
            if isinstance(s.shape, X.ShapeExpr):
                args.append(self.dims(s.shape.values))
            elif s.shape is not None:
                args.append(self.expr(s.shape))
            if s.dtype != "void":
                args.append(f"dtype={_quote(s.dtype)}")
            if s.shape is None and s.ndim != -1:
                args.append(f"ndim={s.ndim}")
            if s.vdevice is not None:
                args.append(f"vdevice={_quote(str(s.vdevice))}")
            return f"R.Tensor({', '.join(args)})" if args else "R.Tensor"
        if isinstance(s, S.TupleStructInfo):
            return f"R.Tuple({', '.join(self.sinfo(f) for f in s.fields)})"
        if isinstance(s, S.FuncStructInfo):
            if s.is_opaque():
                return "R.Callable" + ("" if s.purity else "(purity=False)")
            params = ", ".join(self.sinfo(p) for p in s.params)
            params += "," if len(s.params) == 1 else ""
            purity = "" if s.purity else ", purity=False"
            return f"R.Callable(({params}), {self.sinfo(s.ret)}{purity})"
        return repr(s)

    def var(self, v) -> str:
        return self.names.name(v, v.name_hint)

    def gvar(self, gv) -> str:
        return f"cls.{gv.name_hint}" if self.in_module else gv.name_hint

    def attr_value(self, value) -> str:
        if isinstance(value, str):
            return _quote(value)
        if isinstance(value, (list, tuple)):
            return "[" + ", ".join(self.attr_value(v) for v in value) + "]"
        if isinstance(value, E.PrimExpr):
            return self.prim(value)
        if hasattr(value, "_type_key"):
            return self.expr(value)
        return repr(value)

    # -- expressions ------------------------------------------------------------------------
    def expr(self, e) -> str:
        if isinstance(e, X.Var):
            return self.var(e)
        if isinstance(e, GlobalVar):
            return self.gvar(e)
        if isinstance(e, X.Constant):
            array = e.data.numpy()
            if array.ndim == 0:
                value = array.item()
                return f"R.const({value!r}, {_quote(str(array.dtype))})"
            self.constants.append(e)
            return f'metadata["relax.expr.Constant"][{len(self.constants) - 1}]'
        if isinstance(e, X.Tuple):
            inner = ", ".join(self.expr(f) for f in e.fields)
            return f"({inner},)" if len(e.fields) == 1 else f"({inner})"
        if isinstance(e, X.TupleGetItem):
            return f"{self.expr(e.tuple_value)}[{e.index}]"
        if isinstance(e, X.ShapeExpr):
            return f"R.shape([{', '.join(self.prim(v) for v in e.values)}])"
        if isinstance(e, X.PrimValue):
            return f"R.prim_value({self.prim(e.value)})"
        if isinstance(e, X.StringImm):
            return f"R.str({_quote(e.value)})"
        if isinstance(e, X.DataTypeImm):
            return f"R.dtype({_quote(e.value)})"
        if isinstance(e, X.ExternFunc):
            return f"R.ExternFunc({_quote(e.global_symbol)})"
        if isinstance(e, X.Call):
            return self.call(e)
        if isinstance(e, X.Function):
            return "\n".join(self.function(e, "f", 0))
        return repr(e)

    def call(self, c) -> str:
        op = c.op
        if isinstance(op, Op):
            name = op.name.removeprefix("relax.")
            if name in ("call_tir", "call_tir_inplace", "call_dps_packed"):
                args = [self.expr(c.args[0]), self.expr(c.args[1])]
                if isinstance(c.attrs, Attrs) and "inplace_indices" in c.attrs.keys():
                    args.append(f"inplace_indices={self.attr_value(c.attrs.inplace_indices)}")
                args.append(f"out_sinfo={self._out_sinfo(c.sinfo_args[0])}")
                if len(c.args) > 2:
                    args.append(f"tir_vars={self.expr(c.args[2])}")
                return f"R.{name}({', '.join(args)})"
            args = [self.expr(a) for a in c.args]
            if isinstance(c.attrs, Attrs):
                args += [f"{k}={self.attr_value(v)}" for k, v in c.attrs.items()]
            if c.sinfo_args:
                args.append(f"sinfo_args={self._sinfo_args(c.sinfo_args)}")
            return f"R.{name}({', '.join(args)})"
        args = [self.expr(a) for a in c.args]
        if isinstance(op, X.ExternFunc):
            args = [_quote(op.global_symbol), *args]
            if c.sinfo_args:
                args.append(f"sinfo_args={self._sinfo_args(c.sinfo_args)}")
            return f"R.call_packed({', '.join(args)})"
        return f"{self.expr(op)}({', '.join(args)})"

    def _out_sinfo(self, s) -> str:
        if isinstance(s, S.TupleStructInfo):
            return "[" + ", ".join(self.sinfo(f) for f in s.fields) + "]"
        return self.sinfo(s)

    def _sinfo_args(self, items) -> str:
        if len(items) == 1:
            return self.sinfo(items[0])
        return "(" + ", ".join(self.sinfo(s) for s in items) + ")"

    # -- bindings and blocks ------------------------------------------------------------------
    def binding(self, b, indent: int, out: list) -> None:
        pad = "    " * indent
        lhs = f"{self.var(b.var)}: {self.sinfo(b.var.__dict__.get('struct_info_'))}"
        if isinstance(b, X.MatchCast):
            out.append(
                f"{pad}{self.var(b.var)} = R.match_cast({self.expr(b.value)}, "
                f"{self.sinfo(b.struct_info)})"
            )
            return
        value = b.value
        if isinstance(value, X.If):
            out.append(f"{pad}if {self.expr(value.cond)}:")
            self.branch(value.true_branch, lhs, indent + 1, out)
            out.append(f"{pad}else:")
            self.branch(value.false_branch, lhs, indent + 1, out)
            return
        if isinstance(value, X.Function):
            lines = self.function(value, self.var(b.var), indent)
            out.extend(lines)
            return
        out.append(f"{pad}{lhs} = {self.expr(value)}")

    def branch(self, seq, lhs, indent, out):
        if isinstance(seq, X.SeqExpr):
            self.blocks(seq.blocks, indent, out)
            body = seq.body
        else:
            body = seq
        out.append(f"{'    ' * indent}{lhs} = {self.expr(body)}")

    def blocks(self, blocks, indent: int, out: list) -> None:
        pad = "    " * indent
        for block in blocks:
            if isinstance(block, X.DataflowBlock):
                out.append(f"{pad}with R.dataflow():")
                for b in block.bindings:
                    self.binding(b, indent + 1, out)
                outputs = [b.var for b in block.bindings if not isinstance(b.var, X.DataflowVar)]
                out.append(f"{pad}    R.output({', '.join(self.var(v) for v in outputs)})")
            else:
                for b in block.bindings:
                    self.binding(b, indent, out)

    def function(self, f, name: str, indent: int) -> list:
        pad = "    " * indent
        options = []
        if "global_symbol" not in f.attrs:
            options.append("private=True")
        if not f.is_pure:
            options.append("pure=False")
        out = [f"{pad}@R.function" + (f"({', '.join(options)})" if options else "")]
        params = ", ".join(f"{self.var(p)}: {self.sinfo(p.struct_info)}" for p in f.params)
        ret = f" -> {self.sinfo(f.ret_struct_info)}" if f.ret_struct_info is not None else ""
        out.append(f"{pad}def {name}({params}){ret}:")
        inner = "    " * (indent + 1)
        for v in tir_vars_in([p.struct_info for p in f.params]):
            out.append(f"{inner}{self.names.name(v)} = T.{v.dtype}()")
        attrs = {k: v for k, v in f.attrs.items() if k != "global_symbol"}
        if attrs:
            items = ", ".join(f"{_quote(k)}: {self.attr_value(v)}" for k, v in attrs.items())
            out.append(f"{inner}R.func_attr({{{items}}})")
        body = f.body
        if isinstance(body, X.SeqExpr):
            self.blocks(body.blocks, indent + 1, out)
            body = body.body
        out.append(f"{inner}return {self.expr(body)}")
        return out

    def module(self, mod: IRModule) -> str:
        out = [*_HEADER, "@I.ir_module", "class Module:"]
        for gv in mod.functions:
            self.names.reserve(gv.name_hint)
        first = True
        for gv, func in mod.functions.items():
            if not first:
                out.append("")
            first = False
            if isinstance(func, X.Function):
                out.extend(self.function(func, gv.name_hint, 1))
                continue
            text = node_to_str(func, name=gv.name_hint, names=NameTable())
            lines = text.split("\n")
            if (
                lines
                and lines[0] == "@T.prim_func"
                and "global_symbol" not in getattr(func, "attrs", {})
            ):
                lines[0] = "@T.prim_func(private=True)"
            out.extend("    " + line if line else line for line in lines)
        return "\n".join(out)


def _print(node, name=None, names=None, **_ignored) -> str:
    printer = _Printer(names)
    if isinstance(node, IRModule):
        return _Printer(names, in_module=True).module(node)
    if isinstance(node, X.Function):
        return "\n".join(printer.function(node, name or node.attrs.get("global_symbol", "main"), 0))
    if isinstance(node, S.StructInfo):
        return printer.sinfo(node)
    if isinstance(node, X.BindingBlock):
        out: list = []
        printer.blocks([node], 0, out)
        return "\n".join(out)
    if isinstance(node, X.Binding):
        out = []
        printer.binding(node, 0, out)
        return "\n".join(out)
    if isinstance(node, X.SeqExpr):
        out = []
        printer.blocks(node.blocks, 0, out)
        out.append(printer.expr(node.body))
        return "\n".join(out)
    return printer.expr(node)


def _is_relax(node) -> bool:
    if isinstance(node, IRModule):
        return any(isinstance(f, X.Function) for f in node.functions.values())
    return node._type_key.startswith("relax.") and not isinstance(node, Attrs)


register_printer(_is_relax, _print)
