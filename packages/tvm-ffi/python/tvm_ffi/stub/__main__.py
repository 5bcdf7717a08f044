"""`python -m tvm_ffi.stub` runs tvm-ffi-stubgen."""

import sys

from .cli import main

sys.exit(main())
