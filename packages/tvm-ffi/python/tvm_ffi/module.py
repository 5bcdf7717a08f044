"""Modules: shared libraries exporting FFI functions, loaded with load_module(path)."""

import os

from ._core import Object
from .registry import get_global_func, register_object


def _api(name):
    return get_global_func("ffi." + name)


@register_object("ffi.Module")
class Module(Object):
    """A collection of functions, e.g. a loaded library. ``mod["name"]`` or ``mod.name``."""

    @property
    def kind(self):
        return _api("ModuleGetKind")(self)

    @property
    def path(self):
        return _api("ModuleGetPath")(self)

    @property
    def imports(self):
        return list(_api("ModuleGetImports")(self))

    def import_module(self, other):
        """Adds `other` to the modules searched after this one."""
        _api("ModuleImportModule")(self, other)

    def get_function(self, name, allow_missing=False, query_imports=True):
        """The function `name`; AttributeError when missing unless allow_missing."""
        if not isinstance(name, str):
            raise TypeError(
                f"Module.get_function: argument `name` must be a str, got {type(name).__name__}"
            )
        f = _api("ModuleGetFunction")(self, name, query_imports)
        if f is None:
            if allow_missing:
                return None
            raise AttributeError(f"Module {self.path or self.kind!r} has no function {name!r}")
        return f

    def __getitem__(self, name):
        return self.get_function(name)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self.get_function(name)

    def __contains__(self, name):
        return self.get_function(name, allow_missing=True) is not None

    def __repr__(self):
        if not self.__ffi_handle__:
            return Object.__repr__(self)
        return f"Module(kind={self.kind!r}, path={self.path!r})"


def load_module(path):
    """Opens a shared library built against tvm-ffi and returns it as a Module.

    Raises FileNotFoundError for a missing file, OSError for a file that is not a loadable
    library, ValueError for a library without the tvm-ffi ABI tag and RuntimeError for one
    built against another ABI major version.
    """
    path = os.fsdecode(path)
    if "\0" in path:
        raise ValueError(f"load_module: argument `path` contains a NUL character: {path!r}")
    return _api("ModuleLoadFromFile")(path)


def system_lib(symbol_prefix=""):
    """The process-wide Module of functions registered with TVMFFIEnvModRegisterSystemLibSymbol.

    ``system_lib("p_").f`` finds the symbol ``__tvm_ffi_p_f`` first, then ``__tvm_ffi_f``; one
    Module per prefix, the same one on every call.
    """
    if not isinstance(symbol_prefix, str):
        raise TypeError(
            "system_lib: argument `symbol_prefix` must be a str, "
            f"got {type(symbol_prefix).__name__}"
        )
    return _api("SystemLib")(symbol_prefix)


def __getattr__(name):
    # ModulePropertyMask is made on first use: enum would slow `import tvm_ffi` for everyone.
    if name != "ModulePropertyMask":
        raise AttributeError(f"module 'tvm_ffi.module' has no attribute {name!r}")
    import enum

    class ModulePropertyMask(enum.IntEnum):
        """Bits of what a module can do: serialize to bytes, run, be exported for compilation."""

        BINARY_SERIALIZABLE = 1
        RUNNABLE = 2
        COMPILATION_EXPORTABLE = 4

    ModulePropertyMask.__module__ = __name__
    globals()["ModulePropertyMask"] = ModulePropertyMask
    return ModulePropertyMask


# ModulePropertyMask comes from __getattr__ above.
__all__ = ["Module", "ModulePropertyMask", "load_module", "system_lib"]  # noqa: F822
