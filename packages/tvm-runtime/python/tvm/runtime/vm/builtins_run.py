"""The run-time ops the Relax lowering calls by name: relax.run.assert_op (AssertionError with
the formatted message) and relax.run.print."""

from __future__ import annotations

import tvm_ffi

from .builtins import builtin, read_if_cond


def _shown(value):
    """How a format argument prints: a tensor as its values (NumPy's text, when present)."""
    if isinstance(value, tvm_ffi.Tensor):
        try:
            return value.numpy()
        except Exception:  # noqa: BLE001  (no NumPy: the tensor's own text)
            return value
    return value


def _format(fmt: str, args) -> str:
    shown = [_shown(a) for a in args]
    if not fmt:
        return ", ".join(str(a) for a in shown)
    return str(fmt).format(*shown)


@builtin("relax.run.assert_op")
def assert_op(cond, fmt="", *args):
    """Raise AssertionError with fmt.format(*args) when cond (a bool or a scalar bool tensor)
    is false."""
    if read_if_cond(cond):
        return None
    message = _format(fmt, args)
    raise AssertionError(message or "Assertion Failed")


@builtin("relax.run.print")
def print_op(fmt="", *args):
    """Print fmt.format(*args) (or the arguments, comma separated, when fmt is empty)."""
    print(_format(fmt, args))
    return None
