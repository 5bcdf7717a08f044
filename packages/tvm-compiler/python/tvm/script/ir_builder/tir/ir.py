"""The T.* builder functions of TVMScript: buffers, loops, blocks, axes, scalars and ops."""

from __future__ import annotations

import builtins as _builtins
import math as _math

from tvm.ir.dtype import DataType
from tvm.ir.op import list_op_names, register_op
from tvm.tir import expr as E
from tvm.tir import op as _op
from tvm.tir import stmt as S
from tvm.tir.buffer import Buffer as _Buffer

from ..base import IRBuilder
from .frames import (
    AllocateConstFrame,
    AllocateFrame,
    BlockFrame,
    BlockInitFrame,
    DeclBufferFrame,
    ElseFrame,
    ForFrame,
    IfFrame,
    PrimFuncFrame,
    ThenFrame,
    WhileFrame,
    add_stmt,
)

register_op("tir.assume", "assume(cond): the condition holds here")


def _builder() -> IRBuilder:
    return IRBuilder.current()


def _func_frame() -> PrimFuncFrame:
    frame = _builder().find_frame(PrimFuncFrame)
    if frame is None:
        raise ValueError("this T.* call must be inside a T.prim_func")
    return frame


def _block_frame(who: str) -> BlockFrame:
    frame = _builder().find_frame(BlockFrame)
    if frame is None:
        raise ValueError(f"{who} must be inside a `with T.block(...)`")
    return frame


def _dim(value, who: str):
    if isinstance(value, str):
        frame = _builder().find_frame(PrimFuncFrame) if IRBuilder.is_in_scope() else None
        if frame is None:  # Python evaluating an annotation before the parser runs
            return E.Var(value, "int32")
        var = frame.symbols.get(value)
        if var is None:
            var = frame.symbols[value] = E.Var(value, "int32")
        return var
    if isinstance(value, (E.PrimExpr, int)) or hasattr(value, "__index__"):
        return E.convert(value)
    raise TypeError(f"{who}: shape entries must be ints, PrimExprs or names, got {value!r}")


def _shape(shape, who: str) -> tuple:
    if isinstance(shape, (list, tuple)):
        return tuple(_dim(d, who) for d in shape)
    # `bool` here is T.bool (the dtype), so the builtin is named through builtins
    if isinstance(shape, (int, E.PrimExpr)) and not isinstance(shape, _builtins.bool):
        return (_dim(shape, who),)
    raise TypeError(f"{who}: shape must be a tuple such as (128,) or (n, 4), got {shape!r}")


_KNOWN_DTYPES = (
    [f"{k}{b}" for k in ("int", "uint") for b in (8, 16, 32, 64)]
    + ["float16", "float32", "float64", "bfloat16", "bool", "handle"]
    + ["float8_e4m3fn", "float8_e5m2"]
)


def _dtype(dtype, who: str) -> DataType:
    try:
        return DataType(dtype)
    except (TypeError, ValueError):
        from tvm.script.parser.core.evaluator import did_you_mean

        hint = did_you_mean(dtype, _KNOWN_DTYPES) if isinstance(dtype, str) else ""
        raise ValueError(f"{who}: unknown dtype {dtype!r}{hint}") from None


def _make_buffer(who, shape, dtype, data, strides, elem_offset, scope, align, axis_separators):
    name = _builder().take_name("buffer") if IRBuilder.is_in_scope() else "buffer"
    _dtype(dtype, who)
    if data is None:
        data = E.Var(name, "handle")
    return _Buffer(
        data,
        dtype,
        _shape(shape, who),
        _shape(strides, who) if strides else (),
        0 if elem_offset is None else elem_offset,
        name,
        scope,
        align,
        span=_builder().take_span() if IRBuilder.is_in_scope() else None,
        axis_separators=axis_separators or (),
    )


