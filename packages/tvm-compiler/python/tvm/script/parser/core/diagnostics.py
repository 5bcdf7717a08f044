"""Source text of a parsed program and the rendered diagnostics that point into it."""

from __future__ import annotations

import ast
import inspect
import textwrap

from tvm.error import DiagnosticError
from tvm.ir.span import SourceName, Span


class Source:
    """The text being parsed, its file name, and where it sits in that file."""

    def __init__(self, text: str, source_name: str = "<string>", start_line: int = 1, indent=0):
        self.text = text
        self.source_name = source_name
        self.start_line = start_line  # file line of the text's first line
        self.indent = indent  # columns removed by dedenting
        self.lines = text.splitlines()
        self._name_node = SourceName(source_name)
        self._map = None

    @staticmethod
    def from_object(obj) -> Source:
        lines, start = inspect.getsourcelines(obj)
        text = "".join(lines)
        dedented = textwrap.dedent(text)
        indent = len(lines[0]) - len(lines[0].lstrip()) if lines else 0
        try:
            name = inspect.getsourcefile(obj) or "<string>"
        except TypeError:
            name = "<string>"
        return Source(dedented, name, start, indent)

    def parse(self) -> ast.Module:
        try:
            return ast.parse(self.text)
        except SyntaxError as err:  # IndentationError included
            line = err.lineno or 1
            col = err.offset or 1
            fake = ast.Pass(lineno=line, col_offset=col - 1, end_lineno=line, end_col_offset=col)
            raise self.error(fake, err.msg) from None

    def span(self, node) -> Span:
        line = self.start_line + node.lineno - 1
        end_line = self.start_line + (getattr(node, "end_lineno", None) or node.lineno) - 1
        col = node.col_offset + self.indent + 1
        end = getattr(node, "end_col_offset", None)
        end_col = (end if end is not None else node.col_offset) + self.indent + 1
        if end_line == line and end_col < col:
            end_col = col
        # Built directly: these fields are valid by construction, and a parse makes thousands.
        span = object.__new__(Span)
        span._set(
            source_name=self._name_node,
            line=line,
            column=col,
            end_line=end_line,
            end_column=end_col,
        )
        return span

    def source_map(self):
        """A tvm.ir.diagnostics.SourceMap holding this text at its place in its file."""
        from tvm.ir.diagnostics import SourceMap

        if self._map is None:
            self._map = SourceMap()
            self._map.add(self.source_name, self.text, self.start_line, self.indent)
        return self._map

    def render(self, node, message: str) -> str:
        """upstream's form: `error: msg`, ` --> file:line:col`, the line and a caret range."""
        from tvm.ir.diagnostics import Diagnostic, DiagnosticLevel, render_one

        return render_one(
            Diagnostic(DiagnosticLevel.ERROR, self.span(node), message), self.source_map()
        )

    def run(self, node, method):
        """method(node), any failure in it reported as a diagnostic at node."""
        try:
            return method(node)
        except DiagnosticError:
            raise
        except Exception as err:  # noqa: BLE001  (any failure becomes a diagnostic here)
            raise self.error(node, f"{type(err).__name__}: {err}") from None

    def error(self, node, message: str) -> DiagnosticError:
        """The DiagnosticError for message at node, rendered as text (the renderer set by
        tvm.ir.diagnostics.override_renderer is applied once, as the parse fails)."""
        from tvm.ir.diagnostics import Diagnostic, DiagnosticLevel, render_one

        diagnostic = Diagnostic(DiagnosticLevel.ERROR, self.span(node), message)
        err = DiagnosticError(render_one(diagnostic, self.source_map()))
        err.span = diagnostic.span
        err.diagnostics = [diagnostic]
        err.source_map = self.source_map()
        return err


class Cascade(DiagnosticError):
    """A statement used a name that an earlier failed statement would have defined: it is
    skipped without a diagnostic of its own (the earlier one says what is wrong)."""


def combined(errors: list) -> DiagnosticError:
    """One DiagnosticError reporting every error of errors, in order."""
    if len(errors) == 1:
        return errors[0]
    from tvm.ir.diagnostics import SourceMap

    source_map = SourceMap()
    diagnostics = []
    for err in errors:
        diagnostics += getattr(err, "diagnostics", [])
        if getattr(err, "source_map", None) is not None:
            source_map.update(err.source_map)
    # Each error's own text: the default renderer's, a blank line between two.
    err = DiagnosticError("\n\n".join(str(e) for e in errors))
    err.span = errors[0].span
    err.diagnostics = diagnostics
    err.source_map = source_map
    return err


def through_renderer(parse):
    """parse(...), a DiagnosticError it raises shown by tvm.ir.diagnostics' current renderer
    (the default renderer's text is the error's own message)."""
    import functools

    @functools.wraps(parse)
    def wrapper(*args, **kwargs):
        from tvm.ir import diagnostics as D

        try:
            return parse(*args, **kwargs)
        except DiagnosticError as err:
            if D.get_renderer() is D._DEFAULT or not getattr(err, "diagnostics", None):
                raise
            ctx = D.DiagnosticContext(None, D.get_renderer(), err.source_map)
            for diagnostic in err.diagnostics:
                ctx.emit(diagnostic)
            rendered = ctx.error()
            if rendered is None:
                raise
            raise rendered from None

    return wrapper
