"""tvm.tir: the tensor-level IR: expressions, buffers, statements, PrimFunc, ops and schedules."""

import tvm.ir  # noqa: F401  (checks the runtime version first)

from . import printer as _printer  # noqa: F401  (registers the text form of TIR nodes)
from . import stmt_functor
from .buffer import Buffer, decl_buffer
from .expr import (
    EQ,
    GE,
    GT,
    LE,
    LT,
    NE,
    Add,
    And,
    BinaryOpExpr,
    Broadcast,
    BufferLoad,
    Call,
    CallEffectKind,
    Cast,
    CmpExpr,
    Div,
    FloatImm,
    FloorDiv,
    FloorMod,
    IntImm,
    Let,
    Max,
    Min,
    Mod,
    Mul,
    Not,
    Or,
    PrimExpr,
    Ramp,
    Range,
    Select,
    SizeVar,
    StringImm,
    Sub,
    Var,
    const,
    convert,
)
from .function import PrimFunc
from .functor import (
    StmtExprMutator,
    StmtExprVisitor,
    contains,
    post_order_visit,
    stmt_transform,
    substitute,
)
from .op import (
    abs,
    acos,
    acosh,
    all,
    any,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    call_effect,
    call_extern,
    call_packed,
    call_pure_extern,
    ceil,
    ceildiv,
    copysign,
    cos,
    cosh,
    erf,
    exp,
    exp2,
    expm1,
    floor,
    floordiv,
    floormod,
    fmod,
    hypot,
    if_then_else,
    indexdiv,
    indexmod,
    isfinite,
    isinf,
    isnan,
    likely,
    log,
    log1p,
    log2,
    log10,
    logical_not,
    max,
    max_value,
    min,
    min_value,
    nextafter,
    pow,
    power,
    reinterpret,
    ret,
    round,
    rsqrt,
    sigmoid,
    sin,
    sinh,
    sqrt,
    tan,
    tanh,
    trunc,
    truncdiv,
    truncmod,
)
from .stmt import (
    Allocate,
    AllocateConst,
    AssertStmt,
    Block,
    BlockRealize,
    BufferRegion,
    BufferStore,
    DeclBuffer,
    Evaluate,
    For,
    ForKind,
    IfThenElse,
    IterVar,
    LetStmt,
    MatchBufferRegion,
    SeqStmt,
    Stmt,
    While,
    seq,
)


def __getattr__(name):
    # Subpackages that import the rest of the compiler load on first use.
    if name in ("analysis", "transform", "schedule"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    if name == "build":
        from .build_module import build

        return build
    if name == "TensorIntrin":
        from .tensor_intrin import TensorIntrin

        return TensorIntrin
    if name in ("Schedule", "ScheduleError", "IndexMap"):
        from . import schedule

        return getattr(schedule, name)
    raise AttributeError(f"module 'tvm.tir' has no attribute {name!r}")
