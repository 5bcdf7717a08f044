"""Remote errors: what travels in an EXCEPTION frame and the class it is raised as here.

An EXCEPTION frame holds kind, message, traceback text and, when they are plain values,
the exception's arguments and public attributes, so that `OSError(errno, strerror,
filename)`, `UnicodeDecodeError(...)` or `SyntaxError(msg, details)` arrive as themselves.
A kind that cannot be rebuilt here (an unknown class, `SystemExit`, `ExceptionGroup`)
arrives as `RPCError` carrying the remote kind, message and traceback.
"""

import builtins
import traceback

import tvm_ffi
from tvm import error as _tvm_error
from tvm.error import RPCError

# kind name -> class raised locally (a subclass of the kind's own class and of RPCError;
# the kind first, so that its own __init__ fills its fields)
_RAISED_CLASSES = {}
_PLAIN_SCALARS = (type(None), bool, int, float, str, bytes)
# OSError keeps filename and filename2 out of .args; they travel as attributes.
_OSERROR_FIELDS = ("errno", "strerror", "filename", "filename2")


def error_kind(err):
    """The kind an exception travels as: its class name, or the kind it arrived with."""
    return getattr(err, "remote_kind", None) or type(err).__name__


def _plain(value, depth=0):
    """True when ``value`` is made of values every codec carries (no handles, no objects)."""
    if type(value) in _PLAIN_SCALARS:
        return not isinstance(value, int) or -(1 << 63) <= value < (1 << 63)
    if type(value) in (list, tuple) and depth < 8:
        return all(_plain(v, depth + 1) for v in value)
    return False


def _message(err):
    text = getattr(err, "remote_text", None)
    if text is not None:
        return text  # forwarded by a middle hop: keeps the tracebacks of the hops behind it
    if len(err.args) == 1 and isinstance(err.args[0], str):
        return err.args[0]
    try:
        return str(err)
    except Exception:  # noqa: BLE001  (a broken __str__ must not lose the error)
        return repr(err.args)


def _attributes(err):
    attrs = {}
    if isinstance(err, OSError):
        attrs.update((k, getattr(err, k)) for k in _OSERROR_FIELDS)
    attrs.update(
        (k, v)
        for k, v in getattr(err, "__dict__", {}).items()
        if not k.startswith("_") and not k.startswith("remote_")
    )
    return {k: v for k, v in attrs.items() if _plain(v)}


def describe(err):
    """The values of the EXCEPTION frame for an exception raised while serving a request:
    kind, message, traceback text, arguments (a list, or None when they are not plain
    values) and plain public attributes."""
    # Frames only: kind and message travel on their own (and a message that crossed other
    # hops already holds their tracebacks).
    frames = "".join(traceback.format_tb(err.__traceback__))
    args = getattr(err, "remote_args", err.args)
    return [
        error_kind(err),
        _message(err),
        f"Traceback (most recent call last):\n{frames}",
        list(args) if _plain(list(args)) else None,
        _attributes(err),
    ]


def _kind_class(kind):
    registered = getattr(getattr(tvm_ffi, "error", None), "error_class", None)
    cls = registered(kind) if registered is not None else None
    if isinstance(cls, type) and issubclass(cls, Exception):
        return cls  # a kind registered with tvm_ffi.register_error (or a builtin)
    for namespace in (_tvm_error, builtins):
        cls = getattr(namespace, kind, None)
        if isinstance(cls, type) and issubclass(cls, Exception):
            return cls
    return None


def _remote_str(self):
    text = self.__dict__.get("remote_text")
    return RPCError.__str__(self) if text is None else text


def raised_class(kind):
    """The class a remote error of ``kind`` is raised as: an RPCError that is also the kind."""
    cls = _RAISED_CLASSES.get(kind)
    if cls is not None:
        return cls
    base = _kind_class(kind)
    if base is None:
        cls = RPCError
    elif issubclass(base, RPCError):
        cls = base
    else:
        try:
            cls = type(
                f"Remote{kind}", (base, RPCError), {"__module__": __name__, "__str__": _remote_str}
            )
        except TypeError:  # layouts that cannot be combined: fall back to the RPC error alone
            cls = RPCError
    _RAISED_CLASSES[kind] = cls
    return cls


def _tuples(value):
    return tuple(_tuples(v) for v in value) if type(value) is list else value


def _construct(cls, args, text):
    """An instance of cls from the remote arguments (lists may have been tuples), else from
    the message alone, else None."""
    attempts = []
    if args is not None and cls.__str__ is _remote_str:
        attempts += [tuple(args), _tuples(args)]
    attempts.append((text,))
    for attempt in attempts:
        try:
            return cls(*attempt)
        except Exception:  # noqa: BLE001  (a constructor that wants other arguments)
            continue
    return None


def remote_error(kind, message, remote_traceback, args=None, attributes=None):
    """Build the exception to raise for an EXCEPTION frame."""
    text = message
    if remote_traceback:
        text = f"{message}\n\nRemote traceback:\n{remote_traceback.rstrip()}"
    cls = raised_class(kind)
    err = _construct(cls, args, text)
    if err is None or (cls is RPCError and kind != "RPCError"):
        # A kind not known here: the message names it.
        err = RPCError(f"{kind}: {text}" if kind != "RPCError" else text)
    for name, value in (attributes or {}).items():
        try:
            setattr(err, name, value)
        except (AttributeError, TypeError):
            pass
    err.remote_kind = kind
    err.remote_message = message
    err.remote_traceback = remote_traceback
    err.remote_args = tuple(args) if args is not None else (message,)
    if type(err).__str__ is _remote_str:
        err.remote_text = text
    return err
