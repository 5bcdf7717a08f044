"""Global functions and object classes: registering, looking up and binding them to Python."""

import sys

from . import _core
from ._auto_init import is_auto_init, make_auto_init
from ._core import Object
from ._reflection import _metadata_dict, type_info_of

_missing = object()
_COPY_METHODS = ("__ffi_shallow_copy__", "__ffi_new__")


def register_global_func(func_name, f=None, override=False):
    """Registers a Python callable as the global FFI function `func_name`.

    Use directly, ``register_global_func("my.add", add)``, or as a decorator,
    ``@register_global_func("my.add")``. Registering an existing name raises KeyError
    unless ``override=True``.
    """
    if callable(func_name) and f is None:
        raise TypeError(
            "register_global_func: the first argument must be the function's name (a str)"
        )
    if not isinstance(func_name, str):
        raise TypeError(
            "register_global_func: argument `func_name` must be a str, "
            f"got {type(func_name).__name__}"
        )

    def register(func):
        if not callable(func):
            raise TypeError(
                f"register_global_func: argument `f` for {func_name!r} must be callable"
            )
        _core.register_global_func(func_name, func, override)
        return func

    return register if f is None else register(f)


register_func = register_global_func


def get_global_func(name, allow_missing=False):
    """The global function `name` as a Function; None when missing and allow_missing is set."""
    if not isinstance(name, str):
        raise TypeError(
            f"get_global_func: argument `name` must be a str, got {type(name).__name__}"
        )
    return _core.get_global_func(name, allow_missing)


def remove_global_func(name):
    """Removes the global function `name`; returns whether one was registered."""
    if not isinstance(name, str):
        raise TypeError(
            f"remove_global_func: argument `name` must be a str, got {type(name).__name__}"
        )
    return _core.remove_global_func(name)


def list_global_func_names():
    """The names of all global functions, sorted."""
    return _core.list_global_func_names()


def get_global_func_metadata(name):
    """Metadata of the global function `name` as a dict (empty when it declares none).

    A function registered from C++ (`GlobalDef().def`) records its signature: "type_schema"
    holds a JSON text such as '{"type":"ffi.Function","named_args":{"return":[{"type":"int"}],
    "params":[...]}}' (parse it with `tvm_ffi.core.TypeSchema.from_json_str`).
    Raises ValueError when no function has that name, like get_global_func.
    """
    get_global_func(name)  # the name check and the missing-function error
    return _metadata_dict(_core.global_func_metadata(name))


def convert_func(pyfunc, tensor_cls=None):
    """`pyfunc` as an FFI Function; with `tensor_cls` (a class with ``__dlpack_c_exchange_api__``,
    such as torch.Tensor), tensor arguments reach `pyfunc` as instances of that class."""
    if not callable(pyfunc):
        raise TypeError(
            f"convert_func: argument `pyfunc` must be callable, got {type(pyfunc).__name__}"
        )
    if tensor_cls is None:
        return _core.convert(pyfunc)
    if not isinstance(tensor_cls, type) or not hasattr(tensor_cls, "__dlpack_c_exchange_api__"):
        raise TypeError(
            f"convert_func: argument `tensor_cls` must be a class with __dlpack_c_exchange_api__, "
            f"got {tensor_cls!r}"
        )
    library = sys.modules[tensor_cls.__module__.split(".")[0]]
    to_tensor_cls = library.from_dlpack
    tensor = _core.Tensor

    def call(*args):
        return pyfunc(*[to_tensor_cls(a) if isinstance(a, tensor) else a for a in args])

    return _core.convert(call)


def convert(value):
    """Converts a Python value to its FFI form (lists become Array, callables Function, str
    becomes core.String and bytes core.Bytes, ...)."""
    out = _core.convert(value)
    if type(out) is str:
        from .core import String

        return String(out)
    if type(out) is bytes:
        from .core import Bytes

        return Bytes(out)
    return out


def _make_method(func, name):
    def method(self, *args):
        return func(self, *args)

    method.__name__ = name
    return method


def _make_init(ctor):
    def __init__(self, *args):
        self.__init_handle_by_constructor__(ctor, *args)

    return __init__


def register_object(type_key=None):
    """Binds a Python subclass of Object to the C++ type registered as `type_key`.

    Reflected fields become attributes and methods become methods; a static method
    ``__ffi_init__`` becomes the constructor unless the class defines ``__init__``.
    Registering another class for the same key makes it the one returned from then on.
    """

    def register(cls):
        key = type_key if isinstance(type_key, str) else cls.__name__
        index = _core.register_object_class(key, cls)
        info = _core.type_info(index)
        for name, _doc, descriptor in info["fields"]:
            if name not in cls.__dict__:
                setattr(cls, name, descriptor)
        auto_init = None
        for name, _doc, is_static, func in info["methods"]:
            if name in _COPY_METHODS:
                continue  # reached through copy.copy and deserialization, not as attributes
            if name == "__ffi_init__":
                if "__init__" not in cls.__dict__:
                    if is_auto_init(index):
                        auto_init = func  # its __init__ takes keywords: made from the fields
                    else:
                        cls.__init__ = _make_init(func)
            elif name not in cls.__dict__:
                setattr(cls, name, staticmethod(func) if is_static else _make_method(func, name))
        cls.__ffi_type_key__ = key
        cls.__ffi_type_index__ = index
        cls.__tvm_ffi_type_info__ = type_info_of(index, cls)
        if auto_init is not None:
            cls.__init__ = make_auto_init(auto_init, cls.__tvm_ffi_type_info__)
        return cls

    if isinstance(type_key, type):
        cls, type_key = type_key, None
        return register(cls)
    return register


def get_registered_type_keys():
    """Every type key registered with the FFI (POD kinds, built-in, user types), by type index."""
    return get_global_func("ffi.GetRegisteredTypeKeys")()


def init_ffi_api(namespace, target_module_name=None):
    """Binds every global function `namespace.name` as attribute `name` of a module."""
    target = sys.modules[target_module_name or namespace]
    prefix = namespace + "."
    for full in list_global_func_names():
        if full.startswith(prefix):
            short = full[len(prefix) :]
            if "." not in short:
                setattr(target, short, get_global_func(full))


__all__ = [
    "Object",
    "convert",
    "convert_func",
    "get_global_func",
    "get_global_func_metadata",
    "get_registered_type_keys",
    "init_ffi_api",
    "list_global_func_names",
    "register_func",
    "register_global_func",
    "register_object",
    "remove_global_func",
]
