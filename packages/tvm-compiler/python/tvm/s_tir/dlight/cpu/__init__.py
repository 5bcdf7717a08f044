"""CPU schedule rules: GEMV (a matmul of one output row, such as a batch-1 dense layer),
Matmul (register-tiled matmul and convolution), Reduction (row-wise
reductions such as softmax and layer norm) and Fallback (parallel and vectorized loops for
everything else made of plain loop nests)."""

from .base import CPUScheduleRule
from .fallback import Fallback
from .gemv import GEMV
from .matmul import Matmul
from .reduction import Reduction

__all__ = ["CPUScheduleRule", "GEMV", "Fallback", "Matmul", "Reduction"]
