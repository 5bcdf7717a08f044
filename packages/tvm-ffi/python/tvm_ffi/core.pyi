"""The native core types under a stable name (see _core.pyi)."""

from ._core import ABI_VERSION as ABI_VERSION
from ._core import DEVICE_TYPE_CODES as DEVICE_TYPE_CODES
from ._core import Device as Device
from ._core import Function as Function
from ._core import Object as Object
from ._core import Tensor as Tensor
from ._reflection import TypeField as TypeField
from ._reflection import TypeInfo as TypeInfo
from ._reflection import TypeMethod as TypeMethod
from ._reflection import TypeSchema as TypeSchema
