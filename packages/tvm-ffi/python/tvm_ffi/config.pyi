"""tvm-ffi-config: prints the flags and paths a build needs to compile against tvm-ffi."""

from collections.abc import Sequence

def main(argv: Sequence[str] | None = None) -> int: ...
