"""Error kinds across the FFI: builtin exceptions by name, registered kinds, native tracebacks."""

import builtins
import collections
import sys
import types

from . import _core
from .registry import get_global_func, register_object

# Kind name <-> exception class (upstream's core.ERROR_NAME_TO_TYPE / ERROR_TYPE_TO_NAME).
_KIND_TO_CLASS = {}
_CLASS_TO_KIND = {}
_FRAME_CACHE = {}


class _FrameMarker(Exception):
    pass


def register_error(name_or_cls=None, cls=None):
    """Makes FFI errors of a kind surface as an exception class, and back.

    ``@register_error`` uses the class name as the kind; ``@register_error("Kind")`` names it;
    ``register_error("Kind", cls)`` registers directly.
    """
    if isinstance(name_or_cls, type):
        cls, name_or_cls = name_or_cls, None

    def register(klass):
        if not (isinstance(klass, type) and issubclass(klass, BaseException)):
            raise TypeError(f"register_error: expected an exception class, got {klass!r}")
        kind = name_or_cls or klass.__name__
        _KIND_TO_CLASS[kind] = klass
        _CLASS_TO_KIND[klass] = kind
        return klass

    return register if cls is None else register(cls)


def error_class(kind):
    """The exception class an FFI error of `kind` surfaces as."""
    cls = _KIND_TO_CLASS.get(kind)
    if cls is not None:
        return cls
    builtin = getattr(builtins, kind, None)
    if isinstance(builtin, type) and issubclass(builtin, Exception):
        return builtin
    return None


def _kind_of_exception(exc):
    for klass in type(exc).__mro__:
        kind = _CLASS_TO_KIND.get(klass)
        if kind is not None:
            return kind
    return type(exc).__name__


_MAX_TRACEBACK_FRAMES = 64


def _format_traceback(exc):
    # Runs at every callback boundary an exception crosses, so it must stay cheap on deep
    # tracebacks (recursion through the FFI): no source lookups, and only the newest frames.
    newest = collections.deque(maxlen=_MAX_TRACEBACK_FRAMES)
    skipped = -_MAX_TRACEBACK_FRAMES
    tb = exc.__traceback__
    while tb is not None:
        newest.append(tb)
        skipped += 1
        tb = tb.tb_next
    lines = [f"  ... {skipped} earlier frames omitted\n"] if skipped > 0 else []
    for tb in newest:
        code = tb.tb_frame.f_code
        lines.append(f'  File "{code.co_filename}", line {tb.tb_lineno}, in {code.co_name}\n')
    return "".join(lines)


def _parse_backtrace(backtrace):
    frames = []
    for line in backtrace.splitlines():
        line = line.strip()
        if not line.startswith('File "'):
            continue
        try:
            file_part, rest = line[len('File "') :].split('", line ', 1)
            line_part, func = rest.split(", in ", 1)
            frames.append((file_part, int(line_part), func))
        except ValueError:
            continue
    return frames


def _frame_for(filename, lineno, func):
    """A real frame (and instruction offset) whose code shows `filename:lineno` in `func`."""
    key = (filename, lineno, func)
    cached = _FRAME_CACHE.get(key)
    if cached is None:
        source = "\n" * max(lineno - 1, 0) + "raise _FrameMarker"
        code = compile(source, filename, "exec")
        if sys.version_info >= (3, 11):
            code = code.replace(co_name=func, co_qualname=func)
        else:
            code = code.replace(co_name=func)
        try:
            exec(code, {"_FrameMarker": _FrameMarker})
        except _FrameMarker as marker:
            tb = marker.__traceback__.tb_next
            cached = (tb.tb_frame, tb.tb_lasti)
            del marker, tb
        _FRAME_CACHE[key] = cached
    return cached


