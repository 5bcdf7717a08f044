"""get_static_type: struct info with its symbolic values dropped, keeping what a type
says (kind, dtype, ndim, field and parameter types)."""

from __future__ import annotations

from ..struct_info import (
    FuncStructInfo,
    ObjectStructInfo,
    PrimStructInfo,
    ShapeStructInfo,
    TensorStructInfo,
    TupleStructInfo,
)
from ._checks import expect_struct_info


def _static(sinfo):
    if isinstance(sinfo, TensorStructInfo):
        return TensorStructInfo(dtype=sinfo.dtype, ndim=sinfo.ndim, vdevice=sinfo.vdevice)
    if isinstance(sinfo, ShapeStructInfo):
        return ShapeStructInfo(ndim=sinfo.ndim)
    if isinstance(sinfo, PrimStructInfo):
        return PrimStructInfo(sinfo.dtype)
    if isinstance(sinfo, TupleStructInfo):
        return TupleStructInfo([_static(f) for f in sinfo.fields])
    if isinstance(sinfo, FuncStructInfo):
        if sinfo.is_opaque():
            return FuncStructInfo.opaque_func(ret=_static(sinfo.ret), purity=sinfo.purity)
        return FuncStructInfo([_static(p) for p in sinfo.params], _static(sinfo.ret), sinfo.purity)
    return ObjectStructInfo()


def get_static_type(sinfo):
    """The static type of sinfo, as struct info without symbolic shapes or values (0.26+
    returns the same; 0.25 returned a separate relax Type class)."""
    expect_struct_info("get_static_type", sinfo)
    return _static(sinfo)
