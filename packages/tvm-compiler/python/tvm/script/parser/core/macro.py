"""T.macro / R.macro: a Python function whose TVMScript body is pasted where it is called."""

from __future__ import annotations

import ast
import inspect

from .diagnostics import Source
from .entry import caller_vars


class ScriptMacro:
    """What `@T.macro` / `@R.macro` make. Called inside a TVMScript function, the parser
    parses the macro's body there with its parameters bound to the call's arguments; a
    `return <expr>` ending the body gives the call's value.

    hygienic=True (upstream's default): the body's other names mean what they meant where
    the macro was defined. hygienic=False: the call site's names come first."""

    def __init__(self, func, hygienic: bool, dialect: str, definition_vars: dict):
        self.func = func
        self.hygienic = hygienic
        self.dialect = dialect
        self.signature = inspect.signature(func)
        self.source = Source.from_object(func)
        tree = self.source.parse()
        self.node = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
        self.definition_vars = {**definition_vars, **func.__globals__}
        self.definition_vars.update(inspect.getclosurevars(func).nonlocals)
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__

    def bind(self, args, kwargs) -> dict:
        """The macro's parameters bound to a call's arguments (TypeError naming the macro)."""
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as err:
            where = f"{self.dialect}.macro {self.__name__}{self.signature}"
            raise TypeError(f"{self.__name__}: {err} ({where})") from None
        bound.apply_defaults()
        return dict(bound.arguments)

    def __call__(self, *args, **kwargs):
        raise TypeError(
            f"{self.dialect}.macro {self.__name__!r} is called outside a TVMScript function: "
            "a macro's body is TVMScript and only a function being parsed can expand it"
        )


def macro_decorator(dialect: str):
    """The `T.macro` / `R.macro` decorator: `@T.macro` or `@T.macro(hygienic=False)`."""

    def make(f, hygienic: bool, depth: int):
        if not inspect.isfunction(f):
            raise TypeError(f"{dialect}.macro: expected a Python function, got {type(f)}")
        return ScriptMacro(f, hygienic, dialect, caller_vars(depth))

    def macro(func=None, *, hygienic: bool = True):
        if func is None:  # @T.macro(hygienic=...): the decorator is applied by the caller
            return lambda f: make(f, hygienic, 3)
        return make(func, hygienic, 3)

    macro.__doc__ = f"Define a {dialect}.macro: its body is expanded at every call."
    return macro
