"""tvm.relax.frontend.onnx: from_onnx converts an ONNX model to a Relax IRModule."""

from . import (  # noqa: F401  (each module registers its converters)
    ops_attention,
    ops_control,
    ops_deform_conv,
    ops_elementwise,
    ops_fold,
    ops_grid,
    ops_index,
    ops_loop,
    ops_nms,
    ops_nn,
    ops_nonzero,
    ops_quantize,
    ops_recurrent,
    ops_reduce,
    ops_resize,
    ops_roi_align,
    ops_rotary,
    ops_scan,
    ops_sequence,
    ops_shape,
    ops_spectral,
    ops_tensor,
    ops_window,
)
from .graph import from_onnx

__all__ = ["from_onnx"]
