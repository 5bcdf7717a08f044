"""TIR statements: stores, loops, sequences, branches, bindings, allocations, asserts and blocks."""

from __future__ import annotations

import enum
import math

from tvm.ir.node import Node

from .buffer import Buffer
from .expr import IntImm, PrimExpr, Range, Var, _as_bool, access_dtype, convert


class Stmt(Node):
    """Base of TIR statements."""

    _key_namespace = "tir"


def _stmt(value, who: str) -> Stmt:
    if not isinstance(value, Stmt):
        raise TypeError(f"{who}: expected a Stmt, got {type(value).__name__}")
    return value


class BufferStore(Stmt):
    _fields = ("buffer", "value", "indices")
    _unvisited_fields = ("buffer",)

    def __init__(self, buffer, value, indices, span=None):
        if not isinstance(buffer, Buffer):
            raise TypeError(f"BufferStore: buffer must be a Buffer, got {type(buffer).__name__}")
        value = convert(value)
        indices = tuple(convert(i) for i in indices)
        if len(indices) != len(buffer.shape):
            raise ValueError(
                f"BufferStore: buffer {buffer.name!r} has {len(buffer.shape)} dimensions, "
                f"got {len(indices)} indices"
            )
        expected = access_dtype(buffer, indices)
        if value.dtype.lanes != expected.lanes:
            raise TypeError(
                f"BufferStore: storing a value of dtype {value.dtype} into "
                f"{buffer.name!r} needs {expected.lanes} lanes ({expected})"
            )
        if value.dtype != expected:
            value = value.astype(expected)
        self._set(buffer=buffer, value=value, indices=indices, span=span)


class ForKind(enum.Enum):
    SERIAL = "serial"
    PARALLEL = "parallel"
    VECTORIZED = "vectorized"
    UNROLLED = "unroll"
    THREAD_BINDING = "thread_binding"


# A PARALLEL loop's annotation: a condition (a PrimExpr of the function's shape variables)
# under which the loop runs in parallel; otherwise it runs on the calling thread. A kernel
# with a symbolic batch gets it when a small batch's work would not repay starting threads.
PARALLEL_IF = "parallel_if"
# Functions the C backend defines in a module whose loops call them (codegen/c/cpu_spare.py;
# tir.call_extern("int32", name)). SPARE_THREADS: how many threads a parallel loop runs on now,
# the CPUs other threads left idle over the last ~200 ms (every top-level parallel loop of
# the C backend asks it: on a CPU another thread keeps busy a loop's closing barrier waits
# for a worker the scheduler is not running, a 20 us loop took 0.7 ms). CPU_SPARE: nonzero
# while that is more than one, for a PARALLEL_IF condition (dlight's GEMV asks it, so its
# loop does not even start a team when no second CPU is free).
SPARE_THREADS = "tvm_spare_threads"
CPU_SPARE = "tvm_cpu_spare"


class For(Stmt):
    """for loop_var in [min, min + extent): body; a THREAD_BINDING loop names its GPU thread
    axis in thread_binding ("blockIdx.x", "threadIdx.x", ...)."""

    _fields = ("loop_var", "min", "extent", "kind", "body", "annotations", "thread_binding")
    _def_fields = ("loop_var",)

    def __init__(
        self,
        loop_var,
        min,
        extent,
        kind=ForKind.SERIAL,
        body=None,  # noqa: A002
        annotations=None,
        span=None,
        thread_binding=None,
    ):
        if not isinstance(loop_var, Var):
            raise TypeError(f"For: loop_var must be a Var, got {type(loop_var).__name__}")
        if not isinstance(kind, ForKind):
            kind = ForKind(kind)
        min_expr = convert(min).astype(loop_var.dtype)
        extent_expr = convert(extent).astype(loop_var.dtype)
        self._set(
            loop_var=loop_var,
            min=min_expr,
            extent=extent_expr,
            kind=kind,
            body=_stmt(body, "For"),
            annotations=dict(annotations or {}),
            span=span,
            thread_binding=thread_binding,
        )


class While(Stmt):
    """Run body again and again while condition (a scalar bool, evaluated before each pass)
    holds."""

    _fields = ("condition", "body")

    def __init__(self, condition, body, span=None):
        condition = _as_bool(condition, "While")
        if condition.dtype.lanes != 1:
            raise TypeError(f"While: expected a scalar bool condition, got dtype {condition.dtype}")
        self._set(condition=condition, body=_stmt(body, "While"), span=span)


