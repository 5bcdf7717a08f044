"""The TVMScript parser: walks a Python AST, evaluating expressions and driving IR builders."""

from __future__ import annotations

import builtins
import contextlib

from tvm.error import DiagnosticError

from .diagnostics import Source
from .evaluator import ExprEvaluator

_MISSING = object()


class Parser:
    """Scopes of names (innermost last) over the program's globals; dialects add statements."""

    def __init__(self, source: Source, globals_: dict):
        self.source = source
        self.globals = globals_
        self.scopes: list[dict] = [{}]
        self.evaluator = ExprEvaluator(self)

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
        """(statement, name, dtype) for each `n = T.int64()` among body's statements: the
        declarations of the symbolic variables a signature names as strings ("n")."""
        import ast

        for stmt in body:
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Call)
                and not stmt.value.args
                and not stmt.value.keywords
            ):
                try:
                    maker = self.eval(stmt.value.func)
                except DiagnosticError:
                    continue
                dtype = getattr(maker, "dtype", None)
                if isinstance(dtype, str) and dtype not in excluded:
                    yield stmt, stmt.targets[0].id, dtype

    def eval(self, node):
        return self.evaluator.eval(node)

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
