"""tvm.runtime.Module: FFI modules with export_library and time_evaluator."""

from __future__ import annotations

import os

import tvm_ffi

from .device import Device
from .elf_check import check_elf_complete
from .time_evaluator import make_time_evaluator

# Module kind -> function(module, file_name, **kwargs) writing it as a shared library;
# the compiler registers exporters for the module kinds it produces.
_EXPORTERS: dict = {}


def register_exporter(kind: str, exporter, *, override: bool = False) -> None:
    """Teach export_library to write modules of `kind`."""
    if not callable(exporter):
        raise TypeError(
            "register_exporter: argument 'exporter' must be callable, got "
            f"{type(exporter).__name__}"
        )
    if kind in _EXPORTERS and not override:
        raise ValueError(
            f"register_exporter: kind {kind!r} already has an exporter; pass override=True"
        )
    _EXPORTERS[kind] = exporter


@tvm_ffi.register_object("ffi.Module")
class Module(tvm_ffi.Module):
    """A loaded module; its functions are found with mod["name"] or get_function, and
    calling the module itself runs its entry function (`main`)."""

    entry_name = "main"

    def __call__(self, *args):
        entry = self.get_function(self.entry_name, allow_missing=True)
        if entry is None:
            raise AttributeError(
                f"Module.__call__: module {self.path or self.kind!r} has no "
                f"entry function {self.entry_name!r}; call one by name, "
                "mod['name'](...)"
            )
        return entry(*args)

    def inspect_source(self, fmt: str = "") -> str:
        """The source this module was compiled from (C for the C backend), when it is known.

        fmt: "" or the source's own format ("c"); anything else is a ValueError."""
        if fmt not in ("", "c"):
            raise ValueError(
                f"Module.inspect_source: argument 'fmt' must be '' or 'c', got {fmt!r}"
            )
        path = self.path
        source = os.path.splitext(path)[0] + ".c" if path else None
        if source is None or not os.path.isfile(source):
            raise ValueError(
                f"Module.inspect_source: the source of {path or self.kind!r} is not "
                "known here (only machine code was loaded); compile the module in "
                "this process, or keep the source beside the library as NAME.c"
            )
        with open(source, encoding="utf-8") as file:
            return file.read()

    get_source = inspect_source

    def export_library(self, file_name, **kwargs) -> str:
        """Write this module as a shared library at file_name; returns the path written."""
        if not isinstance(file_name, (str, os.PathLike)):
            raise TypeError(
                "Module.export_library: argument 'file_name' must be a path, got "
                f"{type(file_name).__name__}"
            )
        target = os.fspath(file_name)
        if os.path.isdir(target):  # the partial file went beside it, then failed to replace it
            raise IsADirectoryError(
                f"Module.export_library: argument 'file_name' {target!r} is a directory; give "
                "the path of the library file to write (e.g. model.so)"
            )
        exporter = _EXPORTERS.get(self.kind)
        if exporter is not None:
            exporter(self, target, **kwargs)
            return target
        source = self.path
        if kwargs:
            raise TypeError(
                f"Module.export_library: unexpected arguments {sorted(kwargs)} for a "
                f"{self.kind!r} module"
            )
        if not source or not os.path.isfile(source):
            raise ValueError(
                f"Module.export_library: a {self.kind!r} module without a library file cannot "
                "be exported "
                "(no exporter registered for this kind)"
            )
        if not os.path.exists(target) or not os.path.samefile(source, target):
            import shutil  # only here: it pulls in compression modules `import tvm` does not need
            import tempfile

            folder = os.path.dirname(os.path.abspath(target))
            os.makedirs(folder, exist_ok=True)
            # Write beside the target, then rename: rewriting a library in place would change
            # the code under a process that has it loaded (a crash on its next call).
            fd, partial = tempfile.mkstemp(dir=folder, prefix=".export-", suffix=".so")
            os.close(fd)
            try:
                shutil.copyfile(source, partial)
                # mkstemp made the file 0600: keep the compiled library's mode (0755 under the
                # usual umask), or no other user (a model server) could load the export.
                shutil.copymode(source, partial)
                os.replace(partial, target)
            except BaseException:
                os.unlink(partial)
                raise
        return target

    def time_evaluator(
        self,
        func_name: str,
        dev: Device,
        number: int = 10,
        repeat: int = 1,
        min_repeat_ms: int = 0,
        cooldown_interval_ms: int = 0,
        repeats_to_cooldown: int = 1,
    ):
        """A callable timing self[func_name]; a call returns a ProfileResult (seconds per run)."""
        func = self.get_function(func_name)
        return make_time_evaluator(
            func, dev, number, repeat, min_repeat_ms, cooldown_interval_ms, repeats_to_cooldown
        )


def load_module(path) -> Module:
    """Open any FFI library (a shared library exporting __tvm_ffi_<name> functions)."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(
            f"tvm.runtime.load_module: argument 'path' must be a path, got {type(path).__name__}"
        )
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"tvm.runtime.load_module: no file at {path!r}")
    check_elf_complete("tvm.runtime.load_module", path)
    return tvm_ffi.load_module(_fresh_load_path(path))


# realpath -> (device, inode) of the file last loaded from that path in this process.
_LOADED_FILES: dict[str, tuple[int, int]] = {}


def _fresh_load_path(path: str) -> str:
    """`path`, or a private copy of it when another file was loaded from that path before.

    The dynamic loader hands back the library already loaded under a path name, so after a
    file is replaced (export_library to the same name again) loading the path would silently
    return the old code. A copy under a new name loads the new file.
    """
    real = os.path.realpath(path)
    info = os.stat(real)
    identity = (info.st_dev, info.st_ino)
    previous = _LOADED_FILES.setdefault(real, identity)
    if previous == identity:
        return path
    import shutil
    import tempfile

    fd, copy = tempfile.mkstemp(dir=_reload_folder(), suffix=f"-{os.path.basename(real)}")
    os.close(fd)
    shutil.copyfile(real, copy)
    return copy


_RELOAD_FOLDER: list[str] = []


def _reload_folder() -> str:
    """A folder for this process's reload copies, removed at exit."""
    if not _RELOAD_FOLDER:
        import atexit
        import shutil
        import tempfile

        _RELOAD_FOLDER.append(tempfile.mkdtemp(prefix="tvm-reload-"))
        atexit.register(shutil.rmtree, _RELOAD_FOLDER[0], True)
    return _RELOAD_FOLDER[0]
