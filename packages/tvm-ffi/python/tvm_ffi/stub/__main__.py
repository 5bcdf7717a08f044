"""`python -m tvm_ffi.stub` runs tvm-ffi-stubgen."""

import sys

from .cli import main

# Guarded: tools that import every module (stubtest, pydoc) must not run the command.
if __name__ == "__main__":
    sys.exit(main())
