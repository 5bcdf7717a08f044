"""Remote errors: what travels in an EXCEPTION frame and the class it is raised as here."""

import builtins
import traceback

import tvm_ffi

from tvm import error as _tvm_error
from tvm.error import RPCError

# kind name -> class raised locally (a subclass of both RPCError and the kind's own class)
_RAISED_CLASSES = {}


def error_kind(err):
    """The kind an exception travels as: its class name, or the kind it arrived with."""
    return getattr(err, "remote_kind", None) or type(err).__name__


def describe(err):
    """(kind, message, traceback text) of an exception raised while serving a request."""
    if len(err.args) == 1 and isinstance(err.args[0], str):
        message = err.args[0]
    else:
        message = str(err)
    # Frames only: kind and message travel on their own (and a message that crossed other
    # hops already holds their tracebacks).
    frames = "".join(traceback.format_tb(err.__traceback__))
    return error_kind(err), message, f"Traceback (most recent call last):\n{frames}"


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
            cls = type(f"Remote{kind}", (RPCError, base), {"__module__": __name__})
        except TypeError:  # layouts that cannot be combined: fall back to the RPC error alone
            cls = RPCError
    _RAISED_CLASSES[kind] = cls
    return cls


def remote_error(kind, message, remote_traceback):
    """Build the exception to raise for an EXCEPTION frame."""
    text = message
    if remote_traceback:
        text = f"{message}\n\nRemote traceback:\n{remote_traceback.rstrip()}"
    err = raised_class(kind)(text)
    err.remote_kind = kind
    return err