# -- buffers ---------------------------------------------------------------------------------
def Buffer(  # noqa: N802  (upstream's name)
    shape,
    dtype="float32",
    data=None,
    strides=None,
    elem_offset=None,
    scope="global",
    align=-1,
    offset_factor=0,
    buffer_type="",
    axis_separators=None,
):
    """A buffer: a parameter annotation, or a view of existing memory (data=...)."""
    del offset_factor, buffer_type
    args = ("T.Buffer", shape, dtype, data, strides, elem_offset, scope, align, axis_separators)
    if not IRBuilder.is_in_scope():
        # Python evaluating a decorated function's annotations: the parser evaluates them
        # again and reports a bad one with its source location.
        try:
            return _make_buffer(*args)
        except (TypeError, ValueError):
            return None
    return _make_buffer(*args)


def match_buffer(
    param,
    shape=None,
    dtype="float32",
    data=None,
    strides=None,
    elem_offset=None,
    scope="global",
    align=-1,
    offset_factor=0,
    buffer_type="default",
    axis_separators=None,
):
    """The buffer a handle parameter receives, or (param a region such as A[vi, 0:4], inside a
    block) a view of that region for the block's body."""
    del buffer_type
    if isinstance(param, (E.BufferLoad, S.BufferRegion)):
        return _match_region(
            param,
            shape,
            dtype,
            data,
            strides,
            elem_offset,
            scope,
            align,
            offset_factor,
            axis_separators,
        )
    frame = _func_frame()
    if not _builtins.any(param is p for p in frame.params) or not param.dtype.is_handle:
        raise TypeError(f"T.match_buffer: expected a T.handle parameter, got {param!r}")
    buf = _make_buffer(
        "T.match_buffer", shape, dtype, data, strides, elem_offset, scope, align, axis_separators
    )
    frame.buffer_map[param] = buf
    return buf


def _match_region(
    param, shape, dtype, data, strides, elem_offset, scope, align, offset_factor, axis_separators
):
    source = _region(param, "T.match_buffer")
    block = _block_frame("T.match_buffer of a buffer region")
    if shape is None:  # the region's own shape and dtype, as upstream
        shape, dtype = [r.extent for r in source.region], source.buffer.dtype
    if elem_offset is None and offset_factor:
        # The view starts where the region does: a variable the lowering binds.
        dims = _shape(shape, "T.match_buffer")
        elem_offset = E.Var("elem_offset", dims[0].dtype if dims else "int32")
    buf = _make_buffer(
        "T.match_buffer", shape, dtype, data, strides, elem_offset, scope, align, axis_separators
    )
    block.match_buffers.append(S.MatchBufferRegion(buf, source))
    return buf


def alloc_buffer(
    shape,
    dtype="float32",
    data=None,
    strides=None,
    elem_offset=None,
    scope="global",
    align=-1,
    offset_factor=0,
    buffer_type="default",
    axis_separators=None,
):
    """A buffer the enclosing block (or the function's root block) allocates."""
    del offset_factor, buffer_type
    buf = _make_buffer(
        "T.alloc_buffer", shape, dtype, data, strides, elem_offset, scope, align, axis_separators
    )
    frame = _builder().find_frame((BlockFrame, PrimFuncFrame))
    (frame.alloc_buffers if isinstance(frame, BlockFrame) else frame.root_alloc_buffers).append(buf)
    return buf


def decl_buffer(
    shape,
    dtype="float32",
    data=None,
    strides=None,
    elem_offset=None,
    scope="global",
    align=-1,
    offset_factor=0,
    buffer_type="",
    axis_separators=None,
) -> DeclBufferFrame:
    """Declare a buffer for the rest of the body (allocating it unless data is given)."""
    del offset_factor, buffer_type
    buf = _make_buffer(
        "T.decl_buffer", shape, dtype, data, strides, elem_offset, scope, align, axis_separators
    )
    return DeclBufferFrame(buf, allocate=data is None)


