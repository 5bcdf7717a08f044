"""tvm.relax.testing: helpers upstream's Relax tests import (the nn model builder; the VM test
functions in .vm and the shape opcodes in .runtime_builtin are imported by name, as upstream:
importing .vm registers the test.vm.* packed functions)."""

from . import nn

__all__ = ["nn"]
