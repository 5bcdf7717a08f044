"""tensorize: match a block's body against a TensorIntrin's description, loop for loop and access
for access, and replace it with the intrinsic's implementation on the block's buffers."""

from __future__ import annotations

from tvm.arith import Analyzer
from tvm.ir.node import Node

from .. import expr as E
from ..functor import StmtExprMutator, substitute
from ..stmt import Block, BlockRealize, BufferStore, For, IterVar
from .blockize import blockize

PRIMITIVE = "tensorize"


class _Mismatch(Exception):
    pass


def _root_body(func):
    body = func.body
    if isinstance(body, BlockRealize) and not body.block.iter_vars:
        return body.block.body
    return body


class _Matcher:
    """Compares the target's statements (t) with the description's (d): desc variables map to
    target variables, desc buffers to target buffers at the target block's region start."""

    def __init__(self, bases: dict):
        self.bases = bases  # id(target buffer) -> region starts
        self.vars: dict[int, E.Var] = {}
        self.buffers: dict[int, object] = {}
        self.analyzer = Analyzer()

    def stmt(self, t, d):
        if type(t) is not type(d):
            raise _Mismatch(f"a {type(t).__name__} where the description has a {type(d).__name__}")
        if isinstance(t, For):
            self.expr(t.min, d.min)
            self.expr(t.extent, d.extent)
            self.vars[id(d.loop_var)] = t.loop_var
            self.stmt(t.body, d.body)
        elif isinstance(t, BlockRealize):
            bt, bd = t.block, d.block
            if len(bt.iter_vars) != len(bd.iter_vars):
                raise _Mismatch(
                    f"block {bt.name_hint!r} has {len(bt.iter_vars)} iterators, the "
                    f"description's {bd.name_hint!r} {len(bd.iter_vars)}"
                )
            for it, idd in zip(bt.iter_vars, bd.iter_vars):
                if it.iter_type != idd.iter_type:
                    raise _Mismatch(f"iterator {it.var.name} is not of the description's kind")
                self.expr(it.dom.extent, idd.dom.extent)
                self.vars[id(idd.var)] = it.var
            for vt, vd in zip(t.iter_values, d.iter_values):
                self.expr(vt, vd)
            self.expr(t.predicate, d.predicate)
            if (bt.init is None) != (bd.init is None):
                raise _Mismatch(f"block {bt.name_hint!r} and the description differ in init")
            if bt.init is not None:
                self.stmt(bt.init, bd.init)
            self.stmt(bt.body, bd.body)
        elif isinstance(t, BufferStore):
            self.access(t.buffer, t.indices, d.buffer, d.indices)
            self.expr(t.value, d.value)
        else:
            self.node(t, d)

    def access(self, tb, t_idx, db, d_idx):
        mapped = self.buffers.setdefault(id(db), tb)
        if mapped is not tb:
            raise _Mismatch(f"description buffer {db.name!r} stands for two buffers")
        if tb.dtype != db.dtype:
            raise _Mismatch(f"buffer {tb.name!r} is {tb.dtype}, the description's {db.dtype}")
        base = self.bases.get(id(tb))
        if base is None or len(base) < len(d_idx):
            raise _Mismatch(f"buffer {tb.name!r} has no region in the block")
        lead = len(base) - len(d_idx)
        expected = list(base[:lead]) + [
            b + substitute(i, self._vmap()) for b, i in zip(base[lead:], d_idx)
        ]
        for got, want in zip(t_idx, expected):
            if not self.analyzer.can_prove_equal(got, want):
                raise _Mismatch(f"{tb.name}{list(t_idx)} is not {tb.name}{expected}")

    def _vmap(self):
        return {v: self.vars[id(v)] for v in self._desc_vars}

    def expr(self, t, d):
        t, d = E.convert(t), E.convert(d)
        if isinstance(d, E.Var):
            target = self.vars.get(id(d))
            if target is not t:
                raise _Mismatch(f"{t} where the description has {d}")
            return
        if isinstance(t, E.BufferLoad) and isinstance(d, E.BufferLoad):
            self.access(t.buffer, t.indices, d.buffer, d.indices)
            return
        if type(t) is not type(d):
            if self.analyzer.can_prove_equal(t, substitute(d, self._vmap())):
                return
            raise _Mismatch(f"{t} where the description has {d}")
        self.node(t, d)

    def node(self, t, d):
        if type(t) is not type(d):
            raise _Mismatch(f"{t} where the description has {d}")
        for name in t._fields:
            if name in t._ignored_fields:
                continue
            a, b = getattr(t, name), getattr(d, name)
            if isinstance(a, (list, tuple)):
                if len(a) != len(b):
                    raise _Mismatch(f"{t} where the description has {d}")
                for x, y in zip(a, b):
                    self._field(x, y, t, d)
            else:
                self._field(a, b, t, d)

    def _field(self, a, b, t, d):
        if isinstance(a, E.PrimExpr) or isinstance(b, E.PrimExpr):
            self.expr(a, b)
        elif isinstance(a, Node):
            self.stmt(a, b)
        elif a != b:
            raise _Mismatch(f"{t} where the description has {d}")


