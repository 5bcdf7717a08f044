"""The native core types and functions (Object, Function, Tensor, Device) under a stable name."""

from ._core import *  # noqa: F401,F403
from ._core import Device, Function, Object, Tensor  # noqa: F401
from ._reflection import TypeField, TypeInfo, TypeMethod, TypeSchema  # noqa: F401,E402
