"""tvm.relax.testing: helpers upstream's Relax tests import (the nn model builder)."""

from . import nn

__all__ = ["nn"]
