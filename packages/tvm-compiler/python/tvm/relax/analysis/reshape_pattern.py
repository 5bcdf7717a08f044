"""has_reshape_pattern: whether a PrimFunc only moves elements from one buffer to another in
row-major order (a reshape, expand_dims, flatten or copy), so a call of it can become a
zero-copy relax reshape."""

from __future__ import annotations

from tvm.tir import expr as E

from ._checks import expect

# Above this many loop iterations the exhaustive check would cost too much memory; the
# symbolic prover alone decides.
_EXHAUSTIVE_LIMIT = 1 << 20


def _loop_nest(stmt):
    """(loops, block_realize) of a perfect loop nest ending in one block, else None."""
    from tvm.tir.stmt import BlockRealize, For

    loops = []
    while isinstance(stmt, For):
        loops.append(stmt)
        stmt = stmt.body
    if not isinstance(stmt, BlockRealize):
        return None
    return loops, stmt


def _copy_statement(func):
    """(loops, iter bindings, store, load) for func's single-block copy, else None."""
    from tvm.tir.stmt import BlockRealize, BufferStore

    body = func.body
    if isinstance(body, BlockRealize) and not body.block.iter_vars:  # the "root" block
        if body.block.alloc_buffers or body.block.match_buffers:
            return None
        body = body.block.body
    nest = _loop_nest(body)
    if nest is None:
        return None
    loops, realize = nest
    block = realize.block
    if block.init is not None or block.alloc_buffers or block.match_buffers:
        return None
    if not (isinstance(realize.predicate, E.IntImm) and realize.predicate.value):
        return None
    store = block.body
    if not isinstance(store, BufferStore) or not isinstance(store.value, E.BufferLoad):
        return None
    bindings = {iv.var: value for iv, value in zip(block.iter_vars, realize.iter_values)}
    return loops, bindings, store, store.value


def _flat_index(indices, shape):
    flat = E.const(0, "int64")
    for index, extent in zip(indices, shape):
        flat = flat * extent + index
    return flat


def _evaluate(expr, env):
    """expr over numpy arrays of loop values (integer arithmetic only), or None when it uses
    something else."""
    import numpy as np  # here only: numpy is an optional dependency of tvm-compiler

    if isinstance(expr, E.IntImm):
        return np.int64(expr.value)
    if isinstance(expr, E.Var):
        return env.get(expr)
    if isinstance(expr, E.Cast):
        return _evaluate(expr.value, env)
    ops = {
        E.Add: np.add,
        E.Sub: np.subtract,
        E.Mul: np.multiply,
        E.FloorDiv: np.floor_divide,
        E.FloorMod: np.mod,
        E.Min: np.minimum,
        E.Max: np.maximum,
    }
    for cls, fn in ops.items():
        if type(expr) is cls:
            a, b = _evaluate(expr.a, env), _evaluate(expr.b, env)
            if a is None or b is None:
                return None
            if fn in (np.floor_divide, np.mod) and np.any(b == 0):
                return None
            return fn(a, b)
    return None


def _same_everywhere(loops, dst_flat, src_flat, env_sym=None) -> bool:
    """Whether both flat indices agree at every iteration, the symbolic sizes fixed by
    env_sym (var -> int)."""
    import numpy as np  # here only: numpy is an optional dependency of tvm-compiler

    env = dict(env_sym or {})
    sizes, starts = [], []
    for loop in loops:
        extent, start = _evaluate(loop.extent, env), _evaluate(loop.min, env)
        if extent is None or start is None or np.ndim(extent) or np.ndim(start):
            return False
        sizes.append(max(int(extent), 0))
        starts.append(int(start))
    if int(np.prod(sizes, dtype=np.int64)) > _EXHAUSTIVE_LIMIT:
        return False
    grids = np.meshgrid(*[np.arange(n, dtype=np.int64) for n in sizes], indexing="ij")
    for loop, grid, start in zip(loops, grids, starts):
        env[loop.loop_var] = grid + np.int64(start)
    a, b = _evaluate(dst_flat, env), _evaluate(src_flat, env)
    return a is not None and b is not None and bool(np.all(a == b))


# Sizes tried for symbolic dimensions: one each, then distinct primes so that no two
# dimensions coincide by accident.
_TRIAL_SIZES = ((1,), (2,), (3,), (4,), (7,), (8,), (2, 3, 5, 7, 11, 13))


def _same_for_trial_sizes(loops, dst_flat, src_flat, shapes) -> bool:
    import numpy as np  # here only: numpy is an optional dependency of tvm-compiler

    from .struct_info_analysis import tir_vars_in

    loop_vars = {loop.loop_var for loop in loops}
    exprs = [dst_flat, src_flat, *[x for loop in loops for x in (loop.min, loop.extent)]]
    symbolic = [v for v in tir_vars_in([*exprs, *shapes]) if v not in loop_vars]
    for trial in _TRIAL_SIZES:
        env = {v: np.int64(trial[i % len(trial)]) for i, v in enumerate(symbolic)}
        counts = [_evaluate(_product(shape), env) for shape in shapes]
        if any(c is None for c in counts) or counts[0] != counts[1]:
            return False
        if not _same_everywhere(loops, dst_flat, src_flat, env):
            return False
    return True


def _product(shape):
    out = E.const(1, "int64")
    for d in shape:
        out = out * d
    return out


def _num_elements(shape):
    import numpy as np  # here only: numpy is an optional dependency of tvm-compiler

    if all(isinstance(d, E.IntImm) for d in shape):
        return int(np.prod([d.value for d in shape], dtype=np.int64))
    return None


def has_reshape_pattern(func) -> bool:
    """Whether func's single block stores, at every iteration, the element of its input whose
    row-major flat index equals the flat index it writes (output and input hold as many
    elements). Proved symbolically where the simplifier can; otherwise a static loop nest is
    checked at every iteration, and one with symbolic sizes at every iteration for each of
    a few trial sizes (1, 2, 3, 4, 7, 8, then distinct primes)."""
    from tvm.arith import Analyzer
    from tvm.ir.expr import Range
    from tvm.tir.function import PrimFunc
    from tvm.tir.functor import substitute

    expect("has_reshape_pattern", "func", func, PrimFunc, "a tir PrimFunc")
    found = _copy_statement(func)
    if found is None:
        return False
    loops, bindings, store, load = found
    params = list(func.buffer_map.values())
    if store.buffer not in params or load.buffer not in params or store.buffer is load.buffer:
        return False
    n_dst, n_src = _num_elements(store.buffer.shape), _num_elements(load.buffer.shape)
    if n_dst is not None and n_src is not None and n_dst != n_src:
        return False
    dst_flat = substitute(_flat_index(store.indices, store.buffer.shape), bindings)
    src_flat = substitute(_flat_index(load.indices, load.buffer.shape), bindings)
    analyzer = Analyzer()
    for loop in loops:
        analyzer.bind(loop.loop_var, Range.from_min_extent(loop.min, loop.extent))
    if analyzer.can_prove_equal(dst_flat, src_flat):
        return True
    shapes = [store.buffer.shape, load.buffer.shape]
    if not any(_num_elements(shape) is None for shape in shapes):
        return _same_everywhere(loops, dst_flat, src_flat)
    return _same_for_trial_sizes(loops, dst_flat, src_flat, shapes)
