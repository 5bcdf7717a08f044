"""A readable, Python-like text form of TIR expressions, statements and PrimFuncs."""

from __future__ import annotations

from tvm.ir.functor import find_method
from tvm.ir.naming import NameTable
from tvm.ir.printer import register_printer

from . import expr as E
from . import stmt as S
from .buffer import Buffer
from .function import PrimFunc

_PRECEDENCE = {
    E.Or: 1,
    E.And: 2,
    E.Not: 3,
    E.EQ: 4,
    E.NE: 4,
    E.LT: 4,
    E.LE: 4,
    E.GT: 4,
    E.GE: 4,
    E.Add: 5,
    E.Sub: 5,
    E.Mul: 6,
    E.Div: 6,
    E.FloorDiv: 6,
    E.FloorMod: 6,
    E.Mod: 6,
}
_CALL_FORMS = {E.Min: "T.min", E.Max: "T.max", E.Mod: "T.truncmod"}


class _Printer:
    def __init__(self, names: NameTable | None = None):
        self.names = names if names is not None else NameTable()

    def name(self, obj) -> str:
        # A buffer and its flattened views share the data variable, hence one name.
        return self.names.name(obj, key=obj.data if isinstance(obj, Buffer) else None)

    # -- expressions ----------------------------------------------------------------------
    def expr(self, e, parent_prec: int = 0) -> str:
        if type(e) in _CALL_FORMS:
            return f"{_CALL_FORMS[type(e)]}({self.expr(e.a)}, {self.expr(e.b)})"
        method = find_method(type(self), type(e), "_e_", "tir")
        return repr(e) if method is None else method(self, e, parent_prec)

    def _e_Var(self, e, _prec):
        return self.name(e)

    def _e_IntImm(self, e, _prec):
        if e.dtype == "bool":
            return "True" if e.value else "False"
        return str(e.value) if e.dtype in ("int32", "int64") else f"T.{e.dtype}({e.value})"

    def _e_FloatImm(self, e, _prec):
        return repr(e.value) if e.dtype == "float32" else f"T.{e.dtype}({e.value!r})"

    def _e_StringImm(self, e, _prec):
        return repr(e.value)

    def _e_Cast(self, e, _prec):
        return f"T.Cast({e.dtype!r}, {self.expr(e.value)})"

    def _e_BinaryOpExpr(self, e, parent_prec):
        prec = _PRECEDENCE[type(e)]
        text = f"{self.expr(e.a, prec)} {e.symbol} {self.expr(e.b, prec + 1)}"
        return f"({text})" if prec < parent_prec else text

    def _e_Not(self, e, _prec):
        return f"not {self.expr(e.a, 3)}"

    def _e_Select(self, e, _prec):
        return (
            f"T.Select({self.expr(e.condition)}, {self.expr(e.true_value)}, "
            f"{self.expr(e.false_value)})"
        )

    def _e_Let(self, e, _prec):
        return f"T.Let({self.expr(e.body)}, where={{{self.name(e.var)}: {self.expr(e.value)}}})"

    def _e_Call(self, e, _prec):
        args = ", ".join(self.expr(a) for a in e.args)
        return f"T.{e.op.name.removeprefix('tir.')}({args})"

    def _e_BufferLoad(self, e, _prec):
        return f"{self.name(e.buffer)}[{', '.join(self.expr(i) for i in e.indices)}]"

    def _e_Ramp(self, e, _prec):
        return f"T.Ramp({self.expr(e.base)}, {self.expr(e.stride)}, {e.lanes})"

    def _e_Broadcast(self, e, _prec):
        return f"T.Broadcast({self.expr(e.value)}, {e.lanes})"

    def buffer_decl(self, buf: Buffer) -> str:
        shape = ", ".join(self.expr(s) for s in buf.shape)
        extra = "" if buf.scope == "global" else f", scope={buf.scope!r}"
        if buf.axis_separators:
            extra += f", axis_separators={list(buf.axis_separators)}"
        return f"T.Buffer(({shape}{',' if len(buf.shape) == 1 else ''}), {buf.dtype!r}{extra})"

    # -- statements -----------------------------------------------------------------------
    def stmt(self, s, indent: int, out: list) -> None:
        pad = "    " * indent
        method = find_method(type(self), type(s), "_s_", "tir")
        if method is None:
            out.append(f"{pad}{type(s).__name__}(...)")
        else:
            method(self, s, pad, indent, out)

    def _s_SeqStmt(self, s, pad, indent, out):
        for item in s.seq:
            self.stmt(item, indent, out)

    def _s_BufferStore(self, s, pad, indent, out):
        idx = ", ".join(self.expr(i) for i in s.indices)
        out.append(f"{pad}{self.name(s.buffer)}[{idx}] = {self.expr(s.value)}")

    def _s_For(self, s, pad, indent, out):
        kind = {
            S.ForKind.SERIAL: "T.serial",
            S.ForKind.PARALLEL: "T.parallel",
            S.ForKind.VECTORIZED: "T.vectorized",
            S.ForKind.UNROLLED: "T.unroll",
            S.ForKind.THREAD_BINDING: "T.thread_binding",
        }[s.kind]
        rng = (
            self.expr(s.extent)
            if isinstance(s.min, E.IntImm) and s.min.value == 0
            else f"{self.expr(s.min)}, {self.expr(s.min + s.extent)}"
        )
        if s.kind == S.ForKind.THREAD_BINDING:
            rng += f", thread={s.thread_binding!r}"
        out.append(f"{pad}for {self.name(s.loop_var)} in {kind}({rng}):")
        self.stmt(s.body, indent + 1, out)

    def _s_IfThenElse(self, s, pad, indent, out):
        out.append(f"{pad}if {self.expr(s.condition)}:")
        self.stmt(s.then_case, indent + 1, out)
        if s.else_case is not None:
            out.append(f"{pad}else:")
            self.stmt(s.else_case, indent + 1, out)

    def _s_LetStmt(self, s, pad, indent, out):
        out.append(f"{pad}{self.name(s.var)}: T.{s.var.dtype} = {self.expr(s.value)}")
        self.stmt(s.body, indent, out)

    def _s_Allocate(self, s, pad, indent, out):
        ext = ", ".join(self.expr(x) for x in s.extents)
        out.append(f"{pad}{self.name(s.buffer_var)} = T.allocate([{ext}], {s.dtype!r})")
        self.stmt(s.body, indent, out)

    def _s_DeclBuffer(self, s, pad, indent, out):
        out.append(
            f"{pad}{self.name(s.buffer)} = T.decl_buffer({self.buffer_decl(s.buffer)},"
            f" data={self.name(s.buffer.data)})"
        )
        self.stmt(s.body, indent, out)

    def _s_AssertStmt(self, s, pad, indent, out):
        out.append(f"{pad}assert {self.expr(s.condition)}, {s.message!r}")
        self.stmt(s.body, indent, out)

    def _s_Evaluate(self, s, pad, indent, out):
        out.append(f"{pad}T.evaluate({self.expr(s.value)})")

    def _s_BlockRealize(self, s, pad, indent, out):
        self.block(s, indent, out)

    def block(self, realize, indent, out):
        pad = "    " * indent
        block = realize.block
        out.append(f"{pad}with T.block({block.name_hint!r}):")
        inner = pad + "    "
        for iv, value in zip(block.iter_vars, realize.iter_values):
            kind = "T.axis.reduce" if iv.is_reduce else "T.axis.spatial"
            out.append(
                f"{inner}{self.name(iv.var)} = {kind}({self.expr(iv.dom.extent)}, "
                f"{self.expr(value)})"
            )
        if not (isinstance(realize.predicate, E.IntImm) and realize.predicate.value):
            out.append(f"{inner}T.where({self.expr(realize.predicate)})")
        if block.annotations:
            out.append(f"{inner}T.block_attr({self._annotations(block.annotations)})")
        for buf in block.alloc_buffers:
            out.append(f"{inner}{self.name(buf)} = T.alloc_buffer({self.buffer_decl(buf)})")
        if block.init is not None:
            out.append(f"{inner}with T.init():")
            self.stmt(block.init, indent + 2, out)
        self.stmt(block.body, indent + 1, out)

    def _annotations(self, anns) -> str:
        def value(v):
            if isinstance(v, (list, tuple)):
                return "[" + ", ".join(value(x) for x in v) + "]"
            if isinstance(v, dict):
                return "{" + ", ".join(f"{k!r}: {value(x)}" for k, x in v.items()) + "}"
            return self.expr(v) if isinstance(v, E.PrimExpr) else repr(v)

        return value(dict(anns))

    def func(self, f: PrimFunc, name: str) -> str:
        params = []
        for p in f.params:
            buf = f.buffer_map.get(p)
            if buf is not None:
                params.append(f"{self.name(buf)}: {self.buffer_decl(buf)}")
            else:
                params.append(f"{self.name(p)}: T.{p.dtype}")
        ret = f" -> T.{f.ret_type}" if f.ret_type is not None else ""
        out = ["@T.prim_func", f"def {name}({', '.join(params)}){ret}:"]
        body = f.body
        if (
            isinstance(body, S.BlockRealize)
            and body.block.name_hint == "root"
            and not body.block.iter_vars
        ):
            for buf in body.block.alloc_buffers:
                out.append(f"    {self.name(buf)} = T.alloc_buffer({self.buffer_decl(buf)})")
            body = body.block.body
        self.stmt(body, 1, out)
        return "\n".join(out)


def _print(node, name=None, names: NameTable | None = None, **_ignored):
    """The text of a TIR node; `names` shares the naming context of an enclosing printout."""
    printer = _Printer(names)
    if isinstance(node, PrimFunc):
        return printer.func(node, name or node.attrs.get("global_symbol", "main"))
    if isinstance(node, E.PrimExpr):
        return printer.expr(node)
    if isinstance(node, S.Stmt):
        out: list[str] = []
        printer.stmt(node, 0, out)
        return "\n".join(out)
    if isinstance(node, Buffer):
        return f"{node.name}: {printer.buffer_decl(node)}"
    if isinstance(node, E.Range):
        return f"Range({printer.expr(node.min)}, extent={printer.expr(node.extent)})"
    if isinstance(node, S.IterVar):
        return f"IterVar({printer.name(node.var)}, {_print(node.dom, names=printer.names)})"
    fields = ", ".join(f"{n}={getattr(node, n)!r}" for n in node._fields)
    return f"{type(node).__name__}({fields})"


def _is_tir(node) -> bool:
    return node._type_key.startswith("tir.") or isinstance(node, E.Range)


register_printer(_is_tir, _print)
