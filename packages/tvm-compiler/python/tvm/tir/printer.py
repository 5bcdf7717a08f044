"""TIR as upstream's TVMScript prints it (`@T.prim_func`, `T.Buffer(...)`, `with T.block(...)`).

Every printed function parses back (tvm.script.from_source) to a structurally equal one.
"""

from __future__ import annotations

import keyword
import math
import re

from tvm.ir import underline
from tvm.ir.functor import find_method
from tvm.ir.naming import NameTable
from tvm.ir.printer import register_printer
from tvm.ir.printer_config import option

from . import expr as E
from . import stmt as S
from .buffer import Buffer
from .function import PrimFunc
from .functor import contains

# Python's precedence: the printed text is Python, and parses as Python does.
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
    E.Add: 6,
    E.Sub: 6,
    E.Mul: 7,
    E.Div: 7,
    E.FloorDiv: 7,
    E.FloorMod: 7,
}
_CONSTANTS = (E.IntImm, E.FloatImm)
_CALL_FORMS = {E.Min: "T.min", E.Max: "T.max", E.Mod: "T.truncmod"}
_FOR_KINDS = {
    S.ForKind.PARALLEL: "T.parallel",
    S.ForKind.VECTORIZED: "T.vectorized",
    S.ForKind.UNROLLED: "T.unroll",
    S.ForKind.THREAD_BINDING: "T.thread_binding",
    S.ForKind.SERIAL: "T.serial",
}
# Calls whose result dtype the script spells out as the first argument.
_DTYPE_FIRST = {"tir.call_extern", "tir.call_pure_extern", "tir.reinterpret"}
# TIR op names whose T. spelling differs.
_OP_SPELLING = {"tir.tvm_call_packed": "call_packed", "tir.pow": "pow"}


def quote(text: str) -> str:
    """A Python string literal in double quotes, as upstream prints strings."""
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{body}"'


def literal(value, expr=None) -> str:
    """A Python literal (dicts, lists, strings, numbers) as upstream prints attribute values;
    expr prints the IR nodes inside."""
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(f"{literal(k, expr)}: {literal(v, expr)}" for k, v in value.items())
            + "}"
        )
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(literal(v, expr) for v in value) + "]"
    if isinstance(value, E.PrimExpr):
        return (expr or _Printer().expr)(value)
    return repr(value)


def _float_text(value: float) -> str:
    if math.isinf(value) or math.isnan(value):
        return quote(repr(value))
    return repr(value)


def _identifier(name: str) -> str:
    name = re.sub(r"\W", "_", name) or "v"
    if name[0].isdigit():
        name = "_" + name
    return name + "_1" if keyword.iskeyword(name) else name


def _is_zero(e) -> bool:
    return isinstance(e, E.IntImm) and e.value == 0


# The most elements of a T.allocate_const printed inline (upstream's printer stops there).
_ALLOCATE_CONST_INLINE = 201


