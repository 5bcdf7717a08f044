"""sys.excepthook wrapper: an uncaught DiagnosticError prints the diagnostic, no internal frames."""

from __future__ import annotations

import os
import sys

_CXX_SUFFIXES = (".cc", ".cpp", ".cxx", ".h", ".hpp", ".cu")
_HINT = "(internal frames hidden; set TVM_BACKTRACE=1 to see the full trace)"


def _internal_dirs() -> tuple[str, ...]:
    dirs = []
    for name in ("tvm", "tvm_ffi"):
        module = sys.modules.get(name)
        for path in getattr(module, "__path__", None) or ():
            dirs.append(os.path.join(os.path.abspath(path), ""))
    return tuple(dirs)


def _is_internal(filename: str, internal_dirs: tuple[str, ...]) -> bool:
    if filename.endswith(_CXX_SUFFIXES):
        return True
    return os.path.abspath(filename).startswith(internal_dirs) if internal_dirs else False


def format_diagnostic(exc: BaseException) -> str:
    """The short report: user frames only, then the rendered diagnostic and a hint."""
    import traceback

    internal = _internal_dirs()
    frames = [
        f for f in traceback.extract_tb(exc.__traceback__) if not _is_internal(f.filename, internal)
    ]
    lines = []
    if frames:
        lines.append("Traceback (most recent call last):\n")
        lines.extend(traceback.format_list(frames))
    cls = type(exc)
    lines.append(f"{cls.__module__}.{cls.__qualname__}: {exc}\n")
    lines.append(_HINT + "\n")
    return "".join(lines)


def _make_hook(previous):
    def hook(exc_type, exc, tb):
        from .error import DiagnosticError

        if isinstance(exc, DiagnosticError) and os.environ.get("TVM_BACKTRACE", "0") != "1":
            sys.stderr.write(format_diagnostic(exc.with_traceback(tb)))
            return
        previous(exc_type, exc, tb)

    hook._tvm_diagnostic_hook = True
    return hook


def install() -> None:
    """Wrap the current sys.excepthook once; other exceptions go to the previous hook."""
    if getattr(sys.excepthook, "_tvm_diagnostic_hook", False):
        return
    sys.excepthook = _make_hook(sys.excepthook)
