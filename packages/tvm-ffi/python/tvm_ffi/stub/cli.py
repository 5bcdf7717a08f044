"""The tvm-ffi-stubgen command line: `tvm-ffi-stubgen [--imports ...] [--dlls ...] PATH...`."""

import argparse
import difflib
import importlib
import os
import sys

from .generator import StubError, process_text


def _parser():
    p = argparse.ArgumentParser(
        prog="tvm-ffi-stubgen",
        description=(
            "Generate type stubs for TVM FFI extensions: fills the "
            "`# tvm-ffi-stubgen(begin): global/<prefix>` and `object/<type_key>` blocks of the "
            "given .py/.pyi files in place from the loaded registry."
        ),
    )
    p.add_argument(
        "paths", nargs="*", metavar="PATH", help="files or folders (scanned for .py and .pyi)"
    )
    p.add_argument("--imports", default="", help="modules to import first, separated by ';'")
    p.add_argument("--dlls", default="", help="shared libraries to load first, separated by ';'")
    p.add_argument("--verbose", action="store_true", help="print a diff of each change")
    p.add_argument("--dry-run", action="store_true", help="write nothing")
    p.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if any file is out of date"
    )
    return p


def _files(paths):
    for path in paths:
        if os.path.isdir(path):
            for root, _dirs, names in sorted(os.walk(path)):
                yield from (
                    os.path.join(root, n) for n in sorted(names) if n.endswith((".py", ".pyi"))
                )
        elif os.path.isfile(path):
            yield path
        else:
            raise StubError(f"tvm-ffi-stubgen: {path!r} is neither a file nor a folder")


def main(argv=None):
    args = _parser().parse_args(argv)
    from .. import load_module

    try:
        for name in filter(None, args.imports.split(";")):
            importlib.import_module(name)
        for lib in filter(None, args.dlls.split(";")):
            load_module(lib)
        stale = []
        for path in _files(args.paths):
            with open(path) as f:
                old = f.read()
            new = process_text(old, path)
            if new == old:
                continue
            stale.append(path)
            if args.verbose or args.dry_run:
                sys.stdout.writelines(
                    difflib.unified_diff(old.splitlines(True), new.splitlines(True), path, path)
                )
            if not (args.dry_run or args.check):
                with open(path, "w") as f:
                    f.write(new)
    except (StubError, ImportError, OSError, ValueError, RuntimeError) as err:
        print(f"tvm-ffi-stubgen: error: {err}", file=sys.stderr)
        return 2
    if args.check and stale:
        print("tvm-ffi-stubgen: out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