class TracebackManager:
    """Builds Python traceback entries for frames that are not Python's (C++ frames of an FFI
    error), as apache-tvm-ffi's ``tvm_ffi.error.TracebackManager`` does."""

    def append_traceback(self, tb, filename, lineno, func):
        """A traceback entry showing ``filename:lineno`` in ``func``, followed by ``tb``.

        The new entry is the outer one (``new_tb.tb_next is tb``), so building from the
        innermost frame outwards gives Python's order. Frames are cached by location.
        """
        if not isinstance(filename, str) or not isinstance(func, str):
            raise TypeError(
                "TracebackManager.append_traceback: `filename` and `func` must be str, got "
                f"{type(filename).__name__} and {type(func).__name__}"
            )
        if tb is not None and not isinstance(tb, types.TracebackType):
            raise TypeError(
                "TracebackManager.append_traceback: argument `tb` must be a traceback or None, "
                f"got {type(tb).__name__}"
            )
        lineno = int(lineno)
        frame, lasti = _frame_for(filename, lineno, func)
        # Without a known line, an instruction offset of -1 makes Python show line 0 as given.
        return types.TracebackType(tb, frame, lasti if lineno > 0 else -1, lineno)


_TRACEBACK_MANAGER = TracebackManager()


def _instantiate(cls, message):
    """cls(message), or the nearest base taking a lone message (UnicodeDecodeError needs five)."""
    for klass in cls.__mro__:
        if issubclass(klass, BaseException):
            try:
                return klass(message)
            except TypeError:
                continue
    return RuntimeError(message)


@register_object("ffi.Error")
class Error(_core.Object):
    """An FFI error object: its ``kind`` ("ValueError"), ``message`` and ``backtrace`` text.

    Every exception raised out of an FFI call carries the one it came from as
    ``__tvm_ffi_error__``. Do not raise an Error itself: raise ``err.py_error()``.
    """

    __slots__ = ()

    def __init__(self, kind, message, backtrace):
        for name, value in (("kind", kind), ("message", message), ("backtrace", backtrace)):
            if not isinstance(value, str):
                raise TypeError(
                    f"Error: argument `{name}` must be a str, got {type(value).__name__}"
                )
        self.__init_handle_by_constructor__(get_global_func("ffi.Error"), kind, message, backtrace)

    @property
    def kind(self):
        return _core.error_fields(self)[0]

    @property
    def message(self):
        return _core.error_fields(self)[1]

    @property
    def backtrace(self):
        """Frames, one a line (``  File "F", line N, in FUNC``), most recent call last."""
        return _core.error_fields(self)[2]

    def update_backtrace(self, backtrace):
        """Replaces the stored backtrace text with `backtrace`."""
        if not isinstance(backtrace, str):
            raise TypeError(
                "Error.update_backtrace: argument `backtrace` must be a str, "
                f"got {type(backtrace).__name__}"
            )
        get_global_func("ffi.ErrorUpdateBacktrace")(self, backtrace, 0)

    def append_backtrace(self, backtrace):
        """Puts older frames `backtrace` before the stored ones (as an error propagates out)."""
        if not isinstance(backtrace, str):
            raise TypeError(
                "Error.append_backtrace: argument `backtrace` must be a str, "
                f"got {type(backtrace).__name__}"
            )
        get_global_func("ffi.ErrorUpdateBacktrace")(self, backtrace, 1)

    def py_error(self):
        """The Python exception for this error (class by kind, the backtrace as its traceback)."""
        kind, message, backtrace = _core.error_fields(self)
        return _make_exception(kind, message, backtrace, self)

    def __repr__(self):
        if not self.__ffi_handle__:
            return _core.Object.__repr__(self)
        return f"ffi.Error({self.kind!r}, {self.message!r})"


def _make_exception(kind, message, backtrace, error=None):
    cls = error_class(kind)
    if cls is None:
        cls, message = RuntimeError, f"{kind}: {message}"
    exc = _instantiate(cls, message)
    tb = None
    for filename, lineno, func in reversed(_parse_backtrace(backtrace)):
        tb = _TRACEBACK_MANAGER.append_traceback(tb, filename, lineno, func)
    if error is not None:
        try:
            exc.__tvm_ffi_error__ = error
        except AttributeError:  # a registered class with __slots__ and no __dict__
            pass
    return exc.with_traceback(tb)


_core.set_error_hooks(_make_exception, _kind_of_exception, _format_traceback)

for _cls in (
    ValueError,
    TypeError,
    AttributeError,
    KeyError,
    IndexError,
    RuntimeError,
    NotImplementedError,
    AssertionError,
    MemoryError,
    TimeoutError,
    OverflowError,
):
    register_error(_cls)
