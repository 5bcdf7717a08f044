"""build/load and build_inline/load_inline: compile against tvm-ffi, cache by content hash, load."""

import hashlib
import json
import logging
import os
import shutil
import subprocess
import sys

from .. import __version__, libinfo

# Re-exported as upstream's tvm_ffi.cpp.extension has them (its users import them from here).
from ..libinfo import find_dlpack_include_path, find_include_path, find_libtvm_ffi  # noqa: F401
from ..module import Module, load_module  # noqa: F401
from ..utils.lockfile import FileLock
from . import _args, _toolchain

IS_WINDOWS = sys.platform == "win32"  # upstream's flag; this stack builds on ELF platforms only
logger = logging.getLogger(__name__)

# What apache-tvm-ffi's generated main.cpp includes, so inline sources may use any of it
# unqualified.
_PRELUDE = """#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>

"""
_CXX_SUFFIXES = (".cc", ".cpp", ".cxx", ".c++")
_OBJ_SUFFIXES = (".o", ".obj")
# Libraries loaded with keep_module_alive=True: never unloaded while the process runs.
_KEPT: list[object] = []


def build_inline(
    name,
    *,
    cpp_sources=None,
    cuda_sources=None,
    functions=None,
    extra_cflags=None,
    extra_cuda_cflags=None,
    extra_ldflags=None,
    extra_include_paths=None,
    build_directory=None,
    embed_cubin=None,
    backend=None,
    output=None,
):
    """Compile inline C++/CUDA source text into a shared library and return its path.

    ``functions`` (a name, a list of names, or a mapping of name to docstring) are exported
    with TVM_FFI_DLL_EXPORT_TYPED_FUNC; each must be declared in ``cpp_sources`` (or defined
    in ``cuda_sources`` when there are no cpp sources). The library is cached under
    ``build_directory``, else ``$TVM_FFI_CACHE_DIR``, else ``~/.cache/tvm-ffi``, in a folder
    named by a hash of everything that goes into it: the same call again does not recompile.
    A failed build raises RuntimeError with the compiler's output.
    """
    func = "build_inline"
    name = _args.check_name(func, name)
    cpp = _args.str_list(func, "cpp_sources", cpp_sources)
    cuda = _args.str_list(func, "cuda_sources", cuda_sources)
    exports = _args.functions_map(func, functions)
    if not cpp and not cuda:
        raise ValueError(
            f"tvm_ffi.cpp.{func}: give `cpp_sources` or `cuda_sources` (both are empty)"
        )
    _check_no_cubin(func, embed_cubin)
    export_text = "".join(_export_lines(fn, doc) for fn, doc in exports.items())
    texts = {}
    if cpp:
        texts["main.cpp"] = _PRELUDE + "\n".join(cpp) + "\n\n" + export_text
    if cuda:
        texts["cuda.cu"] = _PRELUDE + "\n".join(cuda) + "\n\n" + ("" if cpp else export_text)
    return _build(
        func,
        name,
        texts,
        [],
        _Flags(func, extra_cflags, extra_cuda_cflags, extra_ldflags, extra_include_paths, backend),
        build_directory,
        output,
    )


def load_inline(
    name,
    *,
    cpp_sources=None,
    cuda_sources=None,
    functions=None,
    extra_cflags=None,
    extra_cuda_cflags=None,
    extra_ldflags=None,
    extra_include_paths=None,
    build_directory=None,
    embed_cubin=None,
    keep_module_alive=True,
    backend=None,
):
    """build_inline, then load the library as a tvm_ffi.Module (see build_inline for the arguments).

    Example::

        mod = tvm_ffi.cpp.load_inline(
            "hello", cpp_sources="int add(int a, int b) { return a + b; }", functions="add")
        assert mod.add(1, 2) == 3
    """
    path = build_inline(
        name,
        cpp_sources=cpp_sources,
        cuda_sources=cuda_sources,
        functions=functions,
        extra_cflags=extra_cflags,
        extra_cuda_cflags=extra_cuda_cflags,
        extra_ldflags=extra_ldflags,
        extra_include_paths=extra_include_paths,
        build_directory=build_directory,
        embed_cubin=embed_cubin,
        backend=backend,
    )
    return _load("load_inline", path, keep_module_alive)


