"""The system C compiler: discovery, flags for this host, and a content-hash cache of kernels."""

from __future__ import annotations

import functools
import hashlib
import os
import platform
import shutil
import subprocess
import tempfile
from pathlib import Path

from tvm.target.simd import HOST_TARGET_ENV, host_target_override

_CANDIDATES = ("cc", "gcc", "clang")


class CompilerError(RuntimeError):
    """The C compiler is missing or rejected the generated source."""


def find_compiler() -> str:
    """$CC when set, else the first of cc, gcc, clang on PATH."""
    env = os.environ.get("CC")
    if env:
        path = shutil.which(env)
        if path is None:
            raise CompilerError(f"find_compiler: CC={env!r} is not an executable on PATH")
        return path
    for name in _CANDIDATES:
        path = shutil.which(name)
        if path is not None:
            return path
    raise CompilerError(
        "find_compiler: no C compiler found (looked for cc, gcc, clang); install one or set CC"
    )


def _try_flags(cc: str, flags: list[str]) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "probe.c")
        src.write_text("int probe(int x) { return x + 1; }\n")
        result = subprocess.run(
            [cc, *flags, "-c", str(src), "-o", str(Path(tmp, "probe.o"))],
            capture_output=True,
            timeout=60,
        )
        return result.returncode == 0


def host_flags(cc: str) -> tuple[str, ...]:
    """Optimisation flags this compiler accepts here: -O3 with the host's vector ISA (or that
    of the CPU $TVM_STACK_HOST_TARGET names in the host's place)."""
    return _host_flags(cc, host_target_override())


@functools.lru_cache(maxsize=8)
def _host_flags(cc: str, stand_in: str | None) -> tuple[str, ...]:
    flags = ["-O3", "-std=gnu11", "-fPIC"]
    if stand_in is not None:
        if not _try_flags(cc, [f"-march={stand_in}"]):
            raise CompilerError(
                f"host_flags: {os.path.basename(cc)} rejects -march={stand_in} "
                f"(from ${HOST_TARGET_ENV})"
            )
        flags.append(f"-march={stand_in}")
    for isa in (["-march=native"], ["-mcpu=native"]) if stand_in is None else ():
        if _try_flags(cc, isa):
            flags += isa
            break
    if _try_flags(cc, ["-fopenmp-simd"]):
        flags.append("-fopenmp-simd")
    # Kernels never read the floating-point exception flags (LLVM, upstream's backend, assumes
    # the same): without this GCC will not if-convert a float comparison in a loop, so a clamp
    # or a select (tvm_expf's, a ReLU's) kept a loop from vectorising. Values are unchanged.
    if _try_flags(cc, ["-fno-trapping-math"]):
        flags.append("-fno-trapping-math")
    return tuple(flags)


@functools.lru_cache(maxsize=8)
def openmp_flags(cc: str) -> tuple[str, ...]:
    """Flags that enable OpenMP, or () when this compiler has none."""
    return ("-fopenmp",) if _try_flags(cc, ["-fopenmp"]) else ()


@functools.lru_cache(maxsize=8)
def _compiler_identity(cc: str) -> str:
    result = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=60)
    return result.stdout.splitlines()[0] if result.stdout else cc


@functools.lru_cache(maxsize=1)
def _cpu_identity() -> str:
    # -march=native output differs between CPUs, so cached kernels are keyed by the CPU too.
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("flags", "Features")):
                return hashlib.sha256(line.encode()).hexdigest()[:16]
    except OSError:
        pass
    return platform.processor() or platform.machine()


def cache_dir() -> Path:
    env = os.environ.get("TVM_STACK_KERNEL_CACHE")
    if env:
        return Path(env)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "tvm-stack" / "kernels"


@functools.lru_cache(maxsize=8)
def _header_identity(include_dir: str) -> str:
    # A kernel embeds the ABI tag of the headers it was built with: when tvm-ffi is upgraded
    # in place (same paths, new ABI), a cached kernel would be refused, so the key names them.
    try:
        return hashlib.sha256((Path(include_dir) / "tvm_ffi" / "c_api.h").read_bytes()).hexdigest()
    except OSError:
        return include_dir


def _ffi_paths() -> tuple[str, str]:
    import tvm_ffi.libinfo

    return tvm_ffi.libinfo.find_include_path(), tvm_ffi.libinfo.find_libtvm_ffi()


def compile_shared_library(
    source: str,
    use_openmp: bool,
    march: str | None = None,
    extra_flags: list[str] | tuple[str, ...] = (),
) -> str:
    """Compile C source into a shared library; reuse the cached one with the same content hash.

    march names a CPU to compile for instead of this host's (-march=native); extra_flags
    (such as -mavx2) follow it."""
    cc = find_compiler()
    include_dir, libtvm_ffi = _ffi_paths()
    flags = list(host_flags(cc))
    if march is not None:
        flags = [f for f in flags if not f.startswith(("-march=", "-mcpu="))] + [f"-march={march}"]
    flags += list(extra_flags)
    flags += os.environ.get("TVM_STACK_CFLAGS", "").split()
    link = [libtvm_ffi, f"-Wl,-rpath,{os.path.dirname(libtvm_ffi)}"]
    if use_openmp:
        flags += openmp_flags(cc)
        # Unloading the OpenMP runtime under its idle worker threads would crash the process,
        # so a kernel that pulls it in stays loaded.
        link.append("-Wl,-z,nodelete")
    identity = [_compiler_identity(cc), _header_identity(include_dir), _cpu_identity()]
    key_text = "\0".join([source, *flags, *link, *identity])
    key = hashlib.sha256(key_text.encode()).hexdigest()[:32]
    folder = cache_dir()
    target = folder / f"{key}.so"
    if target.exists():
        return str(target)
    folder.mkdir(parents=True, exist_ok=True)
    src = folder / f"{key}.c"
    src.write_text(source)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    cmd = [cc, *flags, "-shared", "-I", include_dir, str(src), "-o", str(tmp), *link, "-lm"]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        tmp.unlink(missing_ok=True)
        raise CompilerError(
            f"compile_shared_library: {os.path.basename(cc)} failed on {src}:\n"
            + "\n".join(result.stderr.splitlines()[:30])
        )
    os.replace(tmp, target)
    return str(target)
