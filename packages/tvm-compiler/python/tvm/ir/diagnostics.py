"""tvm.ir.diagnostics: messages about spans of a user's program, gathered and rendered together."""

from __future__ import annotations

import enum
import sys

from tvm.error import DiagnosticError

from .span import Span

# What render() raises when a renderer set by override_renderer has shown the diagnostics
# itself (upstream's message).
_RENDERED_ELSEWHERE = (
    "DiagnosticError: one or more error diagnostics were emitted, please check diagnostic "
    "render for output."
)


class DiagnosticLevel(enum.IntEnum):
    """How serious a diagnostic is; BUG and ERROR make DiagnosticContext.render fail."""

    BUG = 10
    ERROR = 20
    WARNING = 30
    NOTE = 40
    HELP = 50


class Diagnostic:
    """One message about one span of the source."""

    def __init__(self, level, span, message: str):
        try:
            level = DiagnosticLevel(level)
        except ValueError:
            raise ValueError(
                f"Diagnostic: argument 'level' must be a DiagnosticLevel, got {level!r}"
            ) from None
        if span is not None and not isinstance(span, Span):
            raise TypeError(
                f"Diagnostic: argument 'span' must be a tvm.ir.Span or None, got "
                f"{type(span).__name__}"
            )
        if not isinstance(message, str):
            raise TypeError(
                f"Diagnostic: argument 'message' must be a str, got {type(message).__name__}"
            )
        self.level, self.span, self.message = level, span, message

    def __repr__(self):
        return f"Diagnostic({self.level.name}, {self.span!r}, {self.message!r})"


class SourceMap:
    """The text of each source a span can name: source name -> {file line number: line}."""

    def __init__(self, sources: dict | None = None):
        self._lines: dict[str, dict[int, str]] = {}
        for name, text in dict(sources or {}).items():
            self.add(name, text)

    def add(self, name: str, text: str, first_line: int = 1, indent: int = 0) -> None:
        """Register text as lines first_line, first_line + 1, ... of the source `name`
        (indent: columns the text lost to dedenting, put back when a line is shown)."""
        if not isinstance(name, str) or not isinstance(text, str):
            raise TypeError("SourceMap.add: 'name' and 'text' must be str")
        lines = self._lines.setdefault(name, {})
        for i, line in enumerate(text.splitlines()):
            lines[first_line + i] = " " * indent + line

    def update(self, other: SourceMap) -> None:
        """Add every line other knows."""
        for name, lines in other._lines.items():
            self._lines.setdefault(name, {}).update(lines)

    def line(self, name: str, number: int) -> str:
        """Line `number` (from 1) of the source `name`; '' when it is not known."""
        return self._lines.get(name, {}).get(number, "")

    def __contains__(self, name) -> bool:
        return name in self._lines


class DiagnosticContext:
    """The diagnostics emitted while processing one program, rendered together by render()."""

    def __init__(self, module=None, renderer: DiagnosticRenderer | None = None, source_map=None):
        if renderer is not None and not isinstance(renderer, DiagnosticRenderer):
            raise TypeError(
                "DiagnosticContext: argument 'renderer' must be a DiagnosticRenderer, got "
                f"{type(renderer).__name__}"
            )
        self.module = module
        self.renderer = renderer if renderer is not None else get_renderer()
        self.source_map = source_map if source_map is not None else SourceMap()
        self.diagnostics: list[Diagnostic] = []

    def emit(self, diagnostic: Diagnostic) -> None:
        if not isinstance(diagnostic, Diagnostic):
            raise TypeError(
                "DiagnosticContext.emit: argument 'diagnostic' must be a Diagnostic, got "
                f"{type(diagnostic).__name__}"
            )
        self.diagnostics.append(diagnostic)

    def render(self) -> None:
        """Render every diagnostic; raise DiagnosticError when one is an error (or a bug).
        Without an error, the default renderer's text (warnings, notes) goes to stderr, as
        upstream's terminal renderer writes it; the rendered diagnostics are then cleared."""
        err = self.error(_show=True)
        self.diagnostics = []
        if err is not None:
            raise err

    def error(self, _show: bool = False) -> DiagnosticError | None:
        """The DiagnosticError render() raises (None when nothing is an error): its message
        is the rendered text, or upstream's pointer to the output of a custom renderer."""
        text = self.renderer.render(self)
        errors = [d for d in self.diagnostics if d.level <= DiagnosticLevel.ERROR]
        if not errors:
            if _show and isinstance(text, str) and text:
                print(text, file=sys.stderr)
            return None
        err = DiagnosticError(text if isinstance(text, str) else _RENDERED_ELSEWHERE)
        err.diagnostics = list(self.diagnostics)
        err.span = errors[0].span
        return err


class DiagnosticRenderer:
    """Shows a context's diagnostics: render_func(ctx) is called by render(ctx); the default
    one returns them as text (`error: message`, ` --> file:line:col`, the line, carets)."""

    def __init__(self, render_func=None):
        if render_func is not None and not callable(render_func):
            raise TypeError(
                "DiagnosticRenderer: argument 'render_func' must be callable, got "
                f"{type(render_func).__name__}"
            )
        self.render_func = render_func if render_func is not None else render_text

    def render(self, ctx: DiagnosticContext):
        return self.render_func(ctx)


def render_text(ctx: DiagnosticContext) -> str:
    """The default render_func: every diagnostic of ctx in emission order, as text."""
    return render_all(ctx.diagnostics, ctx.source_map)


def render_all(diagnostics, source_map: SourceMap) -> str:
    """diagnostics as text, a blank line between two."""
    return "\n\n".join(render_one(d, source_map) for d in diagnostics)


def render_one(diagnostic: Diagnostic, source_map: SourceMap) -> str:
    head = f"{diagnostic.level.name.lower()}: {diagnostic.message}"
    span = diagnostic.span
    if span is None:
        return head
    text = source_map.line(span.source_name.name, span.line)
    width = len(str(span.line))
    stop = span.end_column if span.end_line == span.line else len(text) + 1
    carets = "^" * max(1, stop - span.column)
    gutter = " " * (width + 1)
    return (
        f"{head}\n"
        f"{gutter[:-1]}--> {span.source_name.name}:{span.line}:{span.column}\n"
        f"{gutter} |\n"
        f" {span.line} | {text}\n"
        f"{gutter} | {' ' * (span.column - 1)}{carets}"
    )


_DEFAULT = DiagnosticRenderer()
_override: list = []  # the renderer override_renderer set, if any


def get_renderer() -> DiagnosticRenderer:
    """The renderer new contexts use: the one override_renderer set, else the text renderer."""
    return _override[-1] if _override else _DEFAULT


def override_renderer(render_func) -> None:
    """Render diagnostics with render_func(ctx) from now on; None goes back to the default."""
    if render_func is not None and not callable(render_func):
        raise TypeError(
            "override_renderer: argument 'render_func' must be callable or None, got "
            f"{type(render_func).__name__}"
        )
    _override.clear()
    if render_func is not None:
        _override.append(DiagnosticRenderer(render_func))


__all__ = [
    "Diagnostic",
    "DiagnosticContext",
    "DiagnosticLevel",
    "DiagnosticRenderer",
    "SourceMap",
    "get_renderer",
    "override_renderer",
]