class _Rebase(StmtExprMutator):
    """The implementation on the target's buffers (indices offset by the region start), with
    fresh loop and block variables so that two uses never share one."""

    def __init__(self, buffers: dict, bases: dict):
        self.buffers, self.bases = buffers, bases

    def _index(self, buffer, indices):
        target = self.buffers[id(buffer)]
        base = self.bases[id(target)]
        lead = len(base) - len(indices)
        return target, (*base[:lead], *[b + self.visit(i) for b, i in zip(base[lead:], indices)])

    def visit_BufferLoad(self, load):
        if id(load.buffer) not in self.buffers:
            return self.generic_visit(load)
        return E.BufferLoad(*self._index(load.buffer, load.indices))

    def visit_BufferStore(self, store):
        if id(store.buffer) not in self.buffers:
            return self.generic_visit(store)
        target, indices = self._index(store.buffer, store.indices)
        return BufferStore(target, self.visit(store.value), indices)

    def visit_For(self, loop):
        var = E.Var(loop.loop_var.name, loop.loop_var.dtype)
        body = substitute(loop.body, {loop.loop_var: var})
        return loop.with_fields(loop_var=var, body=self.visit(body))

    def visit_Block(self, block):
        ivs = [
            IterVar(iv.dom, E.Var(iv.var.name, iv.var.dtype), iv.iter_type)
            for iv in block.iter_vars
        ]
        vmap = {old.var: new.var for old, new in zip(block.iter_vars, ivs)}
        block = Block(
            ivs,
            block.reads,
            block.writes,
            block.name_hint,
            substitute(block.body, vmap),
            None if block.init is None else substitute(block.init, vmap),
            block.alloc_buffers,
            substitute(block.match_buffers, vmap),
            block.annotations,
        )
        new = self.generic_visit(block)
        from ..analysis.access import block_access_regions

        reads, writes = block_access_regions(
            new.body, new.init, new.alloc_buffers, new.match_buffers
        )
        return new.with_fields(reads=tuple(reads), writes=tuple(writes))


def _desc_vars(body):
    from .tree import find_all

    found = []
    for node in find_all(body, lambda n: isinstance(n, (For, BlockRealize))):
        if isinstance(node, For):
            found.append(node.loop_var)
        else:
            found += [iv.var for iv in node.block.iter_vars]
    return found


def tensorize(sch, block_or_loop, tensor_intrin, preserve_unit_iters=True) -> None:
    from tvm.tir.tensor_intrin import TensorIntrin

    from .schedule import BlockRV, LoopRV

    if isinstance(tensor_intrin, str):
        intrin = TensorIntrin.get(tensor_intrin)
    elif isinstance(tensor_intrin, TensorIntrin):
        intrin = tensor_intrin
    else:
        raise TypeError(
            f"{PRIMITIVE}: argument 'tensor_intrin' must be a registered name, "
            f"got {tensor_intrin!r}"
        )
    if isinstance(block_or_loop, LoopRV):
        block_or_loop = blockize(sch, block_or_loop, preserve_unit_iters)
    elif not isinstance(block_or_loop, BlockRV):
        raise TypeError(
            f"{PRIMITIVE}: argument 'block_or_loop' must be a BlockRV or LoopRV, "
            f"got {block_or_loop!r}"
        )
    path = sch._block_path(block_or_loop, PRIMITIVE)
    block = path[-1].block
    bases = {id(r.buffer): [rng.min for rng in r.region] for r in (*block.reads, *block.writes)}
    desc_body = _root_body(intrin.desc)
    matcher = _Matcher(bases)
    matcher._desc_vars = _desc_vars(desc_body)
    try:
        matcher.stmt(block.body, desc_body)
    except (_Mismatch, KeyError) as err:
        detail = str(err) if isinstance(err, _Mismatch) else "a variable is not bound"
        raise sch._error(
            PRIMITIVE,
            f"the body of block {block.name_hint!r} does not match the description of the "
            f"tensor intrinsic {tensor_intrin!r}: {detail}",
        ) from None
    impl_buffers = {}
    for dp, ip in zip(intrin.desc.params, intrin.impl.params):
        db, ib = intrin.desc.buffer_map[dp], intrin.impl.buffer_map[ip]
        target = matcher.buffers.get(id(db))
        if target is None:
            raise sch._error(
                PRIMITIVE,
                f"the description of {tensor_intrin!r} never accesses its buffer {db.name!r}",
            )
        impl_buffers[id(ib)] = target
    body = _Rebase(impl_buffers, bases).visit(_root_body(intrin.impl))
    from .tree import replace_at

    sch._set_body(replace_at(path, path[-1].with_fields(block=block.with_fields(body=body))))


__all__ = ["tensorize"]
