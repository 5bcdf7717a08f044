"""Builds libvector_sum.so from vector_sum.c with the system C compiler and tvm-ffi's flags."""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sysconfig

from tvm_ffi import libinfo

HERE = os.path.dirname(os.path.abspath(__file__))


def compile_command(output: str, compiler: str | None = None) -> list[str]:
    """The compiler call: C11, position-independent, linked to libtvm_ffi.so with an rpath."""
    cc = shlex.split(compiler or os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    lib_dir = libinfo.find_lib_path()
    return [
        *cc[:1],
        "-std=c11",
        "-O2",
        "-Wall",
        "-Werror",
        "-shared",
        "-fPIC",
        f"-I{libinfo.find_include_path()}",
        os.path.join(HERE, "vector_sum.c"),
        "-o",
        output,
        f"-L{lib_dir}",
        f"-Wl,-rpath,{lib_dir}",
        "-ltvm_ffi",
    ]


def main(argv: list[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--output", default=os.path.join(HERE, "build", "libvector_sum.so"))
    args = parser.parse_args(argv)
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    subprocess.run(compile_command(args.output), check=True)
    print(args.output)
    return str(args.output)


if __name__ == "__main__":
    main()
