"""tvm.contrib.cc: the system C/C++ compiler making shared and static libraries, as upstream."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

_CC_NAMES = ("g++", "gcc", "clang++", "clang", "c++", "cc")


def get_cc() -> str | None:
    """The default C/C++ compiler: $CXX or $CC when set, else the first of g++, gcc,
    clang++, clang, c++, cc on PATH; None on Windows or when none is found."""
    if sys.platform.startswith("win"):
        return None
    from_env = os.environ.get("CXX") or os.environ.get("CC")
    if from_env:
        return from_env
    for name in _CC_NAMES:
        path = shutil.which(name)
        if path is not None:
            return path
    return None


def create_shared(output, objects, options=None, cc=None, cwd=None, ccache_env=None) -> None:
    """Link (or compile and link) objects into the shared library output."""
    _compile("create_shared", output, objects, options, cc, cwd, ccache_env, shared=True)


create_shared.output_format = "so"


def create_executable(output, objects, options=None, cc=None, cwd=None, ccache_env=None) -> None:
    """Compile and link objects into the executable output."""
    _compile("create_executable", output, objects, options, cc, cwd, ccache_env, shared=False)


create_executable.output_format = ""


def create_staticlib(output, inputs, ar=None) -> None:
    """Archive the object files inputs into the static library output (`ar -crs`)."""
    output = _path("create_staticlib", "output", output)
    inputs = _paths("create_staticlib", "inputs", inputs)
    ar = _command("create_staticlib", "ar", ar) or os.environ.get("AR", "ar")
    _run("create_staticlib", [ar, "-crs", output, *inputs], None, None)


create_staticlib.output_format = "a"


def cross_compiler(
    compile_func, options=None, output_format=None, get_target_triple=None, add_files=None
):
    """A compile function (output, objects, options=None) specializing compile_func (a
    function like create_shared, or a compiler command) with extra options and files."""
    for name, value in (("options", options), ("add_files", add_files)):
        # a lone string would be split into its characters
        if isinstance(value, (str, os.PathLike)) or (
            value is not None and not all(isinstance(v, (str, os.PathLike)) for v in value)
        ):
            raise TypeError(
                f"cross_compiler: argument {name!r} must be a list of str, got {value!r}"
            )
    base_options = [os.fspath(v) for v in list(options or []) + list(add_files or [])]
    kwargs = {}
    if isinstance(compile_func, str):  # a compiler command: create_shared with it
        kwargs["cc"] = compile_func
        compile_func = create_shared
    elif not callable(compile_func):
        raise TypeError(
            "cross_compiler: argument 'compile_func' must be a str or callable, got "
            f"{type(compile_func).__name__}"
        )

    def _fcompile(output, objects, options=None):
        compile_func(output, objects, options=base_options + list(options or []), **kwargs)

    _fcompile.output_format = output_format or getattr(compile_func, "output_format", "so")
    if get_target_triple is not None:
        _fcompile.get_target_triple = get_target_triple
    return _fcompile


def _compile(who, output, objects, options, cc, cwd, ccache_env, shared: bool) -> None:
    output = _path(who, "output", output)
    objects = _paths(who, "objects", objects)
    if options is not None and (
        isinstance(options, str) or not all(isinstance(o, str) for o in options)
    ):
        raise TypeError(f"{who}: argument 'options' must be a list of str, got {options!r}")
    cc = _command(who, "cc", cc) or get_cc()
    if cwd is not None:
        cwd = _path(who, "cwd", cwd)
        if not os.path.isdir(cwd):
            raise ValueError(f"{who}: argument 'cwd' is not a directory: {cwd!r}")
    if cc is None:
        raise RuntimeError(
            f"{who}: no C compiler found (looked for {', '.join(_CC_NAMES)}); set CC"
        )
    cmd = [cc]
    if shared and output.endswith((".so", ".dylib")):
        cmd += ["-shared", "-fPIC"]
    elif output.endswith((".o", ".obj")):
        cmd += ["-c"]
    cmd += ["-o", output, *objects, *(options or [])]
    env = None
    if ccache_env is not None:
        if shutil.which("ccache") is None:
            raise ValueError(f"{who}: ccache_env was given but no ccache is on PATH")
        cmd.insert(0, "ccache")
        env = {**os.environ, **ccache_env}
    _run(who, cmd, cwd, env)


def _run(who, cmd, cwd, env) -> None:
    try:
        done = subprocess.run(
            cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
    except FileNotFoundError:
        raise RuntimeError(f"{who}: the command {cmd[0]!r} was not found") from None
    except OSError as err:  # a directory or a file without execute permission
        raise RuntimeError(f"{who}: the command {cmd[0]!r} cannot run ({err.strerror})") from None
    if done.returncode != 0:
        # Upstream's message: the tool's output, then the command line.
        raise RuntimeError(f"Compilation error:\n{done.stdout}\nCommand line: {' '.join(cmd)}")


def _command(who, name, value):
    # A compiler or archiver given by the caller: one program's name or path (None: default).
    if value is None or value == "":
        return None
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(
            f"{who}: argument {name!r} must be a command name or path, got {type(value).__name__}"
        )
    return os.fspath(value)


def _path(who, name, value) -> str:
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{who}: argument {name!r} must be a path, got {type(value).__name__}")
    return os.fspath(value)


def _paths(who, name, value) -> list:
    items = [value] if isinstance(value, (str, os.PathLike)) else value
    try:
        return [_path(who, name, item) for item in items]
    except TypeError:
        raise TypeError(
            f"{who}: argument {name!r} must be a path or a list of paths, got {value!r}"
        ) from None
