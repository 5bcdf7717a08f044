"""The core types under upstream's module name tvm_ffi.core (see _core.pyi)."""

import enum
from typing import Any

from ._core import ABI_VERSION as ABI_VERSION
from ._core import DEVICE_TYPE_CODES as DEVICE_TYPE_CODES
from ._core import Device as Device
from ._core import Function as Function
from ._core import Object as Object
from ._core import Tensor as Tensor
from .container import CContainerBase as CContainerBase
from .error import Error as Error

CObject = Object

def object_repr(obj: Any) -> str: ...

ERROR_NAME_TO_TYPE: dict[str, type[BaseException]]
ERROR_TYPE_TO_NAME: dict[type[BaseException], str]

class PyNativeObject: ...
class String(str, PyNativeObject): ...
class Bytes(bytes, PyNativeObject): ...

class ObjectConvertible:
    def asobject(self) -> Object: ...

class ObjectRValueRef(ObjectConvertible):
    obj: Object
    def __init__(self, obj: Object) -> None: ...

from ._core import FieldDescriptor as FieldDescriptor

FFIProperty: Any

class FieldGetter:
    def __init__(self, field: Any) -> None: ...
    def __call__(self, obj: Any) -> Any: ...

class FieldSetter:
    def __init__(self, field: Any) -> None: ...
    def __call__(self, obj: Any, value: Any) -> None: ...

class ByteArrayArg:
    data: bytes
    def __init__(self, data: bytes | bytearray | memoryview) -> None: ...

class DLTensorTestWrapper:
    tensor: Tensor
    def __init__(self, tensor: Tensor) -> None: ...
    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...

class OpaquePyObject(Object):
    def pyobject(self) -> Any: ...

class DLDeviceType(enum.IntEnum):
    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17
    kDLTrn = 18

class DataType:
    type_code: int
    bits: int
    lanes: int
    def __init__(self, dtype_str: str) -> None: ...
    @property
    def itemsize(self) -> int: ...

class CAny:
    type_index: int
    def __init__(self, value: Any) -> None: ...
    def to_py(self) -> Any: ...

from ._reflection import MISSING as MISSING

KWARGS: Object
from ._reflection import TypeField as TypeField
from ._reflection import TypeInfo as TypeInfo
from ._reflection import TypeMethod as TypeMethod
from ._reflection import TypeSchema as TypeSchema
