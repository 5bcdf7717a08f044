"""tvm.relax.frontend.nn: a PyTorch-like module API whose forward traces into a Relax IRModule
(Module.export_tvm) or a compiled, callable module (Module.jit)."""

from . import op, spec
from .core import (
    Effect,
    Module,
    ModuleDict,
    ModuleList,
    Object,
    Parameter,
    ParameterDict,
    ParameterList,
    Tensor,
    get_default_dtype,
    set_default_dtype,
)
from .exporter import Exporter, IOEffect
from .modules import (
    GELU,
    Conv1D,
    Conv2D,
    ConvTranspose1D,
    Embedding,
    GroupNorm,
    Identity,
    LayerNorm,
    Linear,
    ReLU,
    RMSNorm,
    SiLU,
)
from .op import *  # noqa: F403  (upstream re-exports every op at nn.*)
from .op import __all__ as _op_all

__all__ = [
    "Conv1D", "Conv2D", "ConvTranspose1D", "Effect", "Embedding", "Exporter", "GELU",
    "GroupNorm", "IOEffect", "Identity", "LayerNorm", "Linear", "Module", "ModuleDict",
    "ModuleList", "Object", "Parameter", "ParameterDict", "ParameterList", "RMSNorm", "ReLU",
    "SiLU", "Tensor", "get_default_dtype", "op", "set_default_dtype", "spec", *_op_all,
]  # fmt: skip
