"""tvm-ffi-config: prints the flags and paths a build needs to compile against tvm-ffi."""

import argparse
import sys

from . import libinfo


def _flags(names):
    """The value of each asked-for flag, in the order asked: a link line must name the
    library after the objects that need it (linkers running --as-needed drop it otherwise)."""
    inc = libinfo.find_include_path()
    lib = libinfo.find_lib_path()
    table = {
        "includedir": inc,
        "libdir": lib,
        "libs": "-ltvm_ffi",
        "cmakedir": libinfo.find_cmake_path(),
        "cxxflags": f"-I{inc} -std=c++17",
        "cflags": f"-I{inc}",
        "ldflags": f"-L{lib} -Wl,-rpath,{lib}",
        "libfiles": libinfo.find_libtvm_ffi(),
        "dlpack_includedir": libinfo.find_dlpack_include_path,
        "sourcedir": libinfo.find_source_path,
        "cython_lib_path": libinfo.find_cython_lib,
    }
    return [v() if callable(v) else v for v in (table[name] for name in names)]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="tvm-ffi-config", description=__doc__)
    for name, help_text in [
        ("includedir", "folder to pass with -I"),
        ("libdir", "folder holding libtvm_ffi.so"),
        ("libs", "linker flags naming the library"),
        ("cmakedir", "folder holding tvm_ffiConfig.cmake"),
        ("cxxflags", "C++ compiler flags"),
        ("cflags", "C compiler flags"),
        ("ldflags", "linker flags (with rpath)"),
        ("libfiles", "path of libtvm_ffi.so"),
        ("dlpack-includedir", "folder holding dlpack.h's include root"),
        ("sourcedir", "the installed package folder"),
        ("cython-lib-path", "path of the native Python extension"),
    ]:
        parser.add_argument(
            f"--{name}",
            dest="asked",
            action="append_const",
            const=name.replace("-", "_"),
            help=help_text,
        )
    out = _flags(parser.parse_args(argv).asked or [])
    if not out:
        parser.print_help()
        return 1
    print(" ".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