def allocate(extents, dtype, scope="global", condition=True, annotations=None) -> AllocateFrame:
    del scope, condition, annotations
    var = E.Var(_builder().take_name("buf"), "handle")
    return AllocateFrame(var, DataType(dtype), [E.convert(e) for e in extents])


def allocate_const(data, dtype, extents, annotations=None) -> AllocateConstFrame:
    """Constant data (a flat or nested list of numbers, a NumPy array or a tvm Tensor) of
    dtype laid out over extents; binds the handle of its memory."""
    import numpy as np
    import tvm.runtime

    dtype = _dtype(dtype, "T.allocate_const")
    if not isinstance(extents, (list, tuple)):
        raise TypeError(f"T.allocate_const: extents must be a list such as [4], got {extents!r}")
    extents = [E.convert(e) for e in extents]
    if isinstance(data, tvm.runtime.Tensor):
        data = data.numpy()
    elif not isinstance(data, np.ndarray):
        data = _constant_values(data, "T.allocate_const")
    try:
        array = np.asarray(data, dtype=str(dtype))
    except (TypeError, ValueError, OverflowError) as err:
        raise ValueError(f"T.allocate_const: data does not convert to {dtype}: {err}") from None
    if _builtins.all(isinstance(e, E.IntImm) for e in extents):
        shape = tuple(e.value for e in extents)
        if _builtins.any(size < 0 for size in shape):
            raise ValueError(f"T.allocate_const: extents must be >= 0, got {list(shape)}")
        count = _math.prod(shape)  # exact: np.prod wraps around past int64
        if array.size != count:
            raise ValueError(
                f"T.allocate_const: data has {array.size} elements, extents {list(shape)} "
                f"hold {count}"
            )
        array = array.reshape(shape)
    var = E.Var(_builder().take_name("buf"), "handle")
    return AllocateConstFrame(var, dtype, extents, array, annotations)


def _constant_values(data, who):
    """Nested lists of Python numbers or constant PrimExprs, as Python numbers."""
    if isinstance(data, (list, tuple)):
        return [_constant_values(d, who) for d in data]
    if isinstance(data, (E.IntImm, E.FloatImm)):
        return data.value
    if isinstance(data, (int, float)) and not isinstance(data, _builtins.bool):
        return data
    if data in ("inf", "-inf", "nan"):  # how the printer writes a float that has no literal
        return float(data)
    raise TypeError(f"{who}: data must be a list of numbers, got an element {data!r}")


def LetStmt(value, var=None):  # noqa: N802
    """`with T.LetStmt(value) as x:`: x bound to value in the body."""
    from .frames import LetFrame

    value = E.convert(value)
    if var is None:
        var = E.Var(_builder().take_name("v"), value.dtype)
    return LetFrame(var, value)


def Assert(condition, message):  # noqa: N802
    """`with T.Assert(cond, "msg"):`: the body runs after checking cond."""
    from .frames import AssertFrame

    return AssertFrame(E.convert(condition), message)


# -- loops -----------------------------------------------------------------------------------
def _loop_dtype(*values) -> str:
    # The widest integer dtype among the bounds (a typed bound such as T.int8(4) decides).
    dtypes = [v.dtype for v in values if isinstance(v, E.PrimExpr)]
    if "int64" in dtypes:
        return "int64"
    typed = [d for d in dtypes if d != "int32"]
    return typed[0] if typed else "int32"


def _loop(kind, start, stop, thread=None, annotations=None) -> ForFrame:
    if stop is None:
        extent = E.convert(start)
        dtype = _loop_dtype(extent)
        start = E.IntImm(dtype, 0)
    else:
        start, stop = E.convert(start), E.convert(stop)
        dtype = _loop_dtype(start, stop)
        extent = _simplify(stop - start)
    var = E.Var(_builder().take_name("i"), dtype, span=_builder().take_span())
    return ForFrame([(var, start, extent, kind, thread, annotations)])


