"""PrimFunc: a TIR function with parameters, a buffer map for tensor parameters, and a body."""

from __future__ import annotations

from tvm.ir.dtype import DataType
from tvm.ir.module import BaseFunc

from .buffer import Buffer
from .expr import Var
from .stmt import Stmt


class PrimFunc(BaseFunc):
    """params are Vars; a handle param in buffer_map receives a tensor seen as that Buffer."""

    _fields = ("params", "buffer_map", "body", "ret_type", "attrs")
    _def_fields = ("params", "buffer_map")
    _unvisited_fields = ("buffer_map",)
    _key_namespace = "tir"

    def __init__(self, params, body, ret_type=None, buffer_map=None, attrs=None, span=None):
        params = tuple(params)
        for p in params:
            if not isinstance(p, Var):
                raise TypeError(f"PrimFunc: params must be Vars, got {type(p).__name__}")
        if len({id(p) for p in params}) != len(params):
            raise ValueError("PrimFunc: a parameter appears twice")
        buffer_map = dict(buffer_map or {})
        for var, buf in buffer_map.items():
            if not any(var is p for p in params):
                raise ValueError(f"PrimFunc: buffer_map key {var.name!r} is not a parameter")
            if not isinstance(buf, Buffer):
                raise TypeError(f"PrimFunc: buffer_map values must be Buffers, got {buf!r}")
        if not isinstance(body, Stmt):
            raise TypeError(f"PrimFunc: body must be a Stmt, got {type(body).__name__}")
        self._set(
            params=params,
            body=body,
            ret_type=None if ret_type is None else DataType(ret_type),
            buffer_map=buffer_map,
            attrs=dict(attrs or {}),
            span=span,
        )

    def with_body(self, body: Stmt) -> PrimFunc:
        return self.with_fields(body=body)
