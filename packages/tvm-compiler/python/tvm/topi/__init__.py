"""tvm.topi: te operators (broadcast elementwise, reductions, transforms, nn) as upstream."""

from math import pi  # noqa: E402  (re-exported, as upstream's topi namespace does)

import tvm.ir  # noqa: F401  (checks the runtime version first)

# Re-exported, as upstream's topi namespace does (code written for it uses some of them).
from tvm import te  # noqa: E402
from tvm.arith import Analyzer  # noqa: E402
from tvm.te import extern  # noqa: E402
from tvm.tir import Cast, decl_buffer, floordiv, floormod  # noqa: E402

from . import broadcast as _broadcast  # noqa: E402
from . import image, nn, tag, utils  # noqa: E402
from . import math as _math  # noqa: E402
from ._arrange import arange, flip, meshgrid, repeat, sliding_window, stack, tile  # noqa: E402
from ._creation import const_vector, eye, hamming_window, shape, tensor_size  # noqa: E402
from ._dot import matmul, tensordot  # noqa: E402
from ._dynamic import div, dyn_tile, dynamic_strided_slice  # noqa: E402
from ._gather import gather, reverse_sequence, unravel_index  # noqa: E402
from ._indexing import (  # noqa: E402
    adv_index,
    collapse_sum,
    expand_like,
    index_put,
    index_tensor,
    make_idx,
    slice_scatter,
    sparse_to_dense,
    strided_set,
    within_index,
)
from ._layout import layout_transform  # noqa: E402
from ._select import matrix_set_diag, one_hot, sequence_mask, trilu, where  # noqa: E402
from .broadcast import *  # noqa: E402, F403
from .einsum import einsum  # noqa: E402
from .math import *  # noqa: E402, F403
from .reduction import all, any, argmax, argmin, max, min, prod, sum  # noqa: E402
from .scan import cumprod, cumsum, scanop  # noqa: E402
from .scatter import scatter_elements, scatter_nd  # noqa: E402
from .searchsorted import searchsorted  # noqa: E402
from .sort import argsort, sort, topk  # noqa: E402
from .tensor import elemwise_sum, full, full_like  # noqa: E402
from .transform import (  # noqa: E402
    concatenate,
    expand_dims,
    gather_nd,
    reshape,
    split,
    squeeze,
    strided_slice,
    take,
    transpose,
)
from .utils import InvalidShapeError, get_const_tuple  # noqa: E402

__all__ = sorted(
    [
        "arange",
        "div",
        "dyn_tile",
        "dynamic_strided_slice",
        "image",
        "Analyzer",
        "Cast",
        "InvalidShapeError",
        "adv_index",
        "collapse_sum",
        "const_vector",
        "decl_buffer",
        "expand_like",
        "extern",
        "eye",
        "floordiv",
        "floormod",
        "hamming_window",
        "index_put",
        "index_tensor",
        "layout_transform",
        "make_idx",
        "pi",
        "scanop",
        "shape",
        "slice_scatter",
        "sparse_to_dense",
        "strided_set",
        "tag",
        "te",
        "tensor_size",
        "within_index",
        "argsort",
        "sort",
        "topk",
        "scatter_elements",
        "scatter_nd",
        "searchsorted",
        "scatter",
        "flip",
        "meshgrid",
        "repeat",
        "sliding_window",
        "stack",
        "tile",
        "matmul",
        "tensordot",
        "gather",
        "reverse_sequence",
        "unravel_index",
        "matrix_set_diag",
        "one_hot",
        "sequence_mask",
        "trilu",
        "all",
        "any",
        "argmin",
        "prod",
        "get_const_tuple",
        "utils",
        "argmax",
        "concatenate",
        "cumprod",
        "cumsum",
        "einsum",
        "gather_nd",
        "elemwise_sum",
        "expand_dims",
        "full",
        "full_like",
        "max",
        "min",
        "nn",
        "reshape",
        "split",
        "squeeze",
        "strided_slice",
        "sum",
        "take",
        "transpose",
        "where",
        *_broadcast.__all__,
        *_math.__all__,
    ]
)
