"""Shared libraries of the stack: one registry (basename -> handle) so none is loaded twice."""

from __future__ import annotations

import ctypes
import os

# Every shared library the stack has loaded, keyed by file basename.
_LOADED_LIBS: dict[str, ctypes.CDLL] = {}


def _as_path_list(paths) -> list[str]:
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    try:
        items = list(paths)
    except TypeError:
        raise TypeError(
            "load_backend_libs: argument 'paths' must be a path or an iterable of paths, "
            f"got {type(paths).__name__}"
        ) from None
    result = []
    for item in items:
        if not isinstance(item, (str, bytes, os.PathLike)):
            raise TypeError(
                "load_backend_libs: every entry of 'paths' must be a str or os.PathLike, "
                f"got {type(item).__name__}"
            )
        result.append(os.fsdecode(item))
    return result


def load_backend_libs(paths, *, global_symbols: bool = True) -> list[ctypes.CDLL]:
    """Load shared libraries, skipping any whose basename is already loaded.

    global_symbols=True (RTLD_GLOBAL) lets libraries loaded later, such as generated code
    that does not link its dependencies, resolve the symbols these export.
    Returns the handles in the order given (existing handles for skipped ones).
    """
    handles = []
    mode = ctypes.RTLD_GLOBAL if global_symbols else ctypes.RTLD_LOCAL
    for path in _as_path_list(paths):
        name = os.path.basename(path)
        handle = _LOADED_LIBS.get(name)
        if handle is None:
            if not os.path.isfile(path):
                raise FileNotFoundError(f"load_backend_libs: no shared library at {path!r}")
            try:
                handle = ctypes.CDLL(os.path.abspath(path), mode=mode)
            except OSError as err:
                raise OSError(f"load_backend_libs: cannot load {path!r}: {err}") from None
            _LOADED_LIBS[name] = handle
        handles.append(handle)
    return handles


def loaded_libs() -> dict[str, str]:
    """Basename -> path of every library loaded through this registry."""
    return {name: handle._name for name, handle in _LOADED_LIBS.items()}


def _load_core_libs() -> None:
    """Register libtvm_ffi, promoting its symbols to global so generated code can use them."""
    from tvm_ffi import libinfo

    load_backend_libs([libinfo.find_libtvm_ffi()], global_symbols=True)
