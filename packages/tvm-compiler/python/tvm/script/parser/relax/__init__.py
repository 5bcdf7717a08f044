"""tvm.script.relax (`from tvm.script import relax as R`): TVMScript's Relax dialect."""

from tvm.script.ir_builder.relax.ir import *  # noqa: F403
from tvm.script.ir_builder.relax.ir import (  # noqa: A004, F401
    Callable,
    ExternFunc,
    Object,
    Prim,
    Shape,
    Tensor,
    Tuple,
    __getattr__,
    assert_op,
    call_dps_packed,
    call_packed,
    call_pure_packed,
    call_tir,
    call_tir_inplace,
    const,
    dataflow,
    dtype,
    emit_te,
    func_attr,
    match_cast,
    output,
    prim_value,
    print,
    shape,
    str,
    tuple,
)

from .entry import function, macro  # noqa: F401