def build(
    name,
    *,
    sources=None,
    cpp_files=None,
    cuda_files=None,
    extra_cflags=None,
    extra_cuda_cflags=None,
    extra_ldflags=None,
    extra_include_paths=None,
    build_directory=None,
    backend=None,
    output=None,
):
    """Compile source files (.c, .cc/.cpp/.cxx, .cu; .o objects are linked as they are) into a
    shared library, or an object file when ``output`` ends in .o, and return its path.

    Nothing is exported automatically: the sources use TVM_FFI_DLL_EXPORT_TYPED_FUNC
    themselves. Cached like build_inline, keyed on the files' contents.
    """
    func = "build"
    name = _args.check_name(func, name)
    files = (
        _args.path_list(func, "sources", sources)
        + _args.path_list(func, "cpp_files", cpp_files)
        + _args.path_list(func, "cuda_files", cuda_files)
    )
    if not files:
        raise ValueError(
            f"tvm_ffi.cpp.{func}: give `sources`, `cpp_files` or `cuda_files` (all are empty)"
        )
    for path in files:
        if not path.endswith((".c", ".cu", *_CXX_SUFFIXES, *_OBJ_SUFFIXES)):
            raise ValueError(
                f"tvm_ffi.cpp.{func}: cannot tell how to build {path!r}: expected a .c, .cc, "
                ".cpp, .cxx, .cu or .o file"
            )
    return _build(
        func,
        name,
        {},
        files,
        _Flags(func, extra_cflags, extra_cuda_cflags, extra_ldflags, extra_include_paths, backend),
        build_directory,
        output,
    )


def load(
    name,
    *,
    sources=None,
    cpp_files=None,
    cuda_files=None,
    extra_cflags=None,
    extra_cuda_cflags=None,
    extra_ldflags=None,
    extra_include_paths=None,
    build_directory=None,
    keep_module_alive=True,
    backend=None,
):
    """build, then load the library as a tvm_ffi.Module (see build for the arguments)."""
    path = build(
        name,
        sources=sources,
        cpp_files=cpp_files,
        cuda_files=cuda_files,
        extra_cflags=extra_cflags,
        extra_cuda_cflags=extra_cuda_cflags,
        extra_ldflags=extra_ldflags,
        extra_include_paths=extra_include_paths,
        build_directory=build_directory,
        backend=backend,
    )
    return _load("load", path, keep_module_alive)


class _Flags:
    """The checked flag arguments of one call."""

    def __init__(self, func, cflags, cuda_cflags, ldflags, include_paths, backend):
        self.cflags = _args.str_list(func, "extra_cflags", cflags)
        self.cuda_cflags = _args.str_list(func, "extra_cuda_cflags", cuda_cflags)
        self.ldflags = _args.str_list(func, "extra_ldflags", ldflags)
        self.include_paths = [
            os.path.abspath(p) for p in _args.str_list(func, "extra_include_paths", include_paths)
        ]
        self.backend = _args.check_backend(func, backend)


def build_ninja(build_dir):
    """Build the module in the given build directory using ninja (``ninja -v``; ``-j $MAX_JOBS``
    when that variable is set). A failed build raises RuntimeError with ninja's exit status and
    output; ``TVM_FFI_CPP_EXTENSION_LOG_BUILD=1`` (or ``stdout`` / ``stderr``) logs the output of
    a successful one."""
    ninja = shutil.which("ninja")
    if ninja is None:
        raise RuntimeError("build_ninja: `ninja` is not on PATH (pip install ninja)")
    command = [ninja, "-v"]
    jobs = os.environ.get("MAX_JOBS")
    if jobs is not None:
        command += ["-j", jobs]
    status = subprocess.run(command, cwd=build_dir, capture_output=True, check=False)
    if status.returncode != 0:
        message = [f"ninja exited with status {status.returncode}"]
        if status.stdout:
            message.append(f"stdout:\n{status.stdout.decode('utf-8', 'replace')}")
        if status.stderr:
            message.append(f"stderr:\n{status.stderr.decode('utf-8', 'replace')}")
        raise RuntimeError("\n".join(message))
    log = os.environ.get("TVM_FFI_CPP_EXTENSION_LOG_BUILD", "0")
    if log in ("1", "stdout"):
        logger.info("ninja build stdout:\n%s", status.stdout.decode("utf-8", "replace"))
    if log in ("1", "stderr"):
        logger.info("ninja build stderr:\n%s", status.stderr.decode("utf-8", "replace"))


def _export_lines(fn, doc):
    line = f"TVM_FFI_DLL_EXPORT_TYPED_FUNC({fn}, {fn});\n"
    if doc:
        line += f"TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC({fn}, {json.dumps(doc)});\n"
    return line


def _check_no_cubin(func, embed_cubin):
    if embed_cubin is not None:
        raise NotImplementedError(
            f"tvm_ffi.cpp.{func}: argument `embed_cubin` is not supported by this "
            "tvm_ffi; pass None"
        )


def _cache_root():
    return os.environ.get("TVM_FFI_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "tvm-ffi"
    )