class SeqStmt(Stmt):
    _fields = ("seq",)

    def __init__(self, seq, span=None):
        flat = []
        for s in seq:
            s = _stmt(s, "SeqStmt")
            flat.extend(s.seq if isinstance(s, SeqStmt) else [s])
        self._set(seq=tuple(flat), span=span)

    def with_fields(self, **changes):
        # A mutator that replaces one statement by a SeqStmt must not nest sequences: nested
        # ones print flat and so would parse back as another node.
        if "seq" in changes:
            changes = {**changes, "seq": SeqStmt(changes["seq"]).seq}
        return super().with_fields(**changes)

    def __len__(self):
        return len(self.seq)

    def __getitem__(self, i):
        return self.seq[i]


def seq(*stmts) -> Stmt:
    """One statement for several: the statement itself when there is one."""
    flat = SeqStmt(stmts).seq
    if len(flat) == 1:
        return flat[0]
    return SeqStmt(flat)


class IfThenElse(Stmt):
    _fields = ("condition", "then_case", "else_case")

    def __init__(self, condition, then_case, else_case=None, span=None):
        self._set(
            condition=_as_bool(condition, "IfThenElse"),
            then_case=_stmt(then_case, "IfThenElse"),
            else_case=None if else_case is None else _stmt(else_case, "IfThenElse"),
            span=span,
        )


class LetStmt(Stmt):
    _fields = ("var", "value", "body")
    _def_fields = ("var",)

    def __init__(self, var, value, body, span=None):
        if not isinstance(var, Var):
            raise TypeError(f"LetStmt: var must be a Var, got {type(var).__name__}")
        value = convert(value)
        if value.dtype != var.dtype:
            raise TypeError(
                f"LetStmt: value dtype {value.dtype} does not match {var.name}: {var.dtype}"
            )
        self._set(var=var, value=value, body=_stmt(body, "LetStmt"), span=span)


class Allocate(Stmt):
    """Allocate extents of dtype at buffer_var for the duration of body."""

    _fields = ("buffer_var", "dtype", "extents", "body")
    _def_fields = ("buffer_var",)

    def __init__(self, buffer_var, dtype, extents, body, span=None):
        from tvm.ir.dtype import DataType

        if not isinstance(buffer_var, Var) or not buffer_var.dtype.is_handle:
            raise TypeError(f"Allocate: buffer_var must be a handle Var, got {buffer_var!r}")
        self._set(
            buffer_var=buffer_var,
            dtype=DataType(dtype),
            extents=tuple(convert(e) for e in extents),
            body=_stmt(body, "Allocate"),
            span=span,
        )


class AllocateConst(Stmt):
    """Constant data (a tvm.runtime.Tensor of dtype, extents' shape) at buffer_var for the
    duration of body; compared by the data's content."""

    _fields = ("buffer_var", "dtype", "extents", "data", "_content", "body", "annotations")
    _def_fields = ("buffer_var",)
    _ignored_fields = ("span", "data")
    _unvisited_fields = ("data", "_content")

    def __init__(self, buffer_var, dtype, extents, data_or_idx, body, annotations=None, span=None):
        import numpy as np
        import tvm.runtime
        from tvm.ir.dtype import DataType
        from tvm.ir.structural import tensor_content

        if not isinstance(buffer_var, Var) or not buffer_var.dtype.is_handle:
            raise TypeError(f"AllocateConst: buffer_var must be a handle Var, got {buffer_var!r}")
        dtype = DataType(dtype)
        if dtype.lanes != 1 or not (dtype.is_int or dtype.is_uint or dtype.is_float):
            raise TypeError(
                f"AllocateConst: dtype must be a scalar int, uint or float, got {dtype}"
            )
        extents = tuple(convert(e) for e in extents)
        if isinstance(data_or_idx, tvm.runtime.Tensor):
            array = data_or_idx.numpy()
        elif isinstance(data_or_idx, np.ndarray):
            array = data_or_idx
        else:
            raise TypeError(
                "AllocateConst: data_or_idx must be a tvm.runtime.Tensor or a NumPy array, "
                f"got {type(data_or_idx).__name__}"
            )
        if str(array.dtype) != str(dtype):
            raise TypeError(f"AllocateConst: data has dtype {array.dtype}, expected {dtype}")
        if all(isinstance(e, IntImm) for e in extents):
            sizes = [e.value for e in extents]
            if any(size < 0 for size in sizes):
                raise ValueError(f"AllocateConst: extents must be >= 0, got {sizes}")
            count = math.prod(sizes)  # exact: np.prod wraps around past int64
            if array.size != count:
                raise ValueError(
                    f"AllocateConst: data has {array.size} elements, extents "
                    f"{[e.value for e in extents]} hold {count}"
                )
        data = data_or_idx
        if not isinstance(data, tvm.runtime.Tensor):
            data = tvm.runtime.tensor(np.ascontiguousarray(array))
        self._set(
            buffer_var=buffer_var,
            dtype=dtype,
            extents=extents,
            data=data,
            _content=tensor_content(array),
            body=_stmt(body, "AllocateConst"),
            annotations=dict(annotations or {}),
            span=span,
        )


