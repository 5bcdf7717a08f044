"""tvm_ffi: the stable C ABI of tvm-stack (Any values, objects, functions, errors, tensors)."""

import ctypes
from typing import TypeVar

from . import access_path as access_path
from . import core as core
from . import cpp as cpp
from . import dataclasses as dataclasses
from . import error as error
from . import libinfo as libinfo
from . import serialization as serialization
from . import stream as stream
from . import structural as structural
from . import utils as utils
from ._core import Device as Device
from ._core import Function as Function
from ._core import Object as Object
from ._core import Tensor as Tensor
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
from .container import Array as Array
from .container import Dict as Dict
from .container import List as List
from .container import Map as Map
from .container import Shape as Shape
from .core import DLDeviceType as DLDeviceType
from .core import ObjectConvertible as ObjectConvertible
from .device import device as device
from .dtype import dtype as dtype
from .error import register_error as register_error
from .module import Module as Module
from .module import load_module as load_module
from .module import system_lib as system_lib
from .registry import convert as convert
from .registry import convert_func as convert_func
from .registry import get_global_func as get_global_func
from .registry import get_global_func_metadata as get_global_func_metadata
from .registry import init_ffi_api as init_ffi_api
from .registry import list_global_func_names as list_global_func_names
from .registry import register_func as register_func
from .registry import register_global_func as register_global_func
from .registry import register_object as register_object
from .registry import remove_global_func as remove_global_func
from .stream import StreamContext as StreamContext
from .stream import get_raw_stream as get_raw_stream
from .stream import use_raw_stream as use_raw_stream
from .stream import use_torch_stream as use_torch_stream
from .structural import StructuralKey as StructuralKey
from .structural import get_first_structural_mismatch as get_first_structural_mismatch
from .structural import structural_equal as structural_equal
from .structural import structural_hash as structural_hash
from .tensor import from_dlpack as from_dlpack

_M = TypeVar("_M")

def method(fn: _M) -> _M:
    """Marks a method of a ``@py_class`` body for FFI reflection."""

__version__: str
__version_tuple__: tuple[int, int, int]
LIB: ctypes.CDLL

bool: dtype
int8: dtype
int16: dtype
int32: dtype
int64: dtype
uint8: dtype
uint16: dtype
uint32: dtype
uint64: dtype
float16: dtype
float32: dtype
float64: dtype
bfloat16: dtype
float8_e3m4: dtype
float8_e4m3: dtype
float8_e4m3b11fnuz: dtype
float8_e4m3fn: dtype
float8_e4m3fnuz: dtype
float8_e5m2: dtype
float8_e5m2fnuz: dtype
float8_e8m0fnu: dtype
float6_e2m3fn: dtype
float6_e3m2fn: dtype
float4_e2m1fn: dtype
float4_e2m1fnx2: dtype

__all__ = [
    "LIB",
    "__version__",
    "__version_tuple__",
    "Array",
    "DLDeviceType",
    "DefRegionKind",
    "Device",
    "Dict",
    "Function",
    "List",
    "InplaceMode",
    "Map",
    "Module",
    "Object",
    "ObjectConvertible",
    "Shape",
    "StreamContext",
    "StructuralKey",
    "StructuralMutator",
    "StructuralVisitor",
    "Tensor",
    "VisitInterrupt",
    "WalkOrder",
    "WalkResult",
    "access_path",
    "convert",
    "convert_func",
    "core",
    "cpp",
    "dataclasses",
    "device",
    "dtype",
    "error",
    "from_dlpack",
    "get_first_structural_mismatch",
    "get_global_func",
    "get_global_func_metadata",
    "get_raw_stream",
    "init_ffi_api",
    "libinfo",
    "list_global_func_names",
    "load_module",
    "method",
    "register_error",
    "register_func",
    "register_global_func",
    "register_object",
    "remove_global_func",
    "stream",
    "system_lib",
    "use_raw_stream",
    "use_torch_stream",
    "utils",
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "bfloat16",
    "float8_e3m4",
    "float8_e4m3",
    "float8_e4m3b11fnuz",
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
    "float6_e2m3fn",
    "float6_e3m2fn",
    "float4_e2m1fn",
    "float4_e2m1fnx2",
    "serialization",
    "structural",
    "structural_equal",
    "structural_hash",
    "structural_map",
    "structural_mutate",
    "structural_visit",
    "structural_walk",
]