def _build(func, name, texts, files, flags, build_directory, output):
    build_directory = _args.optional_dir(func, "build_directory", build_directory)
    if output is not None and (
        not isinstance(output, str) or os.path.basename(output) != output or not output
    ):
        raise TypeError(
            f"tvm_ffi.cpp.{func}: argument `output` must be a file name (no folder) or None, "
            f"got {output!r}"
        )
    key = _cache_key(name, texts, files, flags, output)
    build_dir = build_directory or os.path.join(_cache_root(), f"{name}_{key[:16]}")
    out = os.path.join(build_dir, output or f"{name}.so")
    stamp = out + ".key"
    if _stamp_matches(stamp, key) and os.path.exists(out):
        return out
    os.makedirs(build_dir, exist_ok=True)
    # One build at a time per folder, across processes: the second waits, then finds the stamp.
    with FileLock(os.path.join(build_dir, "lock")):
        if _stamp_matches(stamp, key) and os.path.exists(out):
            return out
        if os.path.exists(stamp):
            os.remove(stamp)
        sources = [
            _write_if_changed(os.path.join(build_dir, fn), text) for fn, text in texts.items()
        ]
        steps = _steps(func, build_dir, sources + files, flags, out)
        _toolchain.run_steps(func, build_dir, steps)
        with open(stamp, "w") as f:
            f.write(key)
    return out


def _stamp_matches(stamp, key):
    try:
        with open(stamp) as f:
            return f.read() == key
    except OSError:
        return False


def _cache_key(name, texts, files, flags, output):
    digest = hashlib.sha256()
    file_hashes = []
    for path in files:
        with open(path, "rb") as f:
            file_hashes.append((path, hashlib.sha256(f.read()).hexdigest()))
    parts = [
        __version__,
        libinfo.find_include_path(),
        name,
        texts,
        file_hashes,
        flags.cflags,
        flags.cuda_cflags,
        flags.ldflags,
        flags.include_paths,
        output,
        os.environ.get("CXX"),
        os.environ.get("CC"),
        os.environ.get("CUDA_HOME"),
    ]
    digest.update(json.dumps(parts, sort_keys=True).encode())
    return digest.hexdigest()


def _write_if_changed(path, text):
    try:
        with open(path) as f:
            if f.read() == text:
                return path
    except OSError:
        pass
    with open(path, "w") as f:
        f.write(text)
    return path


def _steps(func, build_dir, sources, flags, out):
    """[(output, inputs, command)]: one compile per source, then the link (or object merge)."""
    include = [f"-I{libinfo.find_include_path()}", *(f"-I{p}" for p in flags.include_paths)]
    steps, objects, uses_cuda = [], [], False
    for i, src in enumerate(sources):
        if src.endswith(_OBJ_SUFFIXES):
            objects.append(src)
            continue
        obj = os.path.join(build_dir, f"{i}_{os.path.splitext(os.path.basename(src))[0]}.o")
        if src.endswith(".cu"):
            nvcc = _toolchain.find_nvcc(func)
            uses_cuda = True
            cmd = [
                nvcc,
                "-c",
                src,
                "-o",
                obj,
                "-std=c++17",
                "-O2",
                "--compiler-options",
                "-fPIC",
                *include,
                *flags.cuda_cflags,
            ]
        elif src.endswith(".c"):
            cmd = [_find_cc(func), "-c", src, "-o", obj, "-fPIC", "-O2", *include, *flags.cflags]
        else:
            cmd = [
                *_toolchain.find_cxx(func),
                "-c",
                src,
                "-o",
                obj,
                "-std=c++17",
                "-fPIC",
                "-O2",
                *include,
                *flags.cflags,
            ]
        steps.append((obj, [src], cmd))
        objects.append(obj)
    if out.endswith(_OBJ_SUFFIXES):
        ld = shutil.which("ld") or "ld"
        steps.append((out, objects, [ld, "-r", "-o", out, *objects]))
        return steps
    lib_dir = libinfo.find_lib_path()
    link = [
        *_toolchain.find_cxx(func),
        "-shared",
        "-o",
        out,
        *objects,
        f"-L{lib_dir}",
        "-ltvm_ffi",
        f"-Wl,-rpath,{lib_dir}",
    ]
    if uses_cuda:
        cuda_lib = _toolchain.cuda_lib_dir(nvcc)
        link += [f"-L{cuda_lib}", "-lcudart", f"-Wl,-rpath,{cuda_lib}"]
    steps.append((out, objects, link + flags.ldflags))
    return steps


def _find_cc(func):
    exe = shutil.which(os.environ.get("CC") or "cc") or shutil.which("gcc") or shutil.which("clang")
    if exe is None:
        raise RuntimeError(
            f"tvm_ffi.cpp.{func}: .c sources need a C compiler: set $CC or put cc, gcc or clang "
            "on PATH"
        )
    return exe


def _load(func, path, keep_module_alive):
    if not isinstance(keep_module_alive, bool):
        raise TypeError(
            f"tvm_ffi.cpp.{func}: argument `keep_module_alive` must be a bool, "
            f"got {type(keep_module_alive).__name__}"
        )
    mod = load_module(path)
    if keep_module_alive:
        _KEPT.append(mod)
    return mod