class DeclBuffer(Stmt):
    """Declare buffer (over memory already allocated) for the duration of body."""

    _fields = ("buffer", "body")
    _def_fields = ("buffer",)
    _unvisited_fields = ("buffer",)

    def __init__(self, buffer, body, span=None):
        if not isinstance(buffer, Buffer):
            raise TypeError(f"DeclBuffer: expected a Buffer, got {type(buffer).__name__}")
        self._set(buffer=buffer, body=_stmt(body, "DeclBuffer"), span=span)


class AssertStmt(Stmt):
    _fields = ("condition", "message", "body")

    def __init__(self, condition, message, body, span=None):
        if not isinstance(message, str):
            raise TypeError(f"AssertStmt: message must be a str, got {type(message).__name__}")
        self._set(
            condition=_as_bool(condition, "AssertStmt"),
            message=message,
            body=_stmt(body, "AssertStmt"),
            span=span,
        )


class Evaluate(Stmt):
    """Evaluate an expression for its effect (a call)."""

    _fields = ("value",)

    def __init__(self, value, span=None):
        self._set(value=convert(value), span=span)


class IterVar(Node):
    """A block iterator: its domain, its variable, and whether it is spatial or a reduction."""

    DataPar = 0
    CommReduce = 2
    _fields = ("dom", "var", "iter_type")
    _key_namespace = "tir"
    _def_fields = ("var",)

    def __init__(self, dom, var, iter_type=DataPar, span=None):
        if not isinstance(dom, Range):
            dom = Range(0, dom) if not isinstance(dom, (list, tuple)) else Range(*dom)
        if isinstance(var, str):
            var = Var(var, dom.extent.dtype)
        if not isinstance(var, Var):
            raise TypeError(f"IterVar: var must be a Var, got {type(var).__name__}")
        if iter_type not in (IterVar.DataPar, IterVar.CommReduce):
            raise ValueError(f"IterVar: iter_type must be DataPar or CommReduce, got {iter_type!r}")
        self._set(dom=dom, var=var, iter_type=iter_type, span=span)

    @property
    def is_reduce(self) -> bool:
        return self.iter_type == IterVar.CommReduce


def _delegate_to_var(method_name):
    def method(self, *args):
        return getattr(self.var, method_name)(*args)

    method.__name__ = method_name
    return method


# An IterVar stands for its variable in arithmetic, as in `A[i, k + 1]`.
for _name in (
    "__add__",
    "__radd__",
    "__sub__",
    "__rsub__",
    "__mul__",
    "__rmul__",
    "__floordiv__",
    "__rfloordiv__",
    "__mod__",
    "__rmod__",
    "__neg__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
):
    setattr(IterVar, _name, _delegate_to_var(_name))


class BufferRegion(Node):
    _fields = ("buffer", "region")
    _unvisited_fields = ("buffer",)
    _key_namespace = "tir"

    def __init__(self, buffer, region):
        self._set(buffer=buffer, region=tuple(region))


class MatchBufferRegion(Node):
    """buffer, a view of the region source of another buffer, defined for a block's body."""

    _fields = ("buffer", "source")
    _def_fields = ("buffer",)
    _unvisited_fields = ("buffer",)
    _key_namespace = "tir"

    def __init__(self, buffer, source, span=None):
        if not isinstance(buffer, Buffer):
            raise TypeError(f"MatchBufferRegion: buffer must be a Buffer, got {buffer!r}")
        if not isinstance(source, BufferRegion):
            raise TypeError(f"MatchBufferRegion: source must be a BufferRegion, got {source!r}")
        if len(buffer.shape) > len(source.region):
            raise ValueError(
                f"MatchBufferRegion: buffer {buffer.name!r} has {len(buffer.shape)} dimensions, "
                f"more than the {len(source.region)} of its source region"
            )
        _check_view_region(buffer, source)
        self._set(buffer=buffer, source=source, span=span)