def _simplify(expr):
    if isinstance(expr, E.IntImm):
        return expr
    from tvm.arith import Analyzer

    return Analyzer().simplify(expr)


def serial(start, stop=None, *, annotations=None) -> ForFrame:
    return _loop(S.ForKind.SERIAL, start, stop, annotations=annotations)


def parallel(start, stop=None, *, annotations=None) -> ForFrame:
    return _loop(S.ForKind.PARALLEL, start, stop, annotations=annotations)


def vectorized(start, stop=None, *, annotations=None) -> ForFrame:
    return _loop(S.ForKind.VECTORIZED, start, stop, annotations=annotations)


def unroll(start, stop=None, *, annotations=None) -> ForFrame:
    return _loop(S.ForKind.UNROLLED, start, stop, annotations=annotations)


def thread_binding(start, stop=None, thread=None, *, annotations=None) -> ForFrame:
    if thread is None and isinstance(stop, str):
        start, stop, thread = start, None, stop
    if not isinstance(thread, str):
        raise TypeError(
            f"T.thread_binding: thread must be a str such as 'threadIdx.x', got {thread!r}"
        )
    return _loop(S.ForKind.THREAD_BINDING, start, stop, thread, annotations)


def grid(*extents) -> ForFrame:
    loops = []
    for extent in extents:
        extent = E.convert(extent)
        var = E.Var(_builder().take_name("i"), _loop_dtype(extent))
        loops.append((var, E.IntImm(var.dtype, 0), extent, S.ForKind.SERIAL, None, None))
    return ForFrame(loops)


# -- blocks ----------------------------------------------------------------------------------
def block(name: str = "", no_realize: bool = False) -> BlockFrame:
    if not isinstance(name, str):
        raise TypeError(f"T.block: name must be a str, got {name!r}")
    return BlockFrame(name or "block", no_realize)


sblock = block  # upstream 0.27's name of the same frame (a schedulable block)


def init() -> BlockInitFrame:
    _block_frame("T.init()")
    return BlockInitFrame()


def where(predicate) -> None:
    _block_frame("T.where").predicate = E.convert(predicate)


def _region(value, who: str) -> S.BufferRegion:
    if isinstance(value, S.BufferRegion):
        return value
    if isinstance(value, E.BufferLoad):
        return S.BufferRegion(
            value.buffer,
            [
                E.Range.from_min_extent(i.base, i.lanes)
                if isinstance(i, E.Ramp)
                else E.Range.from_min_extent(i, 1)
                for i in value.indices
            ],
        )
    if isinstance(value, _Buffer):
        return S.BufferRegion(value, [E.Range(0, d) for d in value.shape])
    raise TypeError(f"{who}: expected buffer regions such as A[i, 0:4], got {value!r}")


def _regions(args, who):
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = args[0]
    return [_region(a, who) for a in args]


def reads(*regions) -> None:
    _block_frame("T.reads").reads = _regions(regions, "T.reads")


def writes(*regions) -> None:
    _block_frame("T.writes").writes = _regions(regions, "T.writes")


def block_attr(attrs: dict) -> None:
    _block_frame("T.block_attr").annotations.update(attrs)


def func_attr(attrs: dict) -> None:
    if not isinstance(attrs, dict):
        raise TypeError(f"T.func_attr: expected a dict of attributes, got {attrs!r}")
    _func_frame().attrs.update(attrs)


def index_map(mapping, *, inverse_index_map=None, index_dtype="int64"):
    """T.index_map: the IndexMap of mapping (a function of the input indices)."""
    from tvm.tir.schedule.index_map import IndexMap

    return IndexMap.from_func(mapping, inverse_index_map=inverse_index_map, index_dtype=index_dtype)


def func_name(name: str) -> None:
    _func_frame().name = name


def func_ret(dtype) -> None:
    _func_frame().ret_type = DataType(getattr(dtype, "dtype", dtype))


