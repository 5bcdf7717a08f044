"""Source locations: SourceName and Span, carried by nodes so diagnostics can point at source."""

from __future__ import annotations

from .node import Node

_SOURCE_NAMES: dict[str, SourceName] = {}


class SourceName(Node):
    """The name of a source (a file name or "<string>"); one object per name."""

    _fields = ("name",)
    _compare_by = "name"

    def __new__(cls, name: str):
        if not isinstance(name, str):
            raise TypeError(f"SourceName: name must be a str, got {type(name).__name__}")
        existing = _SOURCE_NAMES.get(name)
        if existing is not None:
            return existing
        node = object.__new__(cls)
        node._set(name=name)
        _SOURCE_NAMES[name] = node
        return node

    def __init__(self, name: str):
        pass

    def __repr__(self):
        return f"SourceName({self.name!r})"


class Span(Node):
    """A range in a source: lines and columns 1-based, the end line included, the end column not."""

    _fields = ("source_name", "line", "column", "end_line", "end_column")

    def __init__(
        self,
        source_name,
        line: int,
        column: int,
        end_line: int | None = None,
        end_column: int | None = None,
    ):
        if isinstance(source_name, str):
            source_name = SourceName(source_name)
        if not isinstance(source_name, SourceName):
            raise TypeError(
                f"Span: source_name must be a SourceName or str, got {type(source_name).__name__}"
            )
        for label, value in (("line", line), ("column", column)):
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"Span: {label} must be a non-negative int, got {value!r}")
        end_line = line if end_line is None else end_line
        end_column = column if end_column is None else end_column
        if (end_line, end_column) < (line, column):
            raise ValueError(
                f"Span: end ({end_line}:{end_column}) is before start ({line}:{column})"
            )
        self._set(
            source_name=source_name,
            line=line,
            column=column,
            end_line=end_line,
            end_column=end_column,
        )

    def __repr__(self):
        return f"{self.source_name.name}:{self.line}:{self.column}"
