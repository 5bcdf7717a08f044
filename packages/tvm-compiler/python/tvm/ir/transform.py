"""tvm.ir.transform: upstream's module path of the pass infrastructure; the same module as
tvm.transform (one set of Pass classes and one PassContext stack, not a copy)."""

import sys

import tvm.transform as _transform

sys.modules[__name__] = _transform
