"""tvm.relax.ir: upstream's home of Relax IR helpers; here its pass instruments."""

from . import instrument

__all__ = ["instrument"]