class _Printer:
    # Where data printed as metadata["<type key>"][i] goes (set for a whole printout).
    metadata = None

    def __init__(self, names: NameTable | None = None):
        self.names = names if names is not None else NameTable()
        for reserved in ("T", "I", "R", "range", "True", "False", "None"):
            self.names.reserve(reserved)
        self.defined: dict[int, str] = {}  # id(var or buffer) -> the text naming it
        self.keep: list = []
        self.pending: list[str] = []  # definitions a statement needs printed before it
        self.loops: dict[int, S.For] = {}
        # In a function, free variables and undeclared buffer views are declared at the top.
        self.hoisted: list[str] | None = None
        self.last = True

    # -- names ----------------------------------------------------------------------------
    def fresh(self, obj, hint: str | None = None) -> str:
        name = self.names.name(obj, hint=_identifier(hint or getattr(obj, "name", "v")))
        self.define(obj, name)
        return name

    def define(self, obj, text: str) -> None:
        self.defined[id(obj)] = text
        self.keep.append(obj)

    def var(self, v) -> str:
        text = self.defined.get(id(v))
        if text is None:  # a free variable: upstream declares it where first used
            text = self.fresh(v)
            (self.pending if self.hoisted is None else self.hoisted).append(
                f"{text} = T.{v.dtype}()"
            )
        return text

    def buffer(self, buf) -> str:
        text = self.defined.get(id(buf))
        if text is None:  # a view not declared in the IR: declare it where first used
            known = id(buf.data) in self.defined
            if known:
                text = self.fresh(buf)
                line = f"{text} = T.Buffer({self.buffer_args(buf, data=self.var(buf.data))})"
            else:  # its memory is its own: T.Buffer without data= makes that
                text = self.define_buffer(buf)
                line = f"{text} = T.Buffer({self.buffer_args(buf)})"
            (self.hoisted if known and self.hoisted is not None else self.pending).append(line)
        return text

    def define_buffer(self, buf) -> str:
        name = self.fresh(buf)
        if id(buf.data) not in self.defined:
            self.define(buf.data, f"{name}.data")
        return name

    # -- expressions ----------------------------------------------------------------------
    def expr(self, e, parent_prec: int = 0) -> str:
        if underline.active():
            return underline.inline(e, lambda: self._expr(e, parent_prec))
        return self._expr(e, parent_prec)

    def _expr(self, e, parent_prec: int) -> str:
        if type(e) in _CALL_FORMS:
            return f"{_CALL_FORMS[type(e)]}({self.expr(e.a)}, {self.expr(e.b)})"
        method = find_method(type(self), type(e), "_e_", "tir")
        return repr(e) if method is None else method(self, e, parent_prec)

    def _e_Var(self, e, _prec):
        return self.var(e)

    def _e_IntImm(self, e, _prec):
        if e.dtype == "bool":
            return f"T.bool({bool(e.value)})"
        # script(int_dtype=) names the integer type printed bare, as upstream.
        if e.dtype == option("int_dtype", "int32"):
            return str(e.value)
        return f"T.{e.dtype}({e.value})"

    def _e_FloatImm(self, e, _prec):
        if e.dtype == option("float_dtype", "void"):
            return _float_text(e.value)
        return f"T.{e.dtype}({_float_text(e.value)})"

    def _e_StringImm(self, e, _prec):
        return quote(e.value)

    def _e_Cast(self, e, _prec):
        return f"T.Cast({quote(e.dtype)}, {self.expr(e.value)})"

    def _e_BinaryOpExpr(self, e, parent_prec):
        if (isinstance(e, E.Div) and not e.dtype.is_float) or (
            # Two constants: `0 * 16` would fold while parsing, so the node is spelled out.
            isinstance(e.a, _CONSTANTS) and isinstance(e.b, _CONSTANTS)
        ):
            return self.node_call(e)
        prec = _PRECEDENCE[type(e)]
        # Comparisons chain in Python, so neither side of one may be a bare comparison.
        left = prec + 1 if prec == 4 else prec
        text = f"{self.expr(e.a, left)} {e.symbol} {self.expr(e.b, prec + 1)}"
        return f"({text})" if prec < parent_prec else text

    def node_call(self, e) -> str:
        """A binary op as its node's constructor, T.Mul(a, b): nothing folds it."""
        return f"T.{type(e).__name__}({self.expr(e.a)}, {self.expr(e.b)})"

    def _e_Not(self, e, parent_prec):
        text = f"not {self.expr(e.a, 3)}"
        return f"({text})" if 3 < parent_prec else text

    def _e_Select(self, e, _prec):
        return (
            f"T.Select({self.expr(e.condition)}, {self.expr(e.true_value)}, "
            f"{self.expr(e.false_value)})"
        )

    def _e_Let(self, e, _prec):
        value = self.expr(e.value)
        name = self.fresh(e.var)
        return f"T.Let({self.expr(e.body)}, where={{{name}: {value}}})"

    def _e_Call(self, e, _prec):
        name = e.op.name
        args = [self.expr(a) for a in e.args]
        if name in _DTYPE_FIRST:
            args.insert(0, quote(e.dtype))
        spelled = _OP_SPELLING.get(name, name.removeprefix("tir."))
        return f"T.{spelled}({', '.join(args)})"

    def indices(self, indices) -> str:
        parts = []
        for i in indices:
            if isinstance(i, E.Ramp) and isinstance(i.stride, E.IntImm) and i.stride.value == 1:
                parts.append(f"{self.expr(i.base)}:{self.expr(i.base + i.lanes)}")
            else:
                parts.append(self.expr(i))
        return ", ".join(parts) or "()"  # a zero-dim buffer's element: A[()], as upstream

    def _e_BufferLoad(self, e, _prec):
        return f"{self.buffer(e.buffer)}[{self.indices(e.indices)}]"

    def _e_Ramp(self, e, _prec):
        return f"T.Ramp({self.expr(e.base)}, {self.expr(e.stride)}, {e.lanes})"

    def _e_Broadcast(self, e, _prec):
        return f"T.Broadcast({self.expr(e.value)}, {e.lanes})"

    def region(self, region) -> str:
        parts = []
        for r in region.region:
            if isinstance(r.extent, E.IntImm) and r.extent.value == 1:
                parts.append(self.expr(r.min))
            else:
                parts.append(f"{self.expr(r.min)}:{self.expr(r.min + r.extent)}")
        return f"{self.buffer(region.buffer)}[{', '.join(parts) or '()'}]"

    # -- buffers --------------------------------------------------------------------------
    def shape(self, dims, symbolic_first: set | None = None) -> str:
        parts = []
        for d in dims:
            if symbolic_first is not None and isinstance(d, E.Var) and id(d) not in self.defined:
                # A shape variable's first use in a signature: upstream writes it as a string.
                symbolic_first.add(id(d))
                parts.append(quote(self.fresh(d)))
            else:
                parts.append(self.expr(d))
        return f"({', '.join(parts)}{',' if len(parts) == 1 else ''})"

    def buffer_args(self, buf, data=None, dtype_always=True, symbolic=None, name=None) -> str:
        """The arguments declaring buf; with name (the buffer's printed name) an element offset
        variable seen here first is the buffer's own (`name.elem_offset`), which upstream
        writes as offset_factor=1."""
        args = [self.shape(buf.shape, symbolic)]
        if dtype_always or buf.dtype != "float32":
            args.append(quote(buf.dtype))
        if data is not None:
            args.append(f"data={data}")
        if buf.strides:
            args.append(f"strides={self.shape(buf.strides)}")
        implied_offset = (
            name is not None
            and isinstance(buf.elem_offset, E.Var)
            and id(buf.elem_offset) not in self.defined
        )
        if implied_offset:
            self.define(buf.elem_offset, f"{name}.elem_offset")
        elif not _is_zero(buf.elem_offset):
            args.append(f"elem_offset={self.expr(buf.elem_offset)}")
        if buf.scope != "global":
            args.append(f"scope={quote(buf.scope)}")
        if buf.data_alignment != buf.dtype.bytes:
            args.append(f"align={buf.data_alignment}")
        if implied_offset:
            args.append("offset_factor=1")
        if buf.axis_separators:
            args.append(f"axis_separators={list(buf.axis_separators)}")
        return ", ".join(args)

    # -- statements -----------------------------------------------------------------------
    def stmt(self, s, indent: int, out: list, last: bool = True) -> None:
        """Print s; last says whether it ends its sequence (binding statements then print
        concisely, their body being the rest of the sequence)."""
        method = find_method(type(self), type(s), "_s_", "tir")
        if method is None:
            raise TypeError(f"TIR printer: no text form for {type(s).__name__}")
        self.last = last
        if underline.active():
            underline.lines(s, lambda: method(self, s, "    " * indent, indent, out), out)
        else:
            method(self, s, "    " * indent, indent, out)

    def emit(self, out: list, pad: str, line: str) -> None:
        """Append line, after the definitions printing it made necessary."""
        out.extend(pad + p for p in self.pending)
        self.pending.clear()
        out.append(pad + line)

    def _s_SeqStmt(self, s, pad, indent, out):
        for i, item in enumerate(s.seq):
            self.stmt(item, indent, out, last=i == len(s.seq) - 1)

    def _s_BufferStore(self, s, pad, indent, out):
        target = f"{self.buffer(s.buffer)}[{self.indices(s.indices)}]"
        self.emit(out, pad, f"{target} = {self.expr(s.value)}")

    def _loop_range(self, s) -> list[str]:
        if _is_zero(s.min):
            return [self.expr(s.extent)]
        return [self.expr(s.min), self.expr(s.min + s.extent)]

    def _s_For(self, s, pad, indent, out):
        loops = [s]
        # Directly nested plain serial loops print as one T.grid, as upstream does.
        while _plain_serial(loops[-1]) and _plain_serial(loops[-1].body):
            inner = loops[-1].body
            if any(contains(inner.extent, lambda n, v=lp.loop_var: n is v) for lp in loops):
                break
            loops.append(inner)
        if len(loops) > 1:
            extents = ", ".join(self.expr(lp.extent) for lp in loops)
            names = ", ".join(self.fresh(lp.loop_var) for lp in loops)
            self.emit(out, pad, f"for {names} in T.grid({extents}):")
        else:
            args = self._loop_range(s)
            if s.kind == S.ForKind.THREAD_BINDING:
                args.append(f"thread={quote(s.thread_binding)}")
            if s.annotations:
                if len(args) == 1 and s.kind != S.ForKind.THREAD_BINDING:
                    args.insert(0, "0")
                args.append(f"annotations={literal(dict(s.annotations), self.expr)}")
            kind = "range" if s.kind == S.ForKind.SERIAL and not s.annotations else None
            kind = kind or _FOR_KINDS[s.kind]
            self.emit(out, pad, f"for {self.fresh(s.loop_var)} in {kind}({', '.join(args)}):")
        for lp in loops:
            self.loops[id(lp.loop_var)] = lp
        self.stmt(loops[-1].body, indent + 1, out)

    def _s_IfThenElse(self, s, pad, indent, out):
        self.emit(out, pad, f"if {self.expr(s.condition)}:")
        self.stmt(s.then_case, indent + 1, out)
        if s.else_case is not None:
            out.append(f"{pad}else:")
            self.stmt(s.else_case, indent + 1, out)

    def _s_While(self, s, pad, indent, out):
        self.emit(out, pad, f"while {self.expr(s.condition)}:")
        self.stmt(s.body, indent + 1, out)

    def scoped(self, out, pad, indent, concise: str, with_form: str, body) -> None:
        """A binding statement: `x = ...` when it lasts to the end of its sequence (as
        upstream's concise form), else `with ... as x:` with its body indented."""
        if self.last:
            self.emit(out, pad, concise)
            self.stmt(body, indent, out)
        else:
            self.emit(out, pad, with_form)
            self.stmt(body, indent + 1, out)

    def _s_LetStmt(self, s, pad, indent, out):
        value = self.expr(s.value)
        name = self.fresh(s.var)
        concise = f"{name}: T.{s.var.dtype} = {value}"
        self.scoped(out, pad, indent, concise, f"with T.LetStmt({value}) as {name}:", s.body)

    def _s_Allocate(self, s, pad, indent, out):
        body = s.body
        if (
            isinstance(body, S.DeclBuffer)
            and body.buffer.data is s.buffer_var
            and body.buffer.dtype == s.dtype
            and len(s.extents) == len(body.buffer.shape)
            and all(a.structural_equal(b) for a, b in zip(s.extents, body.buffer.shape))
        ):
            # An allocation made for one declared buffer is upstream's T.decl_buffer(shape).
            call = f"T.decl_buffer({self.buffer_args(body.buffer, dtype_always=False)})"
            name = self.define_buffer(body.buffer)
            self.scoped(out, pad, indent, f"{name} = {call}", f"with {call} as {name}:", body.body)
            return
        ext = ", ".join(self.expr(x) for x in s.extents)
        name = self.fresh(s.buffer_var)
        call = f'T.allocate([{ext}], {quote(s.dtype)}, "global")'
        self.scoped(out, pad, indent, f"{name} = {call}", f"with {call} as {name}:", s.body)

    def _s_AllocateConst(self, s, pad, indent, out):
        # Up to 201 elements print flat, as upstream prints at most that many; more go to the
        # metadata section (upstream cuts the list there, which does not parse back).
        array = s.data.numpy().reshape(-1)
        if array.size > _ALLOCATE_CONST_INLINE and self.metadata is not None:
            data = self.metadata.add("ffi.Tensor", s.data)
        else:
            values = array.tolist()[:_ALLOCATE_CONST_INLINE]
            text = ", ".join(_float_text(v) if s.dtype.is_float else str(v) for v in values)
            data = f"[{text}]"
        ext = ", ".join(self.expr(x) for x in s.extents)
        call = f"T.allocate_const({data}, {quote(s.dtype)}, [{ext}])"
        name = self.fresh(s.buffer_var)
        self.scoped(out, pad, indent, f"{name} = {call}", f"with {call} as {name}:", s.body)

    def _s_DeclBuffer(self, s, pad, indent, out):
        args = self.buffer_args(s.buffer, data=self.var(s.buffer.data), dtype_always=False)
        name = self.fresh(s.buffer)
        call = f"T.decl_buffer({args})"
        self.scoped(out, pad, indent, f"{name} = {call}", f"with {call} as {name}:", s.body)

    def _s_AssertStmt(self, s, pad, indent, out):
        cond, msg = self.expr(s.condition), quote(s.message)
        concise, with_form = f"assert {cond}, {msg}", f"with T.Assert({cond}, {msg}):"
        self.scoped(out, pad, indent, concise, with_form, s.body)

    def _s_Evaluate(self, s, pad, indent, out):
        text = self.expr(s.value)
        self.emit(out, pad, text if isinstance(s.value, E.Call) else f"T.evaluate({text})")

    def _s_BlockRealize(self, s, pad, indent, out):
        block = s.block
        self.emit(out, pad, f"with T.block({quote(block.name_hint)}):")
        self.block_body(s, indent + 1, out)

    def _s_Block(self, s, pad, indent, out):
        # A block outside any BlockRealize, as upstream prints one: its iterators unbound.
        self.emit(out, pad, f"with T.block({quote(s.name_hint)}, no_realize=True):")
        self.block_body(None, indent + 1, out, block=s)

    def block_body(self, realize, indent, out, block=None):
        pad = "    " * indent
        if realize is not None:
            block = realize.block
            values = [self.expr(v) for v in realize.iter_values]
        else:
            values = [None] * len(block.iter_vars)
        if (
            realize is not None
            and len(block.iter_vars) > 1
            and all(self._remappable(iv, v) for iv, v in zip(block.iter_vars, realize.iter_values))
        ):
            kinds = "".join("R" if iv.is_reduce else "S" for iv in block.iter_vars)
            names = ", ".join(self.fresh(iv.var) for iv in block.iter_vars)
            self.emit(out, pad, f"{names} = T.axis.remap({quote(kinds)}, [{', '.join(values)}])")
        else:
            for iv, value in zip(block.iter_vars, values):
                kind = "T.axis.reduce" if iv.is_reduce else "T.axis.spatial"
                dom = (
                    self.expr(iv.dom.extent)
                    if _is_zero(iv.dom.min)
                    else f"({self.expr(iv.dom.min)}, {self.expr(iv.dom.min + iv.dom.extent)})"
                )
                dtype = "" if iv.var.dtype == "int32" else f", dtype={quote(iv.var.dtype)}"
                bound = "" if value is None else f", {value}"
                self.emit(out, pad, f"{self.fresh(iv.var)} = {kind}({dom}{bound}{dtype})")
        if realize is not None and not (
            isinstance(realize.predicate, E.IntImm) and realize.predicate.value
        ):
            self.emit(out, pad, f"T.where({self.expr(realize.predicate)})")
        for buf in block.alloc_buffers:  # defined first: reads and writes may name them
            self.define_buffer(buf)
        self.emit(out, pad, f"T.reads({', '.join(self.region(r) for r in block.reads)})")
        self.emit(out, pad, f"T.writes({', '.join(self.region(r) for r in block.writes)})")
        if block.annotations:
            self.emit(out, pad, f"T.block_attr({literal(dict(block.annotations), self.expr)})")
        self.alloc_buffers(block.alloc_buffers, pad, out)
        for match in block.match_buffers:
            self.emit(out, pad, self.match_buffer(match))
        if block.init is not None:
            self.emit(out, pad, "with T.init():")
            self.stmt(block.init, indent + 1, out)
        self.stmt(block.body, indent, out)

    def alloc_buffers(self, buffers, pad, out):
        for buf in buffers:
            name = self.defined.get(id(buf)) or self.define_buffer(buf)
            args = self.buffer_args(buf, dtype_always=False)
            self.emit(out, pad, f"{name} = T.alloc_buffer({args})")

    def match_buffer(self, match) -> str:
        source = self.region(match.source)
        name = self.define_buffer(match.buffer)
        args = self.buffer_args(match.buffer, dtype_always=False, name=name)
        return f"{name} = T.match_buffer({source}, {args})"

    def _remappable(self, iv, value) -> bool:
        loop = self.loops.get(id(value)) if isinstance(value, E.Var) else None
        return (
            loop is not None
            and _is_zero(iv.dom.min)
            and _is_zero(loop.min)
            and loop.extent.structural_equal(iv.dom.extent)
        )

    # -- functions ------------------------------------------------------------------------
    def func(self, f: PrimFunc, name: str, in_module: bool = False) -> str:
        params, symbolic, matched = [], set(), []
        for p in f.params:  # scalar parameters first: buffer shapes may use them
            if p not in f.buffer_map:
                self.fresh(p)
        for p in f.params:
            buf = f.buffer_map.get(p)
            if buf is None:
                params.append(f"{self.var(p)}: T.{p.dtype}")
            elif buf.strides or not _is_zero(buf.elem_offset):
                params.append(f"{self.fresh(p)}: T.handle")
                matched.append((p, buf))
            else:
                args = self.buffer_args(buf, symbolic=symbolic)
                params.append(f"{self.define_buffer(buf)}: T.Buffer({args})")
        attrs = dict(f.attrs)
        symbol = attrs.get("global_symbol")
        if symbol == name and next(iter(attrs)) == "global_symbol":
            del attrs["global_symbol"]
        decorator = "@T.prim_func" if symbol is not None else "@T.prim_func(private=True)"
        ret = f" -> T.{f.ret_type}" if f.ret_type is not None else ""
        out = [decorator, f"def {name}({', '.join(params)}){ret}:"]
        body_out: list[str] = []
        for p, buf in matched:
            args = self.buffer_args(buf, dtype_always=False)
            handle = self.var(p)
            self.emit(
                body_out, "    ", f"{self.define_buffer(buf)} = T.match_buffer({handle}, {args})"
            )
        decls = [f"    {self.var(v)} = T.{v.dtype}()" for v in self.keep if id(v) in symbolic]
        if attrs:
            decls.append(f"    T.func_attr({literal(attrs, self.expr)})")
        body = f.body
        self.hoisted = []
        if _implicit_root(body):
            for buf in body.block.alloc_buffers:
                self.define_buffer(buf)
            body_out.append('    # with T.block("root"):')
            self.alloc_buffers(body.block.alloc_buffers, "    ", body_out)
            body = body.block.body
        self.stmt(body, 1, body_out)
        decls += ["    " + line for line in self.hoisted]
        return "\n".join(out + decls + body_out)


