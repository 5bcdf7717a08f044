"""tvm.runtime.Module: FFI modules with export_library and time_evaluator."""
from __future__ import annotations

import os

import tvm_ffi

from .device import Device
from .time_evaluator import make_time_evaluator

# Module kind -> function(module, file_name, **kwargs) writing it as a shared library;
# the compiler registers exporters for the module kinds it produces.
_EXPORTERS: dict = {}


def register_exporter(kind: str, exporter, *, override: bool = False) -> None:
    """Teach export_library to write modules of `kind`."""
    if not callable(exporter):
        raise TypeError(f"register_exporter: argument 'exporter' must be callable, got {type(exporter).__name__}")
    if kind in _EXPORTERS and not override:
        raise ValueError(f"register_exporter: kind {kind!r} already has an exporter; pass override=True")
    _EXPORTERS[kind] = exporter


@tvm_ffi.register_object("ffi.Module")
class Module(tvm_ffi.Module):
    """A loaded module; its functions are found with mod["name"] or get_function."""

    def export_library(self, file_name, **kwargs) -> str:
        """Write this module as a shared library at file_name; returns the path written."""
        if not isinstance(file_name, (str, os.PathLike)):
            raise TypeError(f"Module.export_library: argument 'file_name' must be a path, got {type(file_name).__name__}")
        target = os.fspath(file_name)
        exporter = _EXPORTERS.get(self.kind)
        if exporter is not None:
            exporter(self, target, **kwargs)
            return target
        source = self.path
        if kwargs:
            raise TypeError(f"Module.export_library: unexpected arguments {sorted(kwargs)} for a {self.kind!r} module")
        if not source or not os.path.isfile(source):
            raise ValueError(
                f"Module.export_library: a {self.kind!r} module without a library file cannot be exported "
                "(no exporter registered for this kind)"
            )
        if not os.path.exists(target) or not os.path.samefile(source, target):
            import shutil  # only here: it pulls in compression modules `import tvm` does not need

            os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
            shutil.copyfile(source, target)
        return target

    def time_evaluator(self, func_name: str, dev: Device, number: int = 10, repeat: int = 1,
                       min_repeat_ms: int = 0, cooldown_interval_ms: int = 0, repeats_to_cooldown: int = 1):
        """A callable timing self[func_name]; calling it returns a ProfileResult (seconds per run)."""
        func = self.get_function(func_name)
        return make_time_evaluator(func, dev, number, repeat, min_repeat_ms, cooldown_interval_ms, repeats_to_cooldown)


def load_module(path) -> Module:
    """Open any FFI library (a shared library exporting __tvm_ffi_<name> functions)."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"tvm.runtime.load_module: argument 'path' must be a path, got {type(path).__name__}")
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"tvm.runtime.load_module: no file at {path!r}")
    return tvm_ffi.load_module(path)
