"""tvm.support: what this installation of the stack is made of (libinfo, describe), as
upstream's module of that name."""

from __future__ import annotations

import importlib.util
import os
import platform
import shutil
import sys
import textwrap

from tvm_ffi import get_global_func  # upstream's tvm.support names it too

# Our kernels are C compiled by the system compiler, not LLVM; no GPU runtime is built in.
_FIXED = {"USE_LLVM": "OFF", "USE_CUDA": "OFF", "USE_ROCM": "OFF", "USE_VULKAN": "OFF"}


def _distribution_version(name: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "NOT-FOUND"


def libinfo() -> dict[str, str]:
    """The build and installation facts of this tvm, as a dict of strings (upstream's keys
    where they mean the same: USE_LLVM, USE_CUDA, USE_OPENMP, USE_RPC, ...)."""
    import tvm_ffi

    import tvm

    info = {
        "TVM_VERSION": tvm.__version__,
        "TVM_FFI_VERSION": tvm_ffi.__version__,
        "TVM_COMPILER_VERSION": _distribution_version("tvm-compiler"),
        "TVM_RPC_VERSION": _distribution_version("tvm-rpc"),
        **_FIXED,
        "USE_OPENMP": "gnu",  # kernels are built with -fopenmp where the C compiler takes it
        "USE_RPC": "ON" if importlib.util.find_spec("tvm.rpc") is not None else "OFF",
        "USE_RELAX_VM": "ON",
        "CODEGEN": "c",
        "C_COMPILER": shutil.which(os.environ.get("CC", "cc")) or "NOT-FOUND",
        "BUILD_PLATFORM": f"{platform.system()}-{platform.machine()}",
    }
    return {key: str(value) for key, value in info.items()}


def detect_active_modules() -> dict[str, bool]:
    """Which device-runtime module kinds this installation can create (cuda, vulkan, opencl),
    from the global functions registered as ffi.Module.create.<kind>."""
    return {
        kind: get_global_func(f"ffi.Module.create.{kind}", allow_missing=True) is not None
        for kind in ("cuda", "vulkan", "opencl")
    }


def describe() -> None:
    """Print this tvm's libinfo and the Python environment it runs in."""
    print("Python Environment")
    sys_version = sys.version.replace("\n", " ")
    uname = " ".join(os.uname()) if hasattr(os, "uname") else platform.platform()
    print(
        textwrap.indent(
            f"sys.version = '{sys_version}'\nos.uname() = {uname}\n"
            f"platform.platform() = {platform.platform()}",
            "  ",
        )
    )
    print("TVM Build Information")
    info = libinfo()
    width = max(len(key) for key in info)
    for key in sorted(info):
        print(f"  {key:<{width}} = {info[key]}")


__all__ = ["describe", "detect_active_modules", "get_global_func", "libinfo"]
