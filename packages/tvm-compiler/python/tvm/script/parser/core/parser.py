"""The TVMScript parser: walks a Python AST, evaluating expressions and driving IR builders."""

from __future__ import annotations

import builtins
import contextlib

from tvm.error import DiagnosticError

from .diagnostics import Cascade, Source, combined
from .evaluator import ExprEvaluator

_MISSING = object()


class Poisoned:
    """The value of a name that a failed statement would have defined: a statement using it
    is skipped (a Cascade), so one mistake gives one diagnostic."""

    def __repr__(self):
        return "<undefined: an earlier statement failed>"


POISONED = Poisoned()


class Parser:
    """Scopes of names (innermost last) over the program's globals; dialects add statements."""

    def __init__(self, source: Source, globals_: dict):
        self.source = source
        self.globals = globals_
        self.scopes: list[dict] = [{}]
        self.evaluator = ExprEvaluator(self)
        self.errors: list[DiagnosticError] = []  # of statements skipped so far (see recover)

    def lookup(self, name: str):
        for scope in reversed(self.scopes):
            if name in scope:
                return True, scope[name]
        value = self.globals.get(name, _MISSING)
        if value is _MISSING:
            value = getattr(builtins, name, _MISSING)
            if value is builtins.range:
                from tvm.script.ir_builder.tir import ir as T

                value = T.serial  # `for i in range(n)` is a serial loop
        return value is not _MISSING, value

    def bind(self, name: str, value) -> None:
        self.scopes[-1][name] = value

    @contextlib.contextmanager
    def scope(self, names: dict | None = None):
        self.scopes.append(dict(names or {}))
        try:
            yield
        finally:
            self.scopes.pop()

    def declared_symbols(self, body, excluded=("handle",)):
        """(statement, name, dtype) for each `n = T.int64()` (or `n, m = T.int64(), T.int64()`)
        among body's statements: the declarations of the symbolic variables a signature names
        as strings ("n")."""
        import ast

        for stmt in body:
            if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
                continue
            target, value = stmt.targets[0], stmt.value
            if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
                pairs = list(zip(target.elts, value.elts))
                if len(target.elts) != len(value.elts):
                    continue
            else:
                pairs = [(target, value)]
            found = [self._symbol_declaration(t, v, excluded) for t, v in pairs]
            if found and all(f is not None for f in found):
                for name, dtype in found:
                    yield stmt, name, dtype

    def _symbol_declaration(self, target, value, excluded):
        """(name, dtype) when `target = value` reads `n = T.int64()`, else None."""
        import ast

        if not (
            isinstance(target, ast.Name)
            and isinstance(value, ast.Call)
            and not value.args
            and not value.keywords
        ):
            return None
        try:
            maker = self.eval(value.func)
        except DiagnosticError:
            return None
        dtype = getattr(maker, "dtype", None)
        if isinstance(dtype, str) and dtype not in excluded:
            return target.id, dtype
        return None

    def eval(self, node):
        return self.evaluator.eval(node)

    # -- going on after an error ----------------------------------------------------------
    def recover(self, stmt, err: DiagnosticError) -> None:
        """After statement stmt failed with err: record err (unless it follows from an
        earlier error) and poison the names stmt defines, so that parsing goes on with the
        next statement and independent mistakes are reported together."""
        import ast

        if getattr(err, "complete", None) is self:
            raise err  # already every error there is (parsing could not go on below)
        where = self.source.span(stmt)
        follows = isinstance(err, Cascade) or any(
            _inside(getattr(e, "span", None), where) for e in self.errors
        )
        if not follows:
            self.errors.append(err)
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                self.bind(node.id, POISONED)
            elif isinstance(node, ast.FunctionDef) and node is stmt:
                self.bind(node.name, POISONED)

    def stop(self, err: DiagnosticError | None = None) -> DiagnosticError:
        """The error to raise when parsing cannot go on: every recorded error, or err when
        none was recorded (what fails after an error has been recorded follows from it)."""
        if not self.errors:
            return err
        if err is not None and getattr(err, "complete", None) is self:
            return err
        final = combined(self.errors)
        final.complete = self  # a local function's parser reports its own errors so
        return final

    def call(self, func, args, kwargs):
        """func(*args, **kwargs) for a call in the program; a macro expands here."""
        from .macro import ScriptMacro

        if isinstance(func, ScriptMacro):
            return self.expand_macro(func, args, kwargs)
        return func(*args, **kwargs)

    def expand_macro(self, macro, args, kwargs):
        """Parse macro's body at this point, its parameters bound to the arguments; the value
        of a `return <expr>` ending the body, else None."""
        import ast

        names = macro.bind(args, kwargs)
        body = list(macro.node.body)
        tail = body.pop() if body and isinstance(body[-1], ast.Return) else None
        if macro.hygienic:  # the body's free names mean what they meant at its definition
            scopes, globals_ = [names], macro.definition_vars
        else:
            scopes, globals_ = [*self.scopes, names], {**macro.definition_vars, **self.globals}
        saved = self.source, self.scopes, self.globals
        self.source, self.scopes, self.globals = macro.source, scopes, globals_
        try:
            self.visit_body(body)
            return None if tail is None or tail.value is None else self.eval(tail.value)
        finally:
            self.source, self.scopes, self.globals = saved

    def error(self, node, message: str) -> DiagnosticError:
        return self.source.error(node, message)


def _inside(span, outer) -> bool:
    """Whether span lies within outer (both tvm.ir.Span, same source)."""
    if span is None or outer is None or span.source_name is not outer.source_name:
        return False
    return (outer.line, outer.column) <= (span.line, span.column) and (
        span.end_line,
        span.end_column,
    ) <= (outer.end_line, outer.end_column)
