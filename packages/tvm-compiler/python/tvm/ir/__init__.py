"""tvm.ir: the IR core every IR family shares: nodes, structural equality, modules, ops, spans."""

from tvm._version_guard import require as _require

# The compiler is built against one minor series of the runtime; say so before anything else.
_require("tvm-runtime", needed_by="tvm-compiler")  # the range in pyproject.toml

from . import diagnostics  # noqa: E402  (tvm.ir.diagnostics, as upstream)
from .dtype import DataType  # noqa: E402
from .expr import BaseExpr, PrimExpr, Range, RelaxExpr  # noqa: E402
from .global_info import GlobalInfo  # noqa: E402
from .module import BaseFunc, GlobalVar, IRModule  # noqa: E402
from .node import Node  # noqa: E402
from .op import Op, list_op_names, register_op, register_op_attr  # noqa: E402
from .serialization import load_json, save_json  # noqa: E402
from .span import SourceName, Span  # noqa: E402
from .structural import (  # noqa: E402
    assert_structural_equal,
    get_first_structural_mismatch,
    structural_equal,
    structural_hash,
)

__all__ = [
    "BaseExpr",
    "BaseFunc",
    "DataType",
    "GlobalInfo",
    "GlobalVar",
    "IRModule",
    "Node",
    "Op",
    "PrimExpr",
    "Range",
    "RelaxExpr",
    "SourceName",
    "Span",
    "assert_structural_equal",
    "diagnostics",
    "get_first_structural_mismatch",
    "list_op_names",
    "load_json",
    "register_op",
    "register_op_attr",
    "save_json",
    "structural_equal",
    "structural_hash",
]

# Names upstream's tvm.ir also exports whose classes live in packages above tvm.ir here (the
# relax virtual device and prim type, the pass infrastructure): resolved on first use, since
# importing them eagerly would import those packages from inside tvm.ir.
_LAZY = {
    "VDevice": ("tvm.relax.global_info", "VDevice"),
    "PrimType": ("tvm.relax.struct_info", "PrimType"),
    "transform": ("tvm.ir.transform", None),
}


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'tvm.ir' has no attribute {name!r}")
    import importlib

    module_name, attr = _LAZY[name]
    module = importlib.import_module(module_name)
    return module if attr is None else getattr(module, attr)