class axis:  # noqa: N801  (upstream's namespace T.axis)
    """Block iterators: each binds a new variable to a value of the enclosing loops."""

    @staticmethod
    def _new(dom, binding, iter_type, dtype, who):
        frame = _block_frame(who)
        if isinstance(dom, (list, tuple)):
            if len(dom) != 2:
                raise ValueError(f"{who}: dom must be an extent or a (min, max) pair, got {dom!r}")
            lo, hi = E.convert(dom[0]), E.convert(dom[1])
            rng = E.Range.from_min_extent(lo, _simplify(hi - lo))
        else:
            rng = E.Range.from_min_extent(E.IntImm(E.convert(dom).dtype, 0), E.convert(dom))
        var = E.Var(_builder().take_name("v"), dtype or rng.extent.dtype, _builder().take_span())
        frame.iter_vars.append(S.IterVar(rng, var, iter_type))
        frame.iter_values.append(E.convert(binding))
        return var

    @staticmethod
    def spatial(dom, binding, dtype=None):
        return axis._new(dom, binding, S.IterVar.DataPar, dtype, "T.axis.spatial")

    S = spatial

    @staticmethod
    def reduce(dom, binding, dtype=None):
        return axis._new(dom, binding, S.IterVar.CommReduce, dtype, "T.axis.reduce")

    R = reduce

    @staticmethod
    def remap(kinds: str, bindings, dtype=None):
        if not isinstance(kinds, str) or set(kinds) - {"S", "R"} or len(kinds) != len(bindings):
            raise ValueError(
                f"T.axis.remap: kinds must be a string of S and R, one per binding; got {kinds!r} "
                f"for {len(bindings)} bindings"
            )
        frame = _builder().find_frame(ForFrame)
        out = []
        for kind, value in zip(kinds, bindings):
            loop = _loop_of(value, frame)
            if loop is None:
                raise ValueError(f"T.axis.remap: {value!r} is not a variable of an enclosing loop")
            iter_type = S.IterVar.DataPar if kind == "S" else S.IterVar.CommReduce
            out.append(axis._new(loop[2], value, iter_type, dtype, "T.axis.remap"))
        return out[0] if len(out) == 1 else out  # as upstream: `vi = T.axis.remap("S", [i])`


def _loop_of(value, _frame):
    for frame in reversed(_builder().frames):
        if isinstance(frame, ForFrame):
            for loop in frame.loops:
                if loop[0] is value:
                    return loop
    return None


# -- statements ------------------------------------------------------------------------------
def evaluate(value) -> None:
    add_stmt(S.Evaluate(value))


def If(condition) -> IfFrame:  # noqa: N802
    return IfFrame(E.convert(condition))


def While(condition) -> WhileFrame:  # noqa: N802
    """`with T.While(cond):`: the body runs while cond (a scalar bool) holds."""
    return WhileFrame(E.convert(condition))


def Then() -> ThenFrame:  # noqa: N802
    return ThenFrame()


def Else() -> ElseFrame:  # noqa: N802
    return ElseFrame()


# -- scalars ---------------------------------------------------------------------------------
def _scalar(dtype: str):
    def make(value=None, is_size_var: bool = False):
        if value is None:
            name = _builder().take_name("v") if IRBuilder.is_in_scope() else "v"
            if IRBuilder.is_in_scope():
                frame = _builder().find_frame(PrimFuncFrame)
                known = frame.symbols.get(name) if frame is not None else None
                if known is not None and known.dtype == dtype:
                    return known
            return (E.SizeVar if is_size_var else E.Var)(name, dtype)
        if isinstance(value, str) and DataType(dtype).is_float:
            value = float(value)
        if isinstance(value, E.PrimExpr):
            return value.astype(dtype)
        return E.const(value, dtype)

    make.__name__ = make.__qualname__ = dtype
    make.dtype = dtype
    return make