def _check_view_region(buffer, source) -> None:
    """The region a view covers: leading dimensions it drops must have extent 1 (as
    apache-tvm requires), and a region provably outside its buffer is refused."""
    from tvm.arith import Analyzer

    analyzer = Analyzer()
    lead = len(source.region) - len(buffer.shape)
    for i, rng in enumerate(source.region[:lead]):
        if not analyzer.can_prove_equal(rng.extent, 1):
            raise ValueError(
                f"MatchBufferRegion: buffer {buffer.name!r} has {len(buffer.shape)} dimensions "
                f"and drops dimension {i} of its source region, which must have extent 1, got "
                f"{rng.extent}"
            )
    base = source.buffer
    for i, (rng, size) in enumerate(zip(source.region, base.shape)):
        if analyzer.can_prove(rng.min < 0) or analyzer.can_prove(rng.min + rng.extent > size):
            raise ValueError(
                f"MatchBufferRegion: the region of {base.name!r} that {buffer.name!r} views "
                f"covers [{rng.min}, {rng.min + rng.extent}) in dimension {i}, outside its "
                f"extent {size}"
            )


class Block(Stmt):
    """A schedulable computation: iterators, body, optional reduction init, owned allocations
    and views of regions of other buffers (match_buffers)."""

    _fields = (
        "iter_vars",
        "alloc_buffers",
        "match_buffers",
        "reads",
        "writes",
        "init",
        "body",
        "annotations",
    )
    _unvisited_fields = ("alloc_buffers",)
    _def_fields = ("iter_vars", "alloc_buffers")
    _ignored_fields = ("span", "name_hint")

    def __init__(
        self,
        iter_vars,
        reads,
        writes,
        name_hint,
        body,
        init=None,
        alloc_buffers=(),
        match_buffers=(),
        annotations=None,
        span=None,
    ):
        if not isinstance(name_hint, str) or not name_hint:
            raise ValueError(f"Block: name_hint must be a non-empty str, got {name_hint!r}")
        for iv in iter_vars:
            if not isinstance(iv, IterVar):
                raise TypeError(f"Block {name_hint!r}: iter_vars must be IterVars, got {iv!r}")
        for buf in alloc_buffers or ():
            if not isinstance(buf, Buffer):
                raise TypeError(f"Block {name_hint!r}: alloc_buffers must be Buffers, got {buf!r}")
        for match in match_buffers or ():
            if not isinstance(match, MatchBufferRegion):
                raise TypeError(
                    f"Block {name_hint!r}: match_buffers must be MatchBufferRegions, got {match!r}"
                )
        self._set(
            iter_vars=tuple(iter_vars),
            reads=tuple(reads),
            writes=tuple(writes),
            name_hint=name_hint,
            body=_stmt(body, "Block"),
            init=None if init is None else _stmt(init, "Block"),
            alloc_buffers=tuple(alloc_buffers or ()),
            match_buffers=tuple(match_buffers or ()),
            annotations=dict(annotations or {}),
            span=span,
        )


class BlockRealize(Stmt):
    """Run block with its iterators bound to iter_values, when predicate holds."""

    _fields = ("iter_values", "predicate", "block")

    def __init__(self, iter_values, predicate, block, span=None):
        if not isinstance(block, Block):
            raise TypeError(f"BlockRealize: block must be a Block, got {type(block).__name__}")
        iter_values = tuple(convert(v) for v in iter_values)
        if len(iter_values) != len(block.iter_vars):
            raise ValueError(
                f"BlockRealize: block {block.name_hint!r} has {len(block.iter_vars)} iterators, "
                f"got {len(iter_values)} values"
            )
        self._set(
            iter_values=iter_values,
            predicate=_as_bool(predicate, "BlockRealize"),
            block=block,
            span=span,
        )


__all__ = [
    "Allocate",
    "AllocateConst",
    "AssertStmt",
    "Block",
    "BlockRealize",
    "BufferRegion",
    "BufferStore",
    "DeclBuffer",
    "Evaluate",
    "For",
    "ForKind",
    "IfThenElse",
    "IterVar",
    "LetStmt",
    "MatchBufferRegion",
    "PrimExpr",
    "SeqStmt",
    "Stmt",
    "While",
    "seq",
]
