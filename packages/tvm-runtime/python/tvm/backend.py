"""Backend autoload: find the `tvm.backends` entry points and call each callable exactly once.

`import tvm` runs autoload() last, when the runtime is fully set up, so a backend may
`import tvm` and use it. A failing backend is a BackendLoadWarning, never a failed import.
TVM_DEVICE_BACKEND_AUTOLOAD=0 turns autoload off; tvm.backend.load(name) then loads on demand.
"""

from __future__ import annotations

import os
import threading
import warnings

from . import _entry_points

GROUP = "tvm.backends"
ENV_AUTOLOAD = "TVM_DEVICE_BACKEND_AUTOLOAD"

DISCOVERED = "discovered"
LOADING = "loading"
LOADED = "loaded"
FAILED = "failed"
DISABLED = "disabled"


class BackendLoadWarning(RuntimeWarning):
    """A backend named by a `tvm.backends` entry point could not be loaded."""


class Backend:
    """One discovered backend: its entry point, state and, once failed, the error."""

    __slots__ = ("entry_point", "state", "error", "where", "result")

    def __init__(self, entry_point: _entry_points.EntryPoint, state: str):
        self.entry_point = entry_point
        self.state = state
        self.error: BaseException | None = None
        self.where: str | None = None
        self.result = None

    @property
    def name(self) -> str:
        return self.entry_point.name

    @property
    def value(self) -> str:
        return self.entry_point.value

    @property
    def dist(self) -> str:
        return self.entry_point.dist

    def describe(self) -> str:
        """`name (entry point tvm.backends: name = module:attr, from dist)`."""
        ep = self.entry_point
        return f"{ep.name!r} (entry point {ep.group}: {ep.name} = {ep.value}, from {ep.dist})"

    def __repr__(self) -> str:
        extra = f", error={self.error!r}" if self.error is not None else ""
        return f"Backend(name={self.name!r}, value={self.value!r}, state={self.state!r}{extra})"


_lock = threading.RLock()
_backends: dict[str, Backend] | None = None
_autoload_ran = False


def autoload_enabled() -> bool:
    """False when TVM_DEVICE_BACKEND_AUTOLOAD is 0/false/no/off."""
    return os.environ.get(ENV_AUTOLOAD, "1").strip().lower() not in ("0", "false", "no", "off")


def _discover() -> dict[str, Backend]:
    global _backends
    with _lock:
        if _backends is None:
            state = DISCOVERED if autoload_enabled() else DISABLED
            found: dict[str, Backend] = {}
            for ep in _entry_points.entry_points(GROUP):
                if ep.name in found:
                    first = found[ep.name]
                    dup = Backend(ep, FAILED)
                    dup.error = LookupError(
                        f"backend name {ep.name!r} is also declared by {first.dist} "
                        f"({first.value}); "
                        "the first one on sys.path is used"
                    )
                    _warn(dup)
                    continue
                found[ep.name] = Backend(ep, state)
            _backends = found
        return _backends


def _where(err: BaseException, backend: Backend) -> str:
    """file:line in function of the innermost frame that belongs to neither the import
    machinery nor this loader; for a module that is simply missing, what was being imported."""
    import importlib
    import traceback

    if isinstance(err, SyntaxError) and err.filename:
        return f"syntax error at {err.filename}:{err.lineno}"
    importlib_dir = os.path.dirname(importlib.__file__)
    loader_files = {os.path.abspath(__file__), os.path.abspath(_entry_points.__file__)}
    frames = [
        f
        for f in traceback.extract_tb(err.__traceback__)
        if not f.filename.startswith("<frozen")
        and os.path.dirname(os.path.abspath(f.filename)) != importlib_dir
        and os.path.abspath(f.filename) not in loader_files
    ]
    if not frames:
        return f"while importing module {backend.entry_point.module!r}"
    last = frames[-1]
    return f"raised at {last.filename}:{last.lineno} in {last.name}"


def _warn(backend: Backend) -> None:
    err = backend.error
    warnings.warn(
        f"tvm: backend {backend.describe()} failed to load: {type(err).__name__}: {err}"
        + (f" ({backend.where})" if backend.where else ""),
        BackendLoadWarning,
        stacklevel=3,
    )


def _call(backend: Backend) -> None:
    backend.state = LOADING
    try:
        target = backend.entry_point.load()
        if not callable(target):
            raise TypeError(
                f"entry point {backend.value!r} names a {type(target).__name__}, not a callable"
            )
        backend.result = target()
    except (
        BaseException
    ) as err:  # a broken backend, even one calling sys.exit, must not break `import tvm`
        backend.state = FAILED
        backend.error = err
        backend.where = _where(err, backend)
        if isinstance(err, KeyboardInterrupt):
            raise  # the user asked to stop
        return
    backend.state = LOADED


def autoload() -> None:
    """Load every discovered backend once; failures become BackendLoadWarnings."""
    global _autoload_ran
    with _lock:
        if _autoload_ran:
            return
        _autoload_ran = True
        if not autoload_enabled():
            _discover()
            return
        for backend in list(_discover().values()):
            if backend.state == DISCOVERED:
                _call(backend)
                if backend.state == FAILED:
                    _warn(backend)


def load(name: str) -> Backend:
    """Load one backend by entry-point name (also with autoload off); raise its error on failure."""
    if not isinstance(name, str):
        raise TypeError(
            f"tvm.backend.load: argument 'name' must be a str, got {type(name).__name__}"
        )
    with _lock:
        backends = _discover()
        backend = backends.get(name)
        if backend is None:
            known = ", ".join(sorted(backends)) or "none"
            raise LookupError(
                f"tvm.backend.load: no backend named {name!r} in entry-point group {GROUP!r} "
                f"(found: {known})"
            )
        if backend.state in (DISCOVERED, DISABLED):
            _call(backend)
        if backend.state == FAILED:
            raise RuntimeError(
                f"tvm.backend.load: backend {backend.describe()} failed: "
                f"{type(backend.error).__name__}: {backend.error} ({backend.where})"
            ) from backend.error
        return backend


def list_backends() -> list[Backend]:
    """Every backend found under `tvm.backends`, with its state (loaded, failed, disabled...)."""
    with _lock:
        return list(_discover().values())


__all__ = ["Backend", "BackendLoadWarning", "autoload", "autoload_enabled", "list_backends", "load"]