_SCALARS = [
    *(f"int{b}" for b in (8, 16, 32, 64)),
    *(f"uint{b}" for b in (8, 16, 32, 64)),
    "float16",
    "float32",
    "float64",
    "bfloat16",
    "bool",
    "handle",
]
for _name in _SCALARS:
    globals()[_name] = _scalar(_name)
for _name in ("int8", "int32", "float16", "float32", "float64"):
    for _lanes in (4, 8, 16):
        globals()[f"{_name}x{_lanes}"] = _scalar(f"{_name}x{_lanes}")
boolean = globals()["bool"]


def Cast(dtype, value):  # noqa: N802
    return E.Cast(dtype, value)


def Select(condition, true_value, false_value):  # noqa: N802
    return E.Select(condition, true_value, false_value)


def Ramp(base, stride, lanes):  # noqa: N802
    return E.Ramp(base, stride, int(lanes))


def Broadcast(value, lanes):  # noqa: N802
    return E.Broadcast(value, int(lanes))


def Let(body, where):  # noqa: N802  (the parser binds where's variables; see parser/tir)
    ((var, value),) = where.items()
    return E.Let(var, value, body)


Let._tvmscript_let = True


def Div(a, b):  # noqa: N802
    return E.Div(a, b)


def _binary_node(cls):
    def make(a, b):
        return cls(*E._unify(E._operand(a, b), E._operand(b, a)))

    make.__name__ = make.__qualname__ = cls.__name__
    make.__doc__ = f"A {cls.__name__} node as written, never folded (`T.{cls.__name__}(0, 16)`)."
    return make


# The node constructors upstream's T has: the printer writes a binary op on two constants
# this way, since `0 * 16` would fold to 0 while parsing.
_NODES = (E.Add, E.Sub, E.Mul, E.Mod, E.FloorDiv, E.FloorMod, E.And, E.Or)
for _cls in _NODES + (E.EQ, E.NE, E.LT, E.LE, E.GT, E.GE):
    globals()[_cls.__name__] = _binary_node(_cls)


def Not(a):  # noqa: N802
    return E.Not(E.convert(a))


def max(a, b):  # noqa: A001
    return E.Max(*E._unify(E._operand(a, b), E._operand(b, a)))


def min(a, b):  # noqa: A001
    return E.Min(*E._unify(E._operand(a, b), E._operand(b, a)))


def assume(condition) -> None:
    add_stmt(S.Evaluate(E.Call("bool", "tir.assume", [E.convert(condition)])))


# Builtins whose result is a handle, whatever their arguments are.
_HANDLE_OPS = ("tvm_stack_make_shape", "tvm_stack_make_array", "address_of")


def prefetch(load):
    return E.Call("int32", "tir.prefetch", [load])


def reinterpret(dtype, value):
    return E.Call(dtype, "tir.reinterpret", [value])


def ret(value):
    return _op.ret(value)


for _name in (
    "exp exp2 log log2 log10 sqrt rsqrt cos sin tan tanh floor ceil round trunc erf atan abs "
    "sigmoid "
    "acos acosh asin asinh atanh cosh sinh atan2 log1p expm1 fmod hypot copysign nextafter "
    "isnan isinf isfinite "
    "call_extern call_pure_extern call_packed if_then_else likely floordiv floormod truncdiv "
    "truncmod ceildiv all any max_value min_value"
).split():
    globals()[_name] = getattr(_op, _name)
pow = _op.power  # noqa: A001


def __getattr__(name):
    # Any other registered TIR op, as a call typed like its first argument.
    if not name.startswith("_") and f"tir.{name}" in list_op_names():

        def call(*args):
            if name in _HANDLE_OPS:
                return E.Call("handle", f"tir.{name}", args)
            first = E.convert(args[0]) if args else E.IntImm("int32", 0)
            return E.Call(first.dtype, f"tir.{name}", args)

        return call
    raise AttributeError(f"module 'T' has no attribute {name!r}")
