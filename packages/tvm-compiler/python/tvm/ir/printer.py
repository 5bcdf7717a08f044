"""Text form of IR nodes: each IR family registers a printer for its node types."""

from __future__ import annotations

_PRINTERS: list = []


def register_printer(predicate, printer) -> None:
    """Use printer(node, **options) -> str for nodes where predicate(node) is true."""
    _PRINTERS.append((predicate, printer))


def has_printer(node) -> bool:
    """Whether an IR family registered a printer for node."""
    return any(predicate(node) for predicate, _ in _PRINTERS)


def node_to_str(node, **options) -> str:
    """The text of node; options (such as name= for a function) go to its printer."""
    for predicate, printer in reversed(_PRINTERS):
        if predicate(node):
            return printer(node, **options)
    fields = ", ".join(f"{name}={getattr(node, name)!r}" for name in node._fields)
    return f"{type(node).__name__}({fields})"


def show_text(text: str, black_format: bool = False) -> None:
    """Print text (an IR's script) to stdout, formatted by `black` when asked and installed."""
    if black_format:
        try:
            import black
        except ImportError:
            pass  # black is optional: plain text is still the same program
        else:
            text = black.format_str(text, mode=black.FileMode())
    print(text)
