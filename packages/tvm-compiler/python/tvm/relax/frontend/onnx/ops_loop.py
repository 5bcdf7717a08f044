"""The converter of ONNX Loop: unrolled when the trip count is a small constant and every
condition is known at conversion time, else a local recursive Relax function (a while loop)."""

from __future__ import annotations

import numpy as np
from tvm import relax
from tvm.relax import op as R

from ._relax_api import TensorStructInfo, TupleStructInfo, is_tensor_info, struct_info, tir
from .common import (
    Node,
    OptionalValue,
    const,
    const_value,
    dtype_of,
    is_static,
    ndim_of,
    require_control_flow,
    shape_of,
)
from .registry import converter

# The most iterations a Loop with a constant trip count is unrolled to.
MAX_UNROLL = 64


@converter("Loop", since=1)
def _loop(node: Node):
    body = node.attr("body")
    trip, cond = node.input(0, optional=True), node.input(1, optional=True)
    init = list(node.inputs[2:])
    n_carried = len(init)
    n_scan = len(body.output) - 1 - n_carried
    if len(body.input) != 2 + n_carried or n_scan < 0:
        raise ValueError(
            f"from_onnx: {node.where()}: the body takes {len(body.input)} inputs and gives "
            f"{len(body.output)} outputs; with {n_carried} loop-carried value(s) it must take "
            f"{2 + n_carried} and give at least {1 + n_carried}"
        )
    if any(v is None for v in init):
        raise node.unsupported("a loop-carried value that is absent (an empty input name)")
    if trip is None and cond is None:  # the body's condition is ignored then (the spec)
        raise node.unsupported("a Loop with neither a trip count M nor a condition (endless)")
    # Without a cond input the loop starts as if it were true; the body's cond output decides
    # every later iteration either way (as onnxruntime runs it).
    trip_value = None if trip is None else const_value(trip)
    cond_value = None if cond is None else const_value(cond)
    if trip is not None and trip_value is None or cond is not None and cond_value is None:
        unrolled = None
    elif cond_value is not None and not bool(cond_value.reshape(-1)[0]):
        unrolled = None  # no iteration: the real loop builds the empty scan outputs
    elif trip_value is not None and 1 <= int(trip_value.reshape(-1)[0]) <= MAX_UNROLL:
        count = int(trip_value.reshape(-1)[0])
        unrolled = _unroll(node, body, count, init, n_scan)
    else:
        unrolled = None
    if unrolled is not None:
        return unrolled
    for value in init:
        if isinstance(value, (list, OptionalValue)):
            raise node.unsupported(
                "a sequence or optional carried through a Loop that is not unrolled (its trip "
                "count and conditions are not all known at conversion time)"
            )
    return while_loop(node, _body_step(node, body), trip, cond, init, n_scan)


def _body_step(node: Node, body):
    """The step while_loop runs: the ONNX body bound to (iter_num, cond, carried...) and
    converted into the current block; its outputs (cond, carried..., scans...)."""
    importer = node.importer

    def step(i, c, carried):
        _bind_body_inputs(importer, body, [i, c, *carried])
        outs = importer.inline_subgraph(body, node.opset, node.bb)
        return [_as_declared(node.bb, v, vi) for v, vi in zip(outs, body.output)]

    return step


def _scalar(node: Node, value, dtype: str):
    """value as a 0-d tensor of dtype (ONNX allows a one-element 1-d M or cond)."""
    if ndim_of(value) != 0:
        value = node.emit(R.reshape(value, []))
    if dtype_of(value) != dtype:
        value = node.emit(R.astype(value, dtype))
    return value


def _bind_body_inputs(importer, body, values) -> None:
    for vi, value in zip(body.input, values):
        importer.values[vi.name] = value


def _unroll(node: Node, body, count: int, init, n_scan: int):
    """The Loop's outputs with the body converted count times in a row, or None when a
    condition turns out to be computed at run time (the while loop is needed then)."""
    bb, importer = node.bb, node.importer
    saved_values = dict(importer.values)
    saved_scope = bb._begin_scope()
    bb._begin_frame(False)
    try:
        carried, scans = list(init), [[] for _ in range(n_scan)]
        for i in range(count):
            importer.values = dict(saved_values)
            _bind_body_inputs(importer, body, [const(np.int64(i)), const(True), *carried])
            outs = importer.inline_subgraph(body, node.opset, bb)
            carried = outs[1 : 1 + len(init)]
            for acc, value in zip(scans, outs[1 + len(init) :]):
                acc.append(value)
            keep_going = const_value(outs[0])
            if keep_going is None:
                return None
            if not bool(keep_going.reshape(-1)[0]):
                break
        bindings = bb._frame.bindings
    finally:
        bb._end_scope(saved_scope)
        importer.values = saved_values
    for binding in bindings:
        bb.emit_normalized(binding)
    stacked = []
    for acc in scans:
        if any(isinstance(v, list) for v in acc):
            raise node.unsupported("a scan output that is a sequence")
        rows = [node.emit(R.expand_dims(v, [0])) for v in acc]
        stacked.append(rows[0] if len(rows) == 1 else node.emit(R.concat(rows, axis=0)))
    return carried + stacked


