"""Reads a source file into stub blocks (`tvm-ffi-stubgen(begin)` ... `(end)`), writes it back."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from . import consts as C


class StubError(ValueError):
    """Bad stubgen input: a malformed directive (naming the file and line), a missing path."""


def syntax_for(path: Path) -> C.MarkerSyntax:
    """The marker syntax of a file, by its extension (Python's for any other)."""
    return C.SYNTAX_BY_EXT.get(path.suffix.lower(), C.PYTHON_SYNTAX)


class CodeBlock:
    """A run of lines: a generated block (begin ... end), a one-line directive or a plain line.

    `kind` is one of consts.STUB_BLOCK_KINDS; `param` the block's argument: the prefix and the
    module to import init_ffi_api from for `global` (a tuple), the type key for `object`, the
    submodule for `export`, (name, payload) for a directive.
    """

    def __init__(self, kind, param, lineno_start: int, lineno_end: int | None, lines: list[str]):
        if kind not in C.STUB_BLOCK_KINDS:
            raise ValueError(f"CodeBlock: argument `kind` must be one of {C.STUB_BLOCK_KINDS}")
        self.kind = kind
        self.param = param
        self.lineno_start = lineno_start
        self.lineno_end = lineno_end
        self.lines = lines

    def __repr__(self) -> str:
        return (
            f"CodeBlock(kind={self.kind!r}, param={self.param!r}, "
            f"lineno_start={self.lineno_start}, lineno_end={self.lineno_end})"
        )

    @property
    def indent(self) -> int:
        """The indentation (in spaces) of the block's first line."""
        if not self.lines:
            return 0
        first = self.lines[0]
        return len(first) - len(first.lstrip(" "))

    @staticmethod
    def from_begin_line(lineno: int, line: str, syntax: C.MarkerSyntax = C.PYTHON_SYNTAX):
        """The block a stripped directive line opens; StubError for an unknown kind."""
        if not line.startswith(syntax.begin):
            name, sep, payload = line[len(syntax.prefix) :].partition("):")
            if not sep or not name or not name.replace("-", "_").isidentifier():
                raise StubError(f"Unknown stub type at line {lineno}: {line}")
            return CodeBlock("directive", (name, payload.strip()), lineno, lineno, [])
        stub = line[len(syntax.begin) :].strip()
        param: str | tuple[str, ...]
        if stub.startswith("global/"):
            kind, param = "global", stub[len("global/") :].strip()
            prefix, _, import_from = param.partition("@")
            param = (prefix, import_from)
            if not prefix:
                raise StubError(f"`global/` needs a prefix at line {lineno}: {line}")
        elif stub.startswith("object/"):
            kind, param = "object", stub[len("object/") :].strip()
            if not param:
                raise StubError(f"`object/` needs a type key at line {lineno}: {line}")
        elif stub == "import-section":
            kind, param = "import-section", ""
        elif stub.startswith("export/"):
            kind, param = "export", stub[len("export/") :].strip()
            if not param.isidentifier():
                raise StubError(f"`export/` needs a submodule name at line {lineno}: {line}")
        elif stub == "__all__":
            kind, param = "__all__", ""
        else:
            raise StubError(f"Unknown stub type `{stub}` at line {lineno}")
        return CodeBlock(kind, param, lineno, None, [])


class FileInfo:
    """A source file split into code blocks; `update` writes the blocks' lines back."""

    def __init__(self, path: Path, lines: tuple, code_blocks: list, syntax=C.PYTHON_SYNTAX):
        self.path = path
        self.lines = lines
        self.code_blocks = code_blocks
        self.syntax = syntax

    def update(self, verbose: bool, dry_run: bool) -> bool:
        """Writes the blocks' lines (unless dry_run); True when they differ from the file."""
        new_lines = tuple(line for block in self.code_blocks for line in block.lines)
        if new_lines == self.lines:
            return False
        if verbose:
            name = str(self.path)
            for line in difflib.unified_diff(self.lines, new_lines, name, name, lineterm=""):
                print(line)
        self.lines = new_lines
        if not dry_run:
            self.path.write_text("\n".join(new_lines) + "\n", encoding="utf-8")
        return True

    @staticmethod
    def from_file(file: Path, include_empty: bool = False, syntax=None) -> FileInfo | None:
        """The blocks of `file`; None when it has no directive (or says skip-file).

        StubError (naming the file and line) for a nested, unmatched or unclosed block.
        """
        file = Path(file)
        if not file.is_file():
            raise StubError(f"{file}: no such file")
        file = file.resolve()
        syntax = syntax or syntax_for(file)
        lines = file.read_text(encoding="utf-8").splitlines()
        stripped = [line.strip() for line in lines]
        if any(s.startswith(syntax.skip_file) for s in stripped):
            return None
        if not include_empty and not any(s.startswith(syntax.prefix) for s in stripped):
            return None
        codes: list[CodeBlock] = []
        code: CodeBlock | None = None
        try:
            for lineno, (line, clean) in enumerate(zip(lines, stripped), 1):
                if clean.startswith(syntax.begin):
                    if code is not None:
                        raise StubError(
                            f"Nested stub not permitted at line {lineno} (the block opened at "
                            f"line {code.lineno_start} is not closed)"
                        )
                    code = CodeBlock.from_begin_line(lineno, clean, syntax)
                    code.lines.append(line)
                elif clean.startswith(syntax.end):
                    if code is None:
                        raise StubError(f"Unmatched `{syntax.end}` found at line {lineno}")
                    code.lineno_end = lineno
                    code.lines.append(line)
                    codes.append(code)
                    code = None
                elif clean.startswith(syntax.prefix):
                    if code is not None:
                        raise StubError(
                            f"Directive inside the stub block opened at line "
                            f"{code.lineno_start} at line {lineno}"
                        )
                    directive = CodeBlock.from_begin_line(lineno, clean, syntax)
                    directive.lines.append(line)
                    codes.append(directive)
                elif code is None:
                    codes.append(CodeBlock(None, "", lineno, lineno, [line]))
                else:
                    code.lines.append(line)
            if code is not None:
                raise StubError(
                    f"Unclosed stub block at end of file (opened at line {code.lineno_start})"
                )
        except StubError as err:
            raise StubError(f"{file}: {err}") from None
        return FileInfo(file, tuple(lines), codes, syntax)

    def reload(self) -> None:
        """Parses the file again (keeping `lines`, the text as first read)."""
        source = FileInfo.from_file(self.path, syntax=self.syntax)
        if source is None:
            raise StubError(f"{self.path}: the file no longer has stub directives")
        self.code_blocks = source.code_blocks


def collect_files(paths: list, source_exts=C.SOURCE_EXTS) -> list[FileInfo]:
    """The files with directives among `paths` (folders walked for `source_exts`), sorted.

    A path that is neither a file nor a folder is a StubError.
    """
    found = []
    for p in map(Path, paths):
        if p.is_file():
            found.append(p)
        elif p.is_dir():
            for root, _dirs, names in os.walk(p):
                found += [Path(root, n) for n in names if Path(n).suffix.lower() in source_exts]
        else:
            raise StubError(f"{p}: no such file or folder")
    infos = (FileInfo.from_file(f) for f in sorted(set(found), key=str))
    return [info for info in infos if info is not None]


def path_walk(p: Path, top_down: bool = True, follow_symlinks: bool = False):
    """(root, dirnames, filenames) for every folder under p, like Path.walk (Python 3.12)."""
    if not p.exists():
        return
    for root, dirs, files in os.walk(p, topdown=top_down, followlinks=follow_symlinks):
        yield Path(root), dirs, files


__all__ = ["CodeBlock", "FileInfo", "StubError", "collect_files", "path_walk", "syntax_for"]
