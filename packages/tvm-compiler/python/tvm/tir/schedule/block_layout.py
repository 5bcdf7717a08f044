"""transform_block_layout: give a block new iterators through a bijective index map of its
iterators, with new loops over them, and rewrite its body in terms of them."""

from __future__ import annotations

from .. import expr as E
from ..analysis.access import block_access_regions
from ..functor import post_order_visit, substitute
from ..stmt import BlockRealize, For, IterVar
from .bijection import NotBijective, inverse_and_shape
from .index_map import IndexMap
from .tree import replace_at

PRIMITIVE = "transform_block_layout"


def _loop_nest(sch, path, realize, primitive=PRIMITIVE, symbolic=False):
    """The loops directly around realize, one per iterator, each iterator bound to its own
    loop variable: (index in path of the outermost of them, the loops). Iterator extents must
    be constants unless symbolic is true."""
    block = realize.block
    values = realize.iter_values
    k = len(path) - 1
    loops = []
    while len(loops) < len(values) and k > 0 and isinstance(path[k - 1], For):
        if path[k - 1].body is not path[k]:
            break
        loops.insert(0, path[k - 1])
        k -= 1
    loop_ids = {id(loop.loop_var) for loop in loops}
    if (
        len(loops) != len(values)
        or any(not isinstance(v, E.Var) or id(v) not in loop_ids for v in values)
        or len({id(v) for v in values}) != len(values)
    ):
        raise sch._error(
            primitive,
            f"the binding values of block {block.name_hint!r} are not variables of outer loops",
        )
    for iv, loop in zip(block.iter_vars, sorted(loops, key=lambda lp: _position(values, lp))):
        if not (
            isinstance(iv.dom.min, E.IntImm)
            and iv.dom.min.value == 0
            and (symbolic or isinstance(iv.dom.extent, E.IntImm))
            and isinstance(loop.min, E.IntImm)
            and loop.min.value == 0
        ):
            raise sch._error(
                primitive, f"block {block.name_hint!r} must have constant iterator domains from 0"
            )
    return k, loops


def _position(values, loop):
    return next(n for n, v in enumerate(values) if v is loop.loop_var)


def _kinds(sch, block, index_map):
    """Each new iterator's kind: that of the old ones it uses, which must agree."""
    kind_of = {id(iv.var): iv.iter_type for iv in block.iter_vars}
    by_input = {
        id(v): kind_of[id(iv.var)] for v, iv in zip(index_map.initial_indices, block.iter_vars)
    }
    kinds = []
    for index in index_map.final_indices:
        used = {by_input[id(n)] for n in _vars_of(index) if id(n) in by_input}
        if len(used) > 1:
            raise sch._error(
                PRIMITIVE,
                f"the index map output {index} mixes spatial and reduction iterators of block "
                f"{block.name_hint!r}",
            )
        kinds.append(used.pop() if used else IterVar.DataPar)
    return kinds


def _vars_of(expr) -> list:
    found = []
    post_order_visit(expr, lambda n: found.append(n) if isinstance(n, E.Var) else None)
    return found


def transform_block_layout(sch, block_rv, index_map) -> None:
    path = sch._block_path(block_rv, PRIMITIVE)
    realize = path[-1]
    block = realize.block
    if not isinstance(index_map, IndexMap):
        if not callable(index_map):
            raise sch._error(
                PRIMITIVE, f"argument 'index_map' must be a function or IndexMap, got {index_map!r}"
            )
        index_map = IndexMap.from_func(index_map, ndim=len(block.iter_vars), index_dtype="int32")
    if len(index_map.initial_indices) != len(block.iter_vars):
        raise sch._error(
            PRIMITIVE,
            f"the index map {index_map!r} can't be applied to the iterators of block "
            f"{block.name_hint!r}: it takes {len(index_map.initial_indices)} indices, the "
            f"block has {len(block.iter_vars)} iterators",
        )
    start, _loops = _loop_nest(sch, path, realize)
    extents = [iv.dom.extent.value for iv in block.iter_vars]
    try:
        outputs, inverse, shape = inverse_and_shape(
            index_map.initial_indices, index_map.final_indices, extents
        )
    except NotBijective as err:
        raise sch._error(
            PRIMITIVE, f"the index map {index_map!r} is not bijective affine ({err})"
        ) from None
    kinds = _kinds(sch, block, index_map)
    new_ivs = [
        IterVar(E.Range(0, E.const(n, v.dtype)), v, kind)
        for v, n, kind in zip(outputs, shape, kinds)
    ]
    vmap = {iv.var: expr for iv, expr in zip(block.iter_vars, inverse)}
    body = substitute(block.body, vmap)
    init = None if block.init is None else substitute(block.init, vmap)
    reads, writes = block_access_regions(body, init, block.alloc_buffers)
    new_block = block.with_fields(
        iter_vars=tuple(new_ivs), body=body, init=init, reads=tuple(reads), writes=tuple(writes)
    )
    loop_vars = [E.Var(f"ax{k}", v.dtype) for k, v in enumerate(outputs)]
    stmt = BlockRealize(loop_vars, realize.predicate, new_block)
    for var, n in reversed(list(zip(loop_vars, shape))):
        stmt = For(var, 0, E.const(n, var.dtype), body=stmt)
    sch._set_body(replace_at(path[: start + 1], stmt))
