"""Finds the compilers and runs a build: through ninja when on PATH, else one command at a time."""

import os
import shlex
import shutil
import subprocess


def find_cxx(func):
    """The C++ compiler: $CXX, else c++, g++ or clang++ on PATH; RuntimeError when there is none."""
    env = os.environ.get("CXX")
    if env:
        exe = shutil.which(shlex.split(env)[0])
        if exe is None:
            raise RuntimeError(
                f"tvm_ffi.cpp.{func}: the C++ compiler named by $CXX ({env!r}) is not found"
            )
        return [exe, *shlex.split(env)[1:]]
    for name in ("c++", "g++", "clang++"):
        exe = shutil.which(name)
        if exe:
            return [exe]
    raise RuntimeError(
        f"tvm_ffi.cpp.{func}: no C++ compiler found: set $CXX or put c++, g++ or clang++ on PATH"
    )


def find_nvcc(func):
    """nvcc from $CUDA_HOME/bin (or $CUDA_PATH/bin), else PATH; RuntimeError naming it if absent."""
    for var in ("CUDA_HOME", "CUDA_PATH"):
        root = os.environ.get(var)
        if root and os.access(os.path.join(root, "bin", "nvcc"), os.X_OK):
            return os.path.join(root, "bin", "nvcc")
    exe = shutil.which("nvcc")
    if exe is None:
        raise RuntimeError(
            f"tvm_ffi.cpp.{func}: cuda sources need the CUDA compiler nvcc, which is not found "
            "in $CUDA_HOME/bin or on PATH; install the CUDA toolkit or pass only cpp sources"
        )
    return exe


def cuda_lib_dir(nvcc):
    """The folder holding libcudart.so: under $CUDA_HOME, next to nvcc, or /usr/local/cuda."""
    roots = [
        os.environ.get("CUDA_HOME"),
        os.environ.get("CUDA_PATH"),
        os.path.dirname(os.path.dirname(os.path.realpath(nvcc))),
        "/usr/local/cuda",
    ]
    for root in filter(None, roots):
        for sub in ("lib64", "lib", os.path.join("targets", "x86_64-linux", "lib")):
            if os.path.exists(os.path.join(root, sub, "libcudart.so")):
                return os.path.join(root, sub)
    raise RuntimeError(
        "tvm_ffi.cpp: cannot find libcudart.so (the CUDA runtime) for nvcc at "
        f"{nvcc}; set $CUDA_HOME to the CUDA toolkit"
    )


def run_steps(func, build_dir, steps, use_ninja=None):
    """Runs [(output, inputs, command)] in order in build_dir; RuntimeError with the tool's output.

    Ninja is used when on PATH (it skips steps whose inputs did not change); without it the
    commands run directly, one after another, which gives the same result for these few steps.
    """
    ninja = shutil.which("ninja") if use_ninja is None or use_ninja else None
    if ninja:
        _write_ninja(build_dir, steps)
        _run(func, [ninja, "-C", build_dir], build_dir, "ninja")
        return
    for _, _, command in steps:
        _run(func, command, build_dir, os.path.basename(command[0]))


def _run(func, command, cwd, tool):
    try:
        result = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    except OSError as err:
        raise RuntimeError(f"tvm_ffi.cpp.{func}: cannot run {command[0]}: {err}") from None
    if result.returncode != 0:
        raise RuntimeError(
            f"tvm_ffi.cpp.{func}: build failed: {tool} exited with status {result.returncode}\n"
            f"command: {shlex.join(command)}\n{result.stdout}{result.stderr}"
        )


def _write_ninja(build_dir, steps):
    lines = ["ninja_required_version = 1.3", ""]
    for i, (output, inputs, command) in enumerate(steps):
        deps = " ".join(_ninja_path(p) for p in inputs)
        lines += [
            f"rule step{i}",
            f"  command = {shlex.join(command).replace('$', '$$')}",
            "",
            f"build {_ninja_path(output)}: step{i} {deps}",
            "",
        ]
    lines.append(f"default {_ninja_path(steps[-1][0])}")
    text = "\n".join(lines) + "\n"
    path = os.path.join(build_dir, "build.ninja")
    # Rewritten only on change, so ninja's own log decides what is out of date.
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, "w") as f:
            f.write(text)


def _ninja_path(path):
    return path.replace("$", "$$").replace(" ", "$ ").replace(":", "$:")
