"""Checks and normalizes the arguments of tvm_ffi.cpp's build and load functions."""

import os
import re
from collections.abc import Mapping, Sequence

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def check_name(func, name):
    """The module name: an identifier, since it names the library file and its folder."""
    if not isinstance(name, str):
        raise TypeError(
            f"tvm_ffi.cpp.{func}: argument `name` must be a str, got {type(name).__name__}"
        )
    if not _NAME.match(name):
        raise ValueError(
            f"tvm_ffi.cpp.{func}: argument `name` must be an identifier "
            f"(letters, digits, underscores), got {name!r}"
        )
    return name


def str_list(func, arg, value):
    """None, one str or a sequence of str, as a list of str."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, Sequence) and all(isinstance(v, str) for v in value):
        return list(value)
    raise TypeError(
        f"tvm_ffi.cpp.{func}: argument `{arg}` must be a str or a sequence of str, "
        f"got {_describe(value)}"
    )


def path_list(func, arg, value):
    """Like str_list, and each path must exist (as a file)."""
    if isinstance(value, os.PathLike):
        value = [value]
    if isinstance(value, Sequence) and not isinstance(value, str):
        value = [os.fspath(v) if isinstance(v, os.PathLike) else v for v in value]
    paths = str_list(func, arg, value)
    for path in paths:
        if not os.path.isfile(path):
            raise FileNotFoundError(
                f"tvm_ffi.cpp.{func}: argument `{arg}` names {path!r}, which is not a file"
            )
    return [os.path.abspath(p) for p in paths]


def functions_map(func, value):
    """`functions` as {name: docstring}: a mapping, a sequence of names, or one name."""
    if value is None:
        return {}
    if isinstance(value, str):
        value = [value]
    if isinstance(value, Mapping):
        items = list(value.items())
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in items):
            raise TypeError(
                f"tvm_ffi.cpp.{func}: argument `functions` must map str names to str "
                f"docstrings, got {_describe(value)}"
            )
    elif isinstance(value, Sequence) and all(isinstance(v, str) for v in value):
        items = [(v, "") for v in value]
    else:
        raise TypeError(
            f"tvm_ffi.cpp.{func}: argument `functions` must be a str, a sequence of str or "
            f"a mapping of str to str, got {_describe(value)}"
        )
    for name, _ in items:
        if not _NAME.match(name):
            raise ValueError(
                f"tvm_ffi.cpp.{func}: argument `functions` holds {name!r}, which is not a "
                "C++ identifier"
            )
    return dict(items)


def optional_dir(func, arg, value):
    """None or a folder path (created if missing)."""
    if value is None:
        return None
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise TypeError(
            f"tvm_ffi.cpp.{func}: argument `{arg}` must be a str path or None, "
            f"got {_describe(value)}"
        )
    return os.path.abspath(value)


def check_backend(func, backend):
    """None (CUDA when there are CUDA sources) or "cuda"; HIP is not supported here."""
    if backend is None or backend == "cuda":
        return "cuda"
    if backend == "hip":
        raise NotImplementedError(
            f"tvm_ffi.cpp.{func}: backend='hip' is not supported by this tvm_ffi; "
            "only 'cuda' sources can be built"
        )
    raise ValueError(
        f"tvm_ffi.cpp.{func}: argument `backend` must be None, 'cuda' or 'hip', got {backend!r}"
    )


def _describe(value):
    return f"{type(value).__name__} {value!r}"[:200]