def _plain_serial(s) -> bool:
    return (
        isinstance(s, S.For)
        and s.kind == S.ForKind.SERIAL
        and _is_zero(s.min)
        and not s.annotations
    )


def _implicit_root(body) -> bool:
    return (
        isinstance(body, S.BlockRealize)
        and body.block.name_hint == "root"
        and not body.block.iter_vars
        and not body.block.reads
        and not body.block.writes
        and not body.block.annotations
        and body.block.init is None
        and isinstance(body.predicate, E.IntImm)
        and body.predicate.value
    )


def _print(
    node, name=None, names: NameTable | None = None, in_module=False, metadata=None, **_ignored
):
    """The text of a TIR node; `names` shares the naming context of an enclosing printout,
    `metadata` its metadata section."""
    printer = _Printer(names)
    printer.metadata = metadata
    if isinstance(node, PrimFunc):
        return printer.func(node, name or node.attrs.get("global_symbol", "main"), in_module)
    if isinstance(node, E.PrimExpr):
        text = printer.expr(node)
        # Its free variables' definitions are shown with verbose_expr only, as upstream.
        defs = printer.pending if option("verbose_expr", False) else []
        return "\n".join([*defs, text])
    if isinstance(node, S.Stmt):
        out: list[str] = []
        printer.stmt(node, 0, out)
        return "\n".join(out)
    if isinstance(node, Buffer):
        return f"{_identifier(node.name)}: T.Buffer({printer.buffer_args(node)})"
    if isinstance(node, S.BufferRegion):
        return printer.region(node)
    if isinstance(node, S.MatchBufferRegion):
        line = printer.match_buffer(node)
        return "\n".join([*printer.pending, line])
    if isinstance(node, E.Range):
        return f"T.Range({printer.expr(node.min)}, {printer.expr(node.min + node.extent)})"
    if isinstance(node, S.IterVar):
        return f"T.iter_var({printer.var(node.var)}, {_print(node.dom, names=printer.names)})"
    fields = ", ".join(f"{n}={getattr(node, n)!r}" for n in node._fields)
    return f"{type(node).__name__}({fields})"


def _is_tir(node) -> bool:
    return node._type_key.startswith("tir.") or isinstance(node, E.Range)


register_printer(_is_tir, _print, dialect=("tir", "T"))
