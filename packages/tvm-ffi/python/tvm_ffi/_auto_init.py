"""The Python __init__ of C++ types whose __ffi_init__ is made from their fields, and KWARGS."""

from . import _core
from ._reflection import MISSING, _metadata_dict

# apache-tvm-ffi's tvm_ffi.core.KWARGS: in a call of a generated __ffi_init__, the arguments
# after it are name, value pairs (the fields given by keyword).
KWARGS = _core.get_global_func("ffi.GetKwargsObject")()


def is_auto_init(type_index, method_name="__ffi_init__"):
    """Whether the type's own __ffi_init__ is the one C++ made from its fields."""
    meta = _metadata_dict(_core.member_metadata(type_index, 1, method_name))
    return bool(meta.get("auto_init"))


def kwargs_tail(kwargs):
    """The arguments that pass `kwargs` to a generated init: KWARGS, then name, value pairs."""
    tail = [KWARGS]
    for name, value in kwargs.items():
        tail.append(name)
        tail.append(value)
    return tail


def _signature_stub(type_info):
    """A function whose signature is the generated init's, as inspect.signature shows it:
    required fields, then defaulted ones (default <MISSING>: C++ fills them), then keyword-only."""
    fields = [f for f in type_info.all_fields() if f.c_init]
    required = [f.name for f in fields if not f.c_kw_only and not f.c_has_default]
    optional = [f"{f.name}=_M" for f in fields if not f.c_kw_only and f.c_has_default]
    kw_only = [f.name + ("=_M" if f.c_has_default else "") for f in fields if f.c_kw_only]
    params = ["self", *required, *optional] + (["*", *kw_only] if kw_only else [])
    env = {"_M": MISSING}
    exec(f"def __init__({', '.join(params)}): pass\n", env)  # noqa: S102
    return env["__init__"]


def make_auto_init(ctor, type_info):
    """__init__(self, *args, **kwargs) calling the generated constructor; argument checks and
    their messages are the C++ side's. inspect.signature shows the fields (via __wrapped__)."""

    def __init__(self, *args, **kwargs):
        if kwargs:
            self.__init_handle_by_constructor__(ctor, *args, *kwargs_tail(kwargs))
        else:
            self.__init_handle_by_constructor__(ctor, *args)

    __init__.__wrapped__ = _signature_stub(type_info)  # type: ignore[attr-defined]
    __init__.__qualname__ = f"{type_info.type_cls.__name__}.__init__"
    return __init__
