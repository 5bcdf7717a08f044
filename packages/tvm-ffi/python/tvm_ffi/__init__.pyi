"""tvm_ffi: the stable C ABI of tvm-stack (Any values, objects, functions, errors, DLPack tensors)."""

from . import libinfo as libinfo
from ._core import Device as Device
from ._core import Function as Function
from ._core import Object as Object
from ._core import Tensor as Tensor
from .container import Array as Array
from .container import Map as Map
from .container import Shape as Shape
from .device import device as device
from .dtype import dtype as dtype
from .error import register_error as register_error
from .module import Module as Module
from .module import load_module as load_module
from .registry import convert as convert
from .registry import get_global_func as get_global_func
from .registry import init_ffi_api as init_ffi_api
from .registry import list_global_func_names as list_global_func_names
from .registry import register_func as register_func
from .registry import register_global_func as register_global_func
from .registry import register_object as register_object
from .registry import remove_global_func as remove_global_func
from .tensor import from_dlpack as from_dlpack
from . import access_path as access_path
from . import dataclasses as dataclasses
from . import serialization as serialization
from . import structural as structural
from .structural import StructuralKey as StructuralKey
from .structural import get_first_structural_mismatch as get_first_structural_mismatch
from .structural import structural_equal as structural_equal
from .structural import structural_hash as structural_hash
from ._structural_visit import DefRegionKind as DefRegionKind
from ._structural_visit import InplaceMode as InplaceMode
from ._structural_visit import StructuralMutator as StructuralMutator
from ._structural_visit import StructuralVisitor as StructuralVisitor
from ._structural_visit import VisitInterrupt as VisitInterrupt
from ._structural_visit import WalkOrder as WalkOrder
from ._structural_visit import WalkResult as WalkResult
from ._structural_visit import structural_map as structural_map
from ._structural_visit import structural_mutate as structural_mutate
from ._structural_visit import structural_visit as structural_visit
from ._structural_visit import structural_walk as structural_walk

__version__: str

__all__ = [
    "Array",
    "DefRegionKind",
    "Device",
    "Function",
    "InplaceMode",
    "Map",
    "Module",
    "Object",
    "Shape",
    "StructuralKey",
    "StructuralMutator",
    "StructuralVisitor",
    "Tensor",
    "VisitInterrupt",
    "WalkOrder",
    "WalkResult",
    "access_path",
    "convert",
    "dataclasses",
    "device",
    "dtype",
    "from_dlpack",
    "get_first_structural_mismatch",
    "get_global_func",
    "init_ffi_api",
    "libinfo",
    "list_global_func_names",
    "load_module",
    "register_error",
    "register_func",
    "register_global_func",
    "register_object",
    "remove_global_func",
    "serialization",
    "structural",
    "structural_equal",
    "structural_hash",
    "structural_map",
    "structural_mutate",
    "structural_visit",
    "structural_walk",
]
