"""tvm.relax.transform: Relax passes, one file per pass."""

from . import legalize_ops  # noqa: E402,F401,I001  (registers every op family's legalisation)
from .legalize_ops.common import register_legalize
from .legalize_ops.legalize import LegalizeOps
from .normalize import Normalize

__all__ = ["LegalizeOps", "Normalize", "legalize_ops", "register_legalize"]
