"""A readable, Python-like text form of TIR expressions, statements and PrimFuncs."""

from __future__ import annotations

from tvm.ir.printer import register_printer

from . import expr as E
from . import stmt as S
from .buffer import Buffer
from .function import PrimFunc

_PRECEDENCE = {
    E.Or: 1, E.And: 2, E.Not: 3,
    E.EQ: 4, E.NE: 4, E.LT: 4, E.LE: 4, E.GT: 4, E.GE: 4,
    E.Add: 5, E.Sub: 5,
    E.Mul: 6, E.Div: 6, E.FloorDiv: 6, E.FloorMod: 6, E.Mod: 6,
}
_CALL_FORMS = {E.Min: "T.min", E.Max: "T.max", E.Mod: "T.truncmod"}


class _Printer:
    def __init__(self):
        self.names: dict[int, str] = {}
        self.used: set[str] = set()

    def name(self, obj) -> str:
        # A buffer and its flattened views share the data variable, hence one name.
        key = id(obj.data) if isinstance(obj, Buffer) else id(obj)
        if key not in self.names:
            base = getattr(obj, "name", None) or getattr(obj, "name_hint", None) or "v"
            candidate, n = base, 1
            while candidate in self.used:
                candidate = f"{base}_{n}"
                n += 1
            self.used.add(candidate)
            self.names[key] = candidate
        return self.names[key]

    # -- expressions ----------------------------------------------------------------------
    def expr(self, e, parent_prec: int = 0) -> str:
        if isinstance(e, E.Var):
            return self.name(e)
        if isinstance(e, E.IntImm):
            if e.dtype == "bool":
                return "True" if e.value else "False"
            return str(e.value) if e.dtype in ("int32", "int64") else f"T.{e.dtype}({e.value})"
        if isinstance(e, E.FloatImm):
            return repr(e.value) if e.dtype == "float32" else f"T.{e.dtype}({e.value!r})"
        if isinstance(e, E.StringImm):
            return repr(e.value)
        if isinstance(e, E.Cast):
            return f"T.Cast({e.dtype!r}, {self.expr(e.value)})"
        if type(e) in _CALL_FORMS:
            return f"{_CALL_FORMS[type(e)]}({self.expr(e.a)}, {self.expr(e.b)})"
        if isinstance(e, E.BinaryOpExpr):
            prec = _PRECEDENCE[type(e)]
            text = f"{self.expr(e.a, prec)} {e.symbol} {self.expr(e.b, prec + 1)}"
            return f"({text})" if prec < parent_prec else text
        if isinstance(e, E.Not):
            return f"not {self.expr(e.a, 3)}"
        if isinstance(e, E.Select):
            return (f"T.Select({self.expr(e.condition)}, {self.expr(e.true_value)}, "
                    f"{self.expr(e.false_value)})")
        if isinstance(e, E.Let):
            return f"T.Let({self.expr(e.body)}, where={{{self.name(e.var)}: {self.expr(e.value)}}})"
        if isinstance(e, E.Call):
            args = ", ".join(self.expr(a) for a in e.args)
            return f"T.{e.op.name.removeprefix('tir.')}({args})"
        if isinstance(e, E.BufferLoad):
            return f"{self.name(e.buffer)}[{', '.join(self.expr(i) for i in e.indices)}]"
        if isinstance(e, E.Ramp):
            return f"T.Ramp({self.expr(e.base)}, {self.expr(e.stride)}, {e.lanes})"
        if isinstance(e, E.Broadcast):
            return f"T.Broadcast({self.expr(e.value)}, {e.lanes})"
        return repr(e)

    def buffer_decl(self, buf: Buffer) -> str:
        shape = ", ".join(self.expr(s) for s in buf.shape)
        extra = "" if buf.scope == "global" else f", scope={buf.scope!r}"
        return f"T.Buffer(({shape}{',' if len(buf.shape) == 1 else ''}), {buf.dtype!r}{extra})"

    # -- statements -----------------------------------------------------------------------
    def stmt(self, s, indent: int, out: list) -> None:
        pad = "    " * indent
        if isinstance(s, S.SeqStmt):
            for item in s.seq:
                self.stmt(item, indent, out)
        elif isinstance(s, S.BufferStore):
            idx = ", ".join(self.expr(i) for i in s.indices)
            out.append(f"{pad}{self.name(s.buffer)}[{idx}] = {self.expr(s.value)}")
        elif isinstance(s, S.For):
            kind = {S.ForKind.SERIAL: "T.serial", S.ForKind.PARALLEL: "T.parallel",
                    S.ForKind.VECTORIZED: "T.vectorized", S.ForKind.UNROLLED: "T.unroll"}[s.kind]
            rng = (self.expr(s.extent) if isinstance(s.min, E.IntImm) and s.min.value == 0
                   else f"{self.expr(s.min)}, {self.expr(s.min + s.extent)}")
            out.append(f"{pad}for {self.name(s.loop_var)} in {kind}({rng}):")
            self.stmt(s.body, indent + 1, out)
        elif isinstance(s, S.IfThenElse):
            out.append(f"{pad}if {self.expr(s.condition)}:")
            self.stmt(s.then_case, indent + 1, out)
            if s.else_case is not None:
                out.append(f"{pad}else:")
                self.stmt(s.else_case, indent + 1, out)
        elif isinstance(s, S.LetStmt):
            out.append(f"{pad}{self.name(s.var)}: T.{s.var.dtype} = {self.expr(s.value)}")
            self.stmt(s.body, indent, out)
        elif isinstance(s, S.Allocate):
            ext = ", ".join(self.expr(x) for x in s.extents)
            out.append(f"{pad}{self.name(s.buffer_var)} = T.allocate([{ext}], {s.dtype!r})")
            self.stmt(s.body, indent, out)
        elif isinstance(s, S.DeclBuffer):
            out.append(f"{pad}{self.name(s.buffer)} = T.decl_buffer({self.buffer_decl(s.buffer)},"
                       f" data={self.name(s.buffer.data)})")
            self.stmt(s.body, indent, out)
        elif isinstance(s, S.AssertStmt):
            out.append(f"{pad}assert {self.expr(s.condition)}, {s.message!r}")
            self.stmt(s.body, indent, out)
        elif isinstance(s, S.Evaluate):
            out.append(f"{pad}T.evaluate({self.expr(s.value)})")
        elif isinstance(s, S.BlockRealize):
            self.block(s, indent, out)
        else:
            out.append(f"{pad}{type(s).__name__}(...)")

    def block(self, realize, indent, out):
        pad = "    " * indent
        block = realize.block
        out.append(f"{pad}with T.block({block.name_hint!r}):")
        inner = pad + "    "
        for iv, value in zip(block.iter_vars, realize.iter_values):
            kind = "T.axis.reduce" if iv.is_reduce else "T.axis.spatial"
            out.append(f"{inner}{self.name(iv.var)} = {kind}({self.expr(iv.dom.extent)}, "
                       f"{self.expr(value)})")
        if not (isinstance(realize.predicate, E.IntImm) and realize.predicate.value):
            out.append(f"{inner}T.where({self.expr(realize.predicate)})")
        for buf in block.alloc_buffers:
            out.append(f"{inner}{self.name(buf)} = T.alloc_buffer({self.buffer_decl(buf)})")
        if block.init is not None:
            out.append(f"{inner}with T.init():")
            self.stmt(block.init, indent + 2, out)
        self.stmt(block.body, indent + 1, out)

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
        if (isinstance(body, S.BlockRealize) and body.block.name_hint == "root"
                and not body.block.iter_vars):
            for buf in body.block.alloc_buffers:
                out.append(f"    {self.name(buf)} = T.alloc_buffer({self.buffer_decl(buf)})")
            body = body.block.body
        self.stmt(body, 1, out)
        return "\n".join(out)


def _print(node, name=None, **_ignored):
    printer = _Printer()
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
        return f"IterVar({printer.name(node.var)}, {_print(node.dom)})"
    fields = ", ".join(f"{n}={getattr(node, n)!r}" for n in node._fields)
    return f"{type(node).__name__}({fields})"


def _is_tir(node) -> bool:
    return type(node).__module__.startswith("tvm.tir")


register_printer(_is_tir, _print)
