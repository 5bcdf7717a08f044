"""type_base_check: the fine-grained base check of 0.26+ (BaseCheckResult), telling a static
mismatch (FAIL_L0, FAIL_L1) from one only a run-time check could settle (FAIL_L2)."""

from __future__ import annotations

from enum import IntEnum

from tvm.tir import expr as E

from ..struct_info import (
    FuncStructInfo,
    ObjectStructInfo,
    PrimStructInfo,
    ShapeStructInfo,
    StructInfo,
    TensorStructInfo,
    TupleStructInfo,
)
from .struct_info_analysis import _dims, _prove_equal


class BaseCheckResult(IntEnum):
    """FAIL_L0: no value fits both; FAIL_L1: the static information (dtype, ndim, kind) of
    derived is too coarse to tell; FAIL_L2: symbolic values that may or may not match at run
    time; PASS: base describes every value derived does."""

    FAIL_L0 = 0
    FAIL_L1 = 1
    FAIL_L2 = 2
    PASS = 3


_P, _L0, _L1, _L2 = (
    BaseCheckResult.PASS,
    BaseCheckResult.FAIL_L0,
    BaseCheckResult.FAIL_L1,
    BaseCheckResult.FAIL_L2,
)


def _value_check(a, b) -> BaseCheckResult:
    if _prove_equal(a, b):
        return _P
    if isinstance(a, E.IntImm) and isinstance(b, E.IntImm):
        return _L0
    return _L2


def _values_check(a, b) -> BaseCheckResult:
    if len(a) != len(b):
        return _L0
    return min((_value_check(x, y) for x, y in zip(a, b)), default=_P)


def _check(base, derived) -> BaseCheckResult:
    if isinstance(base, ObjectStructInfo):
        return _P
    if type(base) is not type(derived):
        return _L1 if isinstance(derived, ObjectStructInfo) else _L0
    if isinstance(base, PrimStructInfo):
        if base.dtype != derived.dtype:
            return _L0
        if base.value is None:
            return _P
        return _L2 if derived.value is None else _value_check(base.value, derived.value)
    if isinstance(base, ShapeStructInfo):
        if base.ndim != -1 and base.ndim != derived.ndim:
            return _L1 if derived.ndim == -1 else _L0
        if base.values is None:
            return _P
        return _L2 if derived.values is None else _values_check(base.values, derived.values)
    if isinstance(base, TensorStructInfo):
        if base.dtype != "void" and base.dtype != derived.dtype:
            return _L1 if derived.dtype == "void" else _L0
        if base.ndim != -1 and base.ndim != derived.ndim:
            return _L1 if derived.ndim == -1 else _L0
        if base.vdevice is not None and base.vdevice != derived.vdevice:
            return _L1 if derived.vdevice is None else _L0
        base_dims = _dims(base)
        if base_dims is None:
            return _P if base.shape is None or base.shape is derived.shape else _L2
        derived_dims = _dims(derived)
        return _L2 if derived_dims is None else _values_check(base_dims, derived_dims)
    if isinstance(base, TupleStructInfo):
        if len(base.fields) != len(derived.fields):
            return _L0
        return min((_check(b, d) for b, d in zip(base.fields, derived.fields)), default=_P)
    if isinstance(base, FuncStructInfo):
        if base.purity and not derived.purity:
            return _L0
        if base.is_opaque():
            return _P
        if derived.is_opaque():
            return _L2
        if len(base.params) != len(derived.params):
            return _L0
        # parameters are contravariant: derived must accept whatever base accepts
        results = [_check(d, b) for b, d in zip(base.params, derived.params)]
        results.append(_check(base.ret, derived.ret))
        return min(results)
    return _L0


def type_base_check(base: StructInfo, derived: StructInfo) -> BaseCheckResult:
    """How far base is from describing every value derived describes (0.26+ name)."""
    for name, value in (("base", base), ("derived", derived)):
        if not isinstance(value, StructInfo):
            raise TypeError(
                f"type_base_check: {name} must be a relax Type (StructInfo), "
                f"got {type(value).__name__}"
            )
    return _check(base, derived)
