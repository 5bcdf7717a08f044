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

    def render(self, node, message: str) -> str:
        """upstream's form: `error: msg`, ` --> file:line:col`, the line and a caret range."""
        span = self.span(node)
        index = node.lineno - 1
        text = (" " * self.indent + self.lines[index]) if 0 <= index < len(self.lines) else ""
        width = len(str(span.line))
        stop = span.end_column if span.end_line == span.line else len(text) + 1
        carets = "^" * max(1, stop - span.column)
        gutter = " " * (width + 1)
        return (
            f"error: {message}\n"
            f"{gutter[:-1]}--> {span.source_name.name}:{span.line}:{span.column}\n"
            f"{gutter} |\n"
            f" {span.line} | {text}\n"
            f"{gutter} | {' ' * (span.column - 1)}{carets}"
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
        err = DiagnosticError(self.render(node, message))
        err.span = self.span(node)
        return err
