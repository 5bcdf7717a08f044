"""The tvm-ffi-stubgen command line: fills `tvm-ffi-stubgen(begin)` blocks of .py/.pyi files."""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

from . import consts as C
from .file_utils import StubError, collect_files
from .utils import Options


def _split(arg: str) -> list[str]:
    return [item.strip() for item in (arg or "").split(";") if item.strip()]


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawTextHelpFormatter):
    """Shows defaults and keeps the description's line breaks."""


def _parse_args(argv=None) -> Options:
    p = argparse.ArgumentParser(
        prog="tvm-ffi-stubgen",
        description=(
            "Generate type stubs for TVM FFI extensions: processes the given files/directories "
            "in place, generating type stubs inside special `tvm-ffi-stubgen` directive blocks "
            "(`# tvm-ffi-stubgen(begin): global/<prefix>`, `object/<type_key>`, "
            "`import-section`, `__all__`, `export/<submodule>`) from the loaded registry.\n\n"
            f"Documentation: {C.DOC_URL}."
        ),
        formatter_class=_HelpFormatter,
    )
    p.add_argument(
        "files",
        nargs="*",
        metavar="PATH",
        help=(
            "Files or directories to process. Directories are scanned recursively; only .py and "
            ".pyi files with tvm-ffi-stubgen directives are modified."
        ),
    )
    p.add_argument(
        "--imports",
        default="",
        metavar="IMPORTS",
        help="Additional imports to load before generation, separated by ';' (e.g. 'pkgA;pkgB').",
    )
    p.add_argument(
        "--dlls",
        default="",
        metavar="LIBS",
        help=(
            "Shared libraries to preload before generation (your extension), separated by ';', "
            "so that their global functions and object types are registered."
        ),
    )
    p.add_argument(
        "--indent",
        type=int,
        default=4,
        help="Extra spaces inside each generated block, relative to its 'begin' marker line.",
    )
    p.add_argument("--verbose", action="store_true", help="Print a unified diff of each change.")
    p.add_argument("--dry-run", action="store_true", help="Don't write changes to files.")
    p.add_argument(
        "--check",
        action="store_true",
        help=(
            "Don't write changes; report every file whose stub blocks are out of date and exit "
            "with status 1 if there is any."
        ),
    )
    args = p.parse_args(argv)
    if args.indent < 0:
        p.error(f"argument --indent: must be >= 0, got {args.indent}")
    return Options(
        imports=_split(args.imports),
        dlls=_split(args.dlls),
        indent=args.indent,
        files=args.files,
        verbose=args.verbose,
        dry_run=args.dry_run or args.check,
        check=args.check,
    )


def _error(message: str) -> None:
    print(f"tvm-ffi-stubgen: error: {message}", file=sys.stderr)


def main(argv=None) -> int:
    """Runs tvm-ffi-stubgen: 0 when done (or nothing is stale), 1 when --check finds a stale
    file, 2 when an input is bad (the error is printed to stderr)."""
    opt = _parse_args(argv)
    from .. import load_module
    from .generator import process_file, read_ty_map
    from .lib_state import collect_global_funcs

    try:
        for name in opt.imports:
            importlib.import_module(name)
        # Kept referenced while the stubs are generated, so the libraries stay loaded.
        libs = [load_module(lib) for lib in opt.dlls]
        files = collect_files([Path(f) for f in opt.files])
    except (StubError, ImportError, OSError, ValueError, RuntimeError) as err:
        _error(str(err))
        return 2
    global_funcs = collect_global_funcs()
    ty_map = dict(C.TY_MAP_DEFAULTS)
    failed = stale = 0
    for file in files:
        try:
            read_ty_map(file, ty_map)
        except StubError as err:
            failed += 1
            _error(str(err))
    for file in files:
        try:
            changed = process_file(file, opt, ty_map, global_funcs)
        except (StubError, ValueError, KeyError, TypeError) as err:
            failed += 1
            _error(str(err))
            continue
        if changed and opt.check:
            stale += 1
            print(f"[Stale] {file.path}")
    del libs
    return 2 if failed else 1 if stale else 0


def __main__() -> int:
    """The console script's entry point (upstream's name): main() on sys.argv."""
    return main()


if __name__ == "__main__":
    sys.exit(__main__())
