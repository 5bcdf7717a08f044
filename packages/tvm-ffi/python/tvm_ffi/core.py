"""Core types under upstream's module name tvm_ffi.core: objects, errors, devices, dtypes."""

import enum

from . import _core
from ._core import *  # noqa: F401,F403
from ._core import Device, Function, Object, Tensor  # noqa: F401
from ._object_hooks import value_repr as _value_repr
from .container import CContainerBase  # noqa: F401
from .error import _CLASS_TO_KIND as ERROR_TYPE_TO_NAME  # noqa: F401
from .error import _KIND_TO_CLASS as ERROR_NAME_TO_TYPE  # noqa: F401
from .error import Error  # noqa: F401

# apache-tvm-ffi's Cython base of every object class; here the native Object is that base.
CObject = Object


def object_repr(obj):
    """repr of an FFI value as __ffi_repr__ prints it: `key(field=value, ...)`, Arrays as tuples."""
    return _value_repr(obj)


class PyNativeObject:
    """Mixin of the FFI types that are also Python builtins (String is a str, Bytes a bytes)."""

    __slots__ = ()


class String(str, PyNativeObject):
    """A str that came from or goes to the FFI; behaves exactly like str."""

    __slots__ = ()


class Bytes(bytes, PyNativeObject):
    """A bytes that came from or goes to the FFI; behaves exactly like bytes."""

    __slots__ = ()


class ObjectConvertible:
    """Base of Python classes that stand for an FFI Object: subclasses implement asobject()."""

    def asobject(self):
        """The Object this value stands for."""
        raise NotImplementedError(f"{type(self).__name__}.asobject is not implemented")


_core.set_object_convertible_class(ObjectConvertible)


class ObjectRValueRef(ObjectConvertible):
    """Passing this to a Function moves `obj`'s reference into the call: afterwards `obj` is
    empty, so the callee may hold the only reference. Made by ``obj._move()``."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        if not isinstance(obj, Object):
            raise TypeError(
                "ObjectRValueRef: argument `obj` must be a tvm_ffi.Object, "
                f"got {type(obj).__name__}"
            )
        self.obj = obj

    def asobject(self):
        source = self.obj
        if source.__ffi_handle__ == 0:
            raise ValueError(
                "ObjectRValueRef: the object was already moved (it holds no reference)"
            )
        moved = Object.__new__(type(source))
        moved.__move_handle_from__(source)
        return moved


FFIProperty = _core.FieldDescriptor  # the class of reflected fields' attributes on a class


class FieldGetter:
    """Reads one reflected field: FieldGetter(Cls.field)(obj) is obj.field."""

    __slots__ = ("_field",)

    def __init__(self, field):
        if not isinstance(field, FFIProperty):
            raise TypeError(
                "FieldGetter: argument `field` must be a reflected field of an FFI class, "
                f"got {type(field).__name__}"
            )
        self._field = field

    def __call__(self, obj):
        return self._field.__get__(obj, type(obj))


class FieldSetter:
    """Writes one reflected field, frozen or not: FieldSetter(Cls.field)(obj, value)."""

    __slots__ = ("_field",)

    def __init__(self, field):
        if not isinstance(field, FFIProperty):
            raise TypeError(
                "FieldSetter: argument `field` must be a reflected field of an FFI class, "
                f"got {type(field).__name__}"
            )
        self._field = field

    def __call__(self, obj, value):
        self._field.set(obj, value)


class ByteArrayArg:
    """Raw bytes held for an FFI call; travels as the Python object itself."""

    __slots__ = ("data",)

    def __init__(self, data):
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(
                f"ByteArrayArg: argument `data` must be bytes-like, got {type(data).__name__}"
            )
        self.data = bytes(data)


class DLTensorTestWrapper:
    """Wraps a Tensor and exposes only the DLPack protocol (for tests of DLPack import)."""

    __slots__ = ("tensor",)

    def __init__(self, tensor):
        if not isinstance(tensor, Tensor):
            raise TypeError(
                "DLTensorTestWrapper: argument `tensor` must be a tvm_ffi.Tensor, "
                f"got {type(tensor).__name__}"
            )
        self.tensor = tensor

    def __dlpack__(self, *args, **kwargs):
        return self.tensor.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self):
        return self.tensor.__dlpack_device__()


class OpaquePyObject(Object):
    """An arbitrary Python object carried across the FFI by reference. Values of this kind
    arrive in Python as the object itself; pyobject() returns it."""

    __slots__ = ()

    def pyobject(self):
        return self


class DLDeviceType(enum.IntEnum):
    """DLPack's device type codes; compare with Device.dlpack_device_type()."""

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
    """Low-level (type_code, bits, lanes) of a dtype; user code should prefer tvm_ffi.dtype."""

    __slots__ = ("type_code", "bits", "lanes")

    def __init__(self, dtype_str):
        from .dtype import dtype

        self.type_code, self.bits, self.lanes = dtype(dtype_str)._fields()

    @property
    def itemsize(self):
        return (self.bits * self.lanes + 7) // 8

    def __eq__(self, other):
        if not isinstance(other, DataType):
            return NotImplemented
        return (self.type_code, self.bits, self.lanes) == (other.type_code, other.bits, other.lanes)

    def __hash__(self):
        return hash((self.type_code, self.bits, self.lanes))

    def __repr__(self):
        from . import _core as core

        return f"DataType('{core.dtype_to_str(self.type_code, self.bits, self.lanes)}')"


class CAny:
    """An owned FFI value held outside any container; to_py() gives the Python value back."""

    __slots__ = ("_value", "type_index")

    def __init__(self, value):
        from ._core import convert

        self._value = convert(value)
        self.type_index = _type_index_of(self._value)

    def to_py(self):
        return self._value


def _type_index_of(value):
    """The FFI type index of a converted value (read from the object header for objects)."""
    import ctypes

    from .dtype import dtype

    if isinstance(value, Object):
        return ctypes.c_int32.from_address(value.__ffi_handle__ + 8).value
    if isinstance(value, dtype):
        return 5
    kinds = ((type(None), 0), (bool, 2), (int, 1), (float, 3), (Device, 6), (str, 65), (bytes, 66))
    for kind, index in kinds:
        if isinstance(value, kind):
            return index
    return 74  # anything else travels as an opaque Python object


# KWARGS marks keyword arguments in a call of a C++ type's generated __ffi_init__. MISSING is
# one object here, in tvm_ffi.dataclasses and in the reflection layer.
from ._auto_init import KWARGS  # noqa: F401,E402
from ._reflection import MISSING, TypeField, TypeInfo, TypeMethod, TypeSchema  # noqa: F401,E402