def _generalize(sinfo, keep_static: bool = False, fresh=None):
    """sinfo's dtype and rank with every dimension a fresh symbolic var (a carried value whose
    shape changes between iterations), or with keep_static each dimension that is not a
    constant (a loop function's parameter cannot name the enclosing function's vars): one
    fresh var per symbolic dim, shared through fresh (a list of (dim, var) pairs)."""
    shape = _shape_of_info(sinfo) if keep_static else None
    if shape is None:
        shape = [None] * int(sinfo.ndim)
    fresh = [] if fresh is None else fresh
    dims = []
    for d in shape:
        if not isinstance(d, int):
            var = next(
                (v for old, v in fresh if d is not None and old is not None and old.same_as(d)),
                None,
            )
            if var is None:
                var = tir.Var(f"loop_dim{len(fresh)}", "int64")
                fresh.append((d, var))
            d = var
        dims.append(d)
    return TensorStructInfo(dims, str(sinfo.dtype))


def _shape_of_info(sinfo):
    values = getattr(getattr(sinfo, "shape", None), "values", None)
    if values is None:
        return None
    return [int(v) if isinstance(v, tir.IntImm) else v for v in values]


def while_loop(node: Node, step, trip, cond, init, n_scan: int, scan_like=None):
    """The outputs (carried..., scans...) of a loop run while i < trip (a 0-d int64 tensor,
    or None) and the condition holds (cond: its first value, or None for true). step(i, c,
    carried) emits one iteration into the current block and returns its (cond, carried...,
    scans...): each scan output a tensor stacked on a new axis 0, of static shape unless
    scan_like (a list, one entry per scan output) names the carried value whose shape it
    has."""
    require_control_flow(node.bb)
    for k, value in enumerate(init):
        sinfo = struct_info(value)
        if not is_tensor_info(sinfo) or int(sinfo.ndim) < 0:
            raise node.unsupported(f"loop-carried value {k} that is not a tensor of known rank")
    trip = None if trip is None else _scalar(node, trip, "int64")
    cond0 = const(True) if cond is None else _scalar(node, cond, "bool")
    # a carried value keeps its constant dims if the body does; the others get fresh dims
    fresh = []  # a symbolic dim that several carried values share stays one var
    sinfos = [_generalize(struct_info(v), True, fresh) for v in init]
    scan_like = scan_like or [None] * n_scan
    built = _build_while(node, step, trip, sinfos, n_scan, scan_like)
    if built is None:  # a carried shape changes between iterations
        sinfos = [_generalize(s) for s in sinfos]
        built = _build_while(node, step, trip, sinfos, n_scan, scan_like)
        if built is None:
            raise node.unsupported("a loop-carried value whose rank or dtype changes")
    loop_var, scan_infos = built
    args = [const(np.int64(0)), cond0, *init, const(np.int64(MAX_DEPTH))]
    result = node.emit(relax.Call(loop_var, args))
    _, _, carried, scans = _unpack(node.bb, result, sinfos, scan_infos)
    return carried + scans


# The loop function runs up to 2**depth iterations as a binary tree of calls, so the Relax
# VM's call depth (Python frames here) stays below MAX_DEPTH + 1 however many iterations run.
MAX_DEPTH = 62


def _unpack(bb, result, sinfos, scan_infos):
    """The (iter_num, cond, carried, scans) a call of the loop function returns, each cast to
    the struct info the converters after it need (checked at run time)."""
    i = bb.emit(relax.TupleGetItem(result, 0))
    c = bb.emit(relax.TupleGetItem(result, 1))
    carried, fresh = [], []
    for k, sinfo in enumerate(sinfos):
        item = bb.emit(relax.TupleGetItem(result, 2 + k))
        fixed = is_static(_shape_of_info(sinfo))
        carried.append(bb.match_cast(item, sinfo if fixed else _generalize(sinfo, True, fresh)))
    scans = []
    for j, (shape, dtype) in enumerate(scan_infos):
        item = bb.emit(relax.TupleGetItem(result, 2 + len(sinfos) + j))
        # a shape (LegalizeOps needs one): fresh vars where the element's dims vary
        dims = [
            d if isinstance(d, int) else tir.Var(f"loop_dim{k}", "int64")
            for k, d in enumerate(shape)
        ]
        rows = tir.Var("loop_rows", "int64")
        scans.append(bb.match_cast(item, TensorStructInfo([rows, *dims], dtype)))
    return i, c, carried, scans


def _branch(bb, make):
    """A SeqExpr of the bindings make() emits in a block of its own, ending in its result."""
    saved = bb._begin_scope()
    try:
        bb._begin_frame(False)
        result = make()
        bb._end_frame()
        return relax.SeqExpr(bb._blocks, result)
    finally:
        bb._end_scope(saved)


