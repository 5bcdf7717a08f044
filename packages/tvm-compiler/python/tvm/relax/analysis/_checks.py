"""Argument checks the analysis functions share (a TypeError naming function and argument)."""

from __future__ import annotations


def expect(who: str, arg: str, value, cls, what: str):
    if not isinstance(value, cls):
        raise TypeError(f"{who}: {arg} must be {what}, got {type(value).__name__}")
    return value


def expect_function(who: str, value, arg: str = "func"):
    from ..expr import Function

    return expect(who, arg, value, Function, "a relax Function")


def expect_struct_info(who: str, value, arg: str = "sinfo"):
    from ..struct_info import StructInfo

    return expect(who, arg, value, StructInfo, "a relax StructInfo (Type)")
