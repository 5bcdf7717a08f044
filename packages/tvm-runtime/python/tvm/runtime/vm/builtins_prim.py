"""The VM builtins for symbolic scalars and checks the compiler emits: make_prim_value /
match_prim_value (R.Prim values through the shape heap), relax.run.assert_op and print."""

from __future__ import annotations

import tvm_ffi

from .builtins import _heap_view, _where, builtin, read_if_cond
from .shape_codes import MakeShapeCode, MatchShapeCode


@builtin("vm.builtin.make_prim_value")
def make_prim_value(heap, code, value):
    """A scalar: the immediate itself or a load from the shape heap (MakeShapeCode)."""
    if code == MakeShapeCode.kUseImm:
        return int(value)
    if code == MakeShapeCode.kLoadShape:
        return int(_heap_view(heap)[value])
    raise ValueError(f"vm.builtin.make_prim_value: unknown MakeShapeCode {code}")


@builtin("vm.builtin.match_prim_value")
def match_prim_value(value, heap, code, reg, err_ctx=None):
    """Check or record a scalar R.Prim value, as match_shape does for one dimension."""
    where = _where(err_ctx, "vm.builtin.match_prim_value")
    if isinstance(value, tvm_ffi.Tensor) or not isinstance(value, (int, bool)):
        raise TypeError(f"{where}: expected an int, got {type(value).__name__}")
    value = int(value)
    if code == MatchShapeCode.kNoOp:
        return None
    if code == MatchShapeCode.kStoreToHeap:
        _heap_view(heap)[reg] = value
    elif code == MatchShapeCode.kAssertEqualToImm:
        if value != reg:
            raise ValueError(f"{where}: the value is {value}, expected {reg}")
    elif code == MatchShapeCode.kAssertEqualToLoad:
        expected = _heap_view(heap)[reg]
        if value != expected:
            raise ValueError(f"{where}: the value is {value}, expected {expected}")
    else:
        raise ValueError(f"vm.builtin.match_prim_value: unknown MatchShapeCode {code}")
    return None


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
