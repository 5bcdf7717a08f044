"""Evaluate the expressions of a TVMScript program: Python semantics on IR values."""

from __future__ import annotations

import ast
import builtins
import operator

from tvm.error import DiagnosticError
from tvm.tir import expr as E
from tvm.tir.buffer import Buffer
from tvm.tir.stmt import BufferRegion

from .diagnostics import Cascade

_BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_,
    ast.BitXor: operator.xor,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
}
_COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
_UNSUPPORTED = {
    ast.Lambda: "a lambda",
    ast.ListComp: "a list comprehension",
    ast.DictComp: "a dict comprehension",
    ast.SetComp: "a set comprehension",
    ast.GeneratorExp: "a generator expression",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield from",
    ast.NamedExpr: "an assignment expression (:=)",
    ast.JoinedStr: "an f-string",
    ast.Starred: "a starred expression here",
}


def did_you_mean(word: str, candidates) -> str:
    """'; did you mean X?' for the closest candidate to a misspelt word, or ''."""
    import difflib

    close = difflib.get_close_matches(word, list(candidates), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def _is_prim(value) -> bool:
    return isinstance(value, E.PrimExpr)


def _with_span(value, span, operands=()):
    """value, carrying span if it is a node just made here (variables and shared nodes keep
    their own)."""
    if (
        isinstance(value, E.PrimExpr)  # not buffers: builder frames hold those by identity
        and value.__dict__.get("span", 0) is None
        and not type(value)._is_var
        and all(value is not o for o in operands)
    ):
        return value.with_fields(span=span)
    return value


class ExprEvaluator:
    """Evaluates expression nodes against the parser's variable scopes and globals."""

    def __init__(self, parser):
        self.parser = parser

    def error(self, node, message) -> DiagnosticError:
        return self.parser.source.error(node, message)

    def eval(self, node):
        method = getattr(self, f"_{type(node).__name__}", None)
        if method is None:
            what = _UNSUPPORTED.get(type(node), f"the expression {type(node).__name__}")
            raise self.error(node, f"{what} is not supported in TVMScript")
        return self.parser.source.run(node, method)

    def _lambda_arg(self, node):
        """A lambda passed to a call (T.index_map(lambda i, j: ...)): a function of positional
        parameters whose body is evaluated here when called. Elsewhere a lambda is refused."""
        import inspect

        a = node.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.posonlyargs:
            raise self.error(node, "a lambda takes only plain positional parameters in TVMScript")
        names = [p.arg for p in a.args]

        def call(*values):
            if len(values) != len(names):
                raise TypeError(f"the lambda takes {len(names)} arguments, got {len(values)}")
            with self.parser.scope(dict(zip(names, values))):
                return self.eval(node.body)

        kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
        call.__signature__ = inspect.Signature([inspect.Parameter(n, kind) for n in names])
        return call

    def _Constant(self, node):
        return node.value

    def _Name(self, node):
        from .parser import POISONED

        found, value = self.parser.lookup(node.id)
        if not found:
            known = [n for scope in self.parser.scopes for n in scope] + list(self.parser.globals)
            hint = did_you_mean(node.id, known)
            raise self.error(node, f"name {node.id!r} is not defined{hint}")
        if value is POISONED:
            raise Cascade(f"{node.id!r} is undefined: the statement defining it failed")
        return value

    def _Attribute(self, node):
        base = self.eval(node.value)
        try:
            return getattr(base, node.attr)
        except AttributeError:
            owner = ast.unparse(node.value)
            hint = did_you_mean(node.attr, [n for n in dir(base) if not n.startswith("_")])
            raise self.error(node, f"{owner} has no attribute {node.attr!r}{hint}") from None

    def _Tuple(self, node):
        return tuple(self._elements(node.elts))

    def _List(self, node):
        return list(self._elements(node.elts))

    def call_arg(self, node):
        """One argument of a call: a lambda is allowed here."""
        return self._lambda_arg(node) if isinstance(node, ast.Lambda) else self.eval(node)

    def call_args(self, nodes) -> list:
        out = []
        for node in nodes:
            if isinstance(node, ast.Starred):
                out.extend(self.eval(node.value))
            else:
                out.append(self.call_arg(node))
        return out

    def _elements(self, elts):
        out = []
        for e in elts:
            if isinstance(e, ast.Starred):
                out.extend(self.eval(e.value))
            else:
                out.append(self.eval(e))
        return out

    def _Dict(self, node):
        if any(k is None for k in node.keys):
            raise self.error(node, "**-unpacking in a dict is not supported in TVMScript")
        return {self.eval(k): self.eval(v) for k, v in zip(node.keys, node.values)}

    def _Slice(self, node):
        parts = [None if p is None else self.eval(p) for p in (node.lower, node.upper, node.step)]
        return slice(*parts)

    def _Call(self, node):
        func = self.eval(node.func)
        if getattr(func, "__name__", None) == "Let" and getattr(func, "_tvmscript_let", False):
            return self._let(node)
        args = self.call_args(node.args)
        kwargs = {}
        for kw in node.keywords:
            if kw.arg is None:
                raise self.error(kw, "**kwargs is not supported in TVMScript")
            kwargs[kw.arg] = self.call_arg(kw.value)
        if not callable(func):
            raise self.error(node.func, f"{type(func).__name__} object is not callable")
        try:
            result = self.parser.call(func, args, kwargs)
        except DiagnosticError:
            raise
        except Exception as err:  # noqa: BLE001
            name = ast.unparse(node.func)
            message = str(err)
            if not message.startswith(name):
                message = f"{name}: {message}"
            raise self.error(node, message) from None
        return _with_span(result, self.parser.source.span(node), args)

    def _let(self, node):
        # T.Let(body, where={x: value}): x is a new variable, bound while body is evaluated.
        where = next((kw.value for kw in node.keywords if kw.arg == "where"), None)
        if not isinstance(where, ast.Dict) or len(where.keys) != 1 or len(node.args) != 1:
            raise self.error(node, "T.Let: expected T.Let(body, where={var: value})")
        key = where.keys[0]
        if not isinstance(key, ast.Name):
            raise self.error(key, "T.Let: the variable in where= must be a name")
        value = E.convert(self.eval(where.values[0]))
        var = E.Var(key.id, value.dtype)
        with self.parser.scope({key.id: var}):
            body = self.eval(node.args[0])
        return E.Let(var, value, body, span=self.parser.source.span(node))

    def _BinOp(self, node):
        a, b = self.eval(node.left), self.eval(node.right)
        op = _BINARY.get(type(node.op))
        if op is None:
            raise self.error(node, f"the operator {type(node.op).__name__} is not supported")
        return _with_span(op(a, b), self.parser.source.span(node), (a, b))

    def _UnaryOp(self, node):
        a = self.eval(node.operand)
        if isinstance(node.op, ast.Not):
            result = E.Not(a) if _is_prim(a) else not a
        elif isinstance(node.op, ast.USub):
            result = -a
        elif isinstance(node.op, ast.UAdd):
            result = +a if not _is_prim(a) else a
        else:
            result = ~a
        return _with_span(result, self.parser.source.span(node), (a,))

    def _BoolOp(self, node):
        values = [self.eval(v) for v in node.values]
        if not any(_is_prim(v) for v in values):
            result = values[0]
            for v in values[1:]:
                result = (result and v) if isinstance(node.op, ast.And) else (result or v)
            return result
        cls = E.And if isinstance(node.op, ast.And) else E.Or
        result = E.convert(values[0])
        for v in values[1:]:
            result = cls(result, v)
        return _with_span(result, self.parser.source.span(node))

    def _Compare(self, node):
        left = self.eval(node.left)
        terms = []
        for op, comparator in zip(node.ops, node.comparators):
            right = self.eval(comparator)
            terms.append(_COMPARE[type(op)](left, right))
            left = right
        result = terms[0]
        for t in terms[1:]:
            result = E.And(result, t) if _is_prim(result) or _is_prim(t) else (result and t)
        return _with_span(result, self.parser.source.span(node))

    def _IfExp(self, node):
        cond = self.eval(node.test)
        if _is_prim(cond):
            return E.Select(cond, self.eval(node.body), self.eval(node.orelse))
        return self.eval(node.body) if cond else self.eval(node.orelse)

    def _Subscript(self, node):
        value = self.eval(node.value)
        if isinstance(value, Buffer):
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            indices = [self.eval(i) for i in items]
            if any(isinstance(i, slice) for i in indices):
                ramps = [ramp_of(i) if isinstance(i, slice) else i for i in indices]
                if any(r is None for r in ramps):
                    return buffer_region(value, indices)
                # A[i:i + 4] with constant lengths: a vector load (T.reads takes it as region).
                return E.BufferLoad(value, ramps, span=self.parser.source.span(node))
            return E.BufferLoad(value, indices, span=self.parser.source.span(node))
        return value[self.eval(node.slice)]


def ramp_of(index: slice):
    """The Ramp a constant-length slice stands for, or None."""
    from tvm.script.ir_builder.tir.ir import _simplify

    if index.start is None or index.stop is None:
        return None
    lo = E.convert(index.start)
    lanes = _simplify(E.convert(index.stop) - lo)
    if not isinstance(lanes, E.IntImm) or lanes.value < 2:
        return None
    return E.Ramp(lo, 1 if index.step is None else index.step, lanes.value)


def buffer_region(buffer, indices) -> BufferRegion:
    """A[1:4, i]: the region of buffer those slices and indices cover."""
    from tvm.script.ir_builder.tir.ir import _simplify

    ranges = []
    for dim, index in zip(buffer.shape, indices):
        if isinstance(index, slice):
            if index.step not in (None, 1):
                raise ValueError("a buffer region's slices must have step 1")
            lo = E.convert(0 if index.start is None else index.start)
            hi = dim if index.stop is None else E.convert(index.stop)
            ranges.append(E.Range.from_min_extent(lo, _simplify(hi - lo)))
        else:
            ranges.append(E.Range.from_min_extent(index, 1))
    return BufferRegion(buffer, ranges)


BUILTINS = builtins
