"""Embeds a CUBIN (or any binary blob) into an object file as the symbols TVM_FFI_EMBED_CUBIN reads.

Usage: python -m tvm_ffi.utils.embed_cubin --output-obj new.o --input-obj old.o
       --cubin kernel.cubin --name my_module [--verbose]

The output object holds the input object's code plus the blob between the symbols
``__tvm_ffi__cubin_<name>`` and ``__tvm_ffi__cubin_<name>_end`` (local to the object, so two
objects may embed the same name). It needs GNU ``ld`` and ``objcopy``, no GPU.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# ld -r -b binary names the blob's symbols after its path; the copy in the temporary folder
# has this name, so they are _binary_tvm_ffi_cubin_bin_{start,end,size}.
_BLOB = "tvm_ffi_cubin.bin"
_LD_PREFIX = "_binary_tvm_ffi_cubin_bin"


def _run(cmd: list[str], cwd: Path, verbose: bool) -> None:
    if verbose:
        print("+ " + " ".join(cmd))
    try:
        done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise RuntimeError(f"embed_cubin: `{cmd[0]}` was not found on PATH") from None
    if verbose and (done.stdout or done.stderr):
        print(done.stdout + done.stderr, end="")
    if done.returncode != 0:
        raise RuntimeError(
            f"embed_cubin: `{' '.join(cmd)}` failed with exit code {done.returncode}:\n"
            f"{done.stderr.strip()}"
        )


def embed_cubin(
    cubin_path: Path,
    input_obj_path: Path,
    output_obj_path: Path,
    name: str,
    verbose: bool = False,
) -> None:
    """Writes `output_obj_path`: the object `input_obj_path` merged with the bytes of
    `cubin_path` as ``__tvm_ffi__cubin_<name>`` .. ``__tvm_ffi__cubin_<name>_end``.

    The blob becomes an object with ``ld -r -b binary`` (read-only data, marked as needing no
    executable stack), its symbols are renamed with ``objcopy``, ``ld -r`` merges it with the
    input object and the two symbols are made local to the result. `name` must be a C
    identifier (it is the name given to TVM_FFI_EMBED_CUBIN in the C++ source).

    Raises FileNotFoundError when an input file is missing, ValueError for a bad `name`,
    RuntimeError when ``ld`` or ``objcopy`` is missing or fails.
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"embed_cubin: argument `name` must be a C identifier, got {name!r}")
    cubin_path, input_obj_path = Path(cubin_path), Path(input_obj_path)
    output_obj_path = Path(output_obj_path)
    if not cubin_path.is_file():
        raise FileNotFoundError(f"CUBIN file not found: {cubin_path}")
    if not input_obj_path.is_file():
        raise FileNotFoundError(f"Input object file not found: {input_obj_path}")
    start, end = f"__tvm_ffi__cubin_{name}", f"__tvm_ffi__cubin_{name}_end"
    with tempfile.TemporaryDirectory(prefix="tvm_ffi_embed_cubin_") as tmp:
        work = Path(tmp)
        shutil.copyfile(cubin_path, work / _BLOB)
        _run(["ld", "-r", "-b", "binary", "-o", "blob.o", _BLOB], work, verbose)
        _run(
            [
                "objcopy",
                "--rename-section",
                ".data=.rodata,alloc,load,readonly,data,contents",
                "--add-section",
                ".note.GNU-stack=/dev/null",
                "--redefine-sym",
                f"{_LD_PREFIX}_start={start}",
                "--redefine-sym",
                f"{_LD_PREFIX}_end={end}",
                "--strip-symbol",
                f"{_LD_PREFIX}_size",
                "blob.o",
            ],
            work,
            verbose,
        )
        merged = work / "merged.o"
        _run(
            ["ld", "-r", "-o", str(merged), str(input_obj_path.resolve()), "blob.o"], work, verbose
        )
        _run(
            ["objcopy", "--localize-symbol", start, "--localize-symbol", end, "merged.o"],
            work,
            verbose,
        )
        output_obj_path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(merged, output_obj_path)
    if verbose:
        print(f"embed_cubin: wrote {output_obj_path} ({cubin_path.stat().st_size} bytes as {name})")


def main() -> int:
    """The command line: ``python -m tvm_ffi.utils.embed_cubin``; 0 on success, 1 on error."""
    parser = argparse.ArgumentParser(
        prog="python -m tvm_ffi.utils.embed_cubin",
        description="Embed CUBIN data into an object file that uses the TVM_FFI_EMBED_CUBIN macro",
    )
    parser.add_argument(
        "--output-obj",
        required=True,
        type=Path,
        metavar="PATH",
        help="output object file (e.g. new.o)",
    )
    parser.add_argument(
        "--input-obj",
        required=True,
        type=Path,
        metavar="PATH",
        help="input object file using TVM_FFI_EMBED_CUBIN (e.g. old.o)",
    )
    parser.add_argument(
        "--cubin",
        required=True,
        type=Path,
        metavar="PATH",
        help="input CUBIN file (e.g. kernel.cubin)",
    )
    parser.add_argument(
        "--name",
        required=True,
        metavar="NAME",
        help="the name given to TVM_FFI_EMBED_CUBIN (e.g. my_kernels)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="print the commands run")
    args = parser.parse_args()
    try:
        embed_cubin(args.cubin, args.input_obj, args.output_obj, args.name, args.verbose)
    except (FileNotFoundError, ValueError, RuntimeError) as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