def _as_declared(bb, value, value_info):
    """value cast (checked at run time) to the static shape the body's output declares, where
    the converters could not work it out (a slice at a run-time offset); else value."""
    if isinstance(value, (list, OptionalValue)) or is_static(shape_of(value)):
        return value
    ttype = value_info.type
    if ttype.WhichOneof("value") != "tensor_type" or not ttype.tensor_type.HasField("shape"):
        return value
    dims = ttype.tensor_type.shape.dim
    if not all(d.HasField("dim_value") for d in dims) or len(dims) != ndim_of(value):
        return value
    return bb.match_cast(value, TensorStructInfo([d.dim_value for d in dims], dtype_of(value)))


class _ShapeChanges(Exception):
    """A carried value's shape (or rank, dtype) differs after one iteration."""


def _build_while(node: Node, step, trip, sinfos, n_scan: int, scan_like):
    """Binds (in the current block) a local function loop(i, cond, carried..., depth) that
    runs up to 2**depth iterations while i < M and cond, and returns (i, cond, carried...,
    scans...): at depth 0 one iteration, else loop(loop(state, depth - 1), depth - 1).
    Returns its Var and each scan output's (element shape, dtype), or None when a carried
    value comes back with another shape than sinfos give it."""
    bb, importer = node.bb, node.importer
    i64, boolean = TensorStructInfo([], "int64"), TensorStructInfo([], "bool")
    i, c, depth = relax.Var("iter_num", i64), relax.Var("cond", boolean), relax.Var("depth", i64)
    carried = [relax.Var(f"carried{k}", s) for k, s in enumerate(sinfos)]
    params = [i, c, *carried, depth]
    ret_carried = [TensorStructInfo(dtype=str(s.dtype), ndim=int(s.ndim)) for s in sinfos]
    ret = TupleStructInfo([i64, boolean, *ret_carried] + [relax.ObjectStructInfo()] * n_scan)
    loop_var = relax.Var("loop", relax.FuncStructInfo([p.struct_info for p in params], ret))
    scan_infos = []
    one = const(np.int64(1))

    def iteration():
        outs = step(i, c, carried)
        new_carried = outs[1 : 1 + len(sinfos)]
        for value, sinfo in zip(new_carried, sinfos):
            got = None if isinstance(value, list) else struct_info(value)
            if not is_tensor_info(got):
                raise node.unsupported("a loop-carried value that is not a tensor")
            if str(got.dtype) != str(sinfo.dtype) or int(got.ndim) != int(sinfo.ndim):
                raise _ShapeChanges
            want, have = _shape_of_info(sinfo), shape_of(value)
            fixed = [(k, w) for k, w in enumerate(want) if isinstance(w, int)]
            if fixed and (have is None or any(have[k] != w for k, w in fixed)):
                raise _ShapeChanges
        rows = []
        for value, like in zip(outs[1 + len(sinfos) :], scan_like):
            if isinstance(value, list) or not is_tensor_info(struct_info(value)):
                raise node.unsupported("a scan output that is not a tensor")
            shape = shape_of(value)
            if shape is None or not is_static(shape) and like is None:
                raise node.unsupported(f"a scan output of shape {shape} (not static)")
            shape = [d if isinstance(d, int) else None for d in shape]
            scan_infos.append((shape, dtype_of(value)))
            rows.append(bb.emit(R.expand_dims(value, [0])))
        next_cond = _scalar(node, outs[0], "bool")
        next_i = bb.emit(R.add(i, one))
        return bb.emit(relax.Tuple([next_i, next_cond, *new_carried, *rows]))

    def two_halves():
        lower = bb.emit(R.subtract(depth, one))
        first = bb.emit(relax.Call(loop_var, [i, c, *carried, lower]))
        i1, c1, carried1, scans1 = _unpack(bb, first, sinfos, scan_infos)
        second = bb.emit(relax.Call(loop_var, [i1, c1, *carried1, lower]))
        i2, c2, carried2, scans2 = _unpack(bb, second, sinfos, scan_infos)
        joined = [bb.emit(R.concat([a, b], axis=0)) for a, b in zip(scans1, scans2)]
        return bb.emit(relax.Tuple([i2, c2, *carried2, *joined]))

    def done():
        empties = []
        for (shape, dtype), like in zip(scan_infos, scan_like):
            if None in shape:  # the dims of the carried value it is like
                shape = shape_of(carried[like])
            empties.append(bb.emit(R.zeros([0, *shape], dtype)))
        return bb.emit(relax.Tuple([i, c, *carried, *empties]))

    def run():
        keep = c
        if trip is not None:
            below = bb.emit(R.less(i, trip))
            keep = bb.emit(R.logical_and(below, c))

        def go():
            leaf = bb.emit(R.equal(depth, const(np.int64(0))))
            one_step = _branch(bb, iteration)  # first: it finds the scan outputs' types
            return bb.emit(relax.If(leaf, one_step, _branch(bb, two_halves)))

        return bb.emit(relax.If(keep, _branch(bb, go), _branch(bb, done)))

    saved_values = dict(importer.values)
    try:
        fn_body = _branch(bb, run)
    except _ShapeChanges:
        return None
    finally:
        importer.values = saved_values
    func = relax.Function(params, bb.normalize(fn_body), ret)
    bb.emit_normalized(relax.VarBinding(loop_var, func))
    return loop_var, scan_infos
