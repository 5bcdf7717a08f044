# Checks that every C and C++ source of the repository is laid out as .clang-format says.
"""Usage: python ci/check_cpp_format.py [--fix]

Runs clang-format (from the `clang-format` wheel that `nox -s lint` installs) over the C
and C++ files git knows, except those listed in EXEMPT; exits non-zero naming each file
that differs. --fix rewrites them instead.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = (".c", ".cc", ".cpp", ".h", ".hpp")
# Files that must keep a layout of their own: none at present.
EXEMPT: tuple[str, ...] = ()


def sources() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    return [f for f in listed if f.endswith(SUFFIXES) and not (EXEMPT and f.startswith(EXEMPT))]


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    tool = shutil.which("clang-format")
    if tool is None:
        print("check_cpp_format: clang-format is not on PATH (pip install clang-format)")
        return 2
    files = sources()
    if "--fix" in argv:
        subprocess.run([tool, "-i", *files], cwd=ROOT, check=True)
        return 0
    differ = [
        f
        for f in files
        if subprocess.run(
            [tool, "--dry-run", "--Werror", f], cwd=ROOT, capture_output=True
        ).returncode
        != 0
    ]
    for f in differ:
        print(
            f"check_cpp_format: {f} differs from .clang-format (run ci/check_cpp_format.py --fix)"
        )
    print(f"check_cpp_format: {len(files)} files, {len(differ)} to reformat")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
