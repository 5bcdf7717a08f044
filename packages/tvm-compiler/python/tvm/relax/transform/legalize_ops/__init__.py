"""tvm.relax.transform.legalize_ops: each op's legalisation to TIR through te/topi, registered
as its FLegalize attribute (register_legalize lets users add or override one)."""

from . import (  # noqa: F401  (importing a family registers its legalisations)
    binary,
    create,
    dynamic_slice,
    extra,
    image,
    index,
    layout_transform,
    linear_algebra,
    manipulate,
    misc_ewise,
    nn,
    nn_conv,
    nn_conv_more,
    nn_loss,
    nn_pool1d,
    scatter,
    search,
    shape_ops,
    sorting,
    statistical,
    unary,
    unique,
)
from .common import register_legalize

__all__ = ["register_legalize"]
