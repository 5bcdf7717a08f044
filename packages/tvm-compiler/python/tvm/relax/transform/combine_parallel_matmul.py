"""CombineParallelMatmul: matmuls of one left operand by several 2-D right operands become one
matmul by their concatenation, split afterwards; a bias add and an activation each branch
applies are combined too when every branch applies them alike (relax.transform.
CombineParallelMatmul)."""

from __future__ import annotations

from tvm.tir import expr as E

from .lowering_utils import is_op_call, relax_function_pass

_ACTIVATIONS = ("relax.nn.relu", "relax.nn.gelu", "relax.nn.gelu_tanh", "relax.nn.silu")


class _Branch:
    def __init__(self, index, matmul_binding):
        self.index = index  # position of the matmul in the block
        self.matmul = matmul_binding
        self.rhs = matmul_binding.value.args[1]
        self.bias = None  # the bias tensor
        self.bias_binding = None
        self.act_binding = None

    @property
    def bindings(self):
        return [b for b in (self.matmul, self.bias_binding, self.act_binding) if b is not None]

    @property
    def result(self):
        return self.bindings[-1].var


def _static_width(sinfo):
    dims = getattr(getattr(sinfo, "shape", None), "values", None)
    if dims is None or not isinstance(dims[-1], E.IntImm):
        return None
    return int(dims[-1].value)


def _readers(block, later_uses) -> dict:
    from .lowering_utils import free_relax_uses

    readers: dict = {}
    for b in block.bindings:
        for v in dict.fromkeys(free_relax_uses(b.value)):
            readers.setdefault(v, []).append(b)
    for v in later_uses:
        readers.setdefault(v, []).append(None)  # read after the block
    return readers


def _branches(block, readers) -> dict:
    """lhs var -> its matmul branches with the bias add / activation each one applies."""
    groups: dict = {}
    for i, b in enumerate(block.bindings):
        value = b.value
        if not is_op_call(value, "relax.matmul"):
            continue
        lhs, rhs = value.args
        rs = rhs.__dict__.get("struct_info_")
        if getattr(rs, "ndim", None) != 2 or _static_width(rs) is None:
            continue
        branch = _Branch(i, b)
        only = readers.get(b.var, [])
        if len(only) == 1 and only[0] is not None and is_op_call(only[0].value, "relax.add"):
            add = only[0]
            other = [a for a in add.value.args if a is not b.var]
            bias_sinfo = other[0].__dict__.get("struct_info_") if len(other) == 1 else None
            if (
                add.value.args[0] is b.var
                and getattr(bias_sinfo, "ndim", None) == 1
                and _static_width(bias_sinfo) == _static_width(rs)
            ):
                branch.bias, branch.bias_binding = other[0], add
        tail = branch.result
        only = readers.get(tail, [])
        if (
            len(only) == 1
            and only[0] is not None
            and any(is_op_call(only[0].value, name) for name in _ACTIVATIONS)
        ):
            branch.act_binding = only[0]
        key = (lhs, str(value.attrs.out_dtype), str(rs.dtype))
        groups.setdefault(key, []).append(branch)
    return groups


def _defined_before(var, block, index) -> bool:
    """Whether var is available at position index of block (not bound at or after it)."""
    return all(b.var is not var for b in block.bindings[index:])


def _combine(block, group, emit_var):
    """The bindings replacing group's, all placed where its first matmul was."""
    from ..block_builder import BlockBuilder
    from ..expr import Call, TupleGetItem, VarBinding
    from ..op import add, concat, matmul, split

    bb = BlockBuilder()
    out: list = []

    def bind(expr, var=None):
        expr = bb.normalize(expr)
        var = var if var is not None else emit_var(expr.struct_info)
        out.append(VarBinding(var, expr))
        return var

    first = group[0].matmul.value
    lhs = first.args[0]
    out_dtype = first.attrs.out_dtype
    out_dtype = None if str(out_dtype) in ("", "void") else out_dtype
    weights = bind(concat([br.rhs for br in group], axis=1))
    combined = bind(matmul(lhs, weights, out_dtype))
    all_bias = all(br.bias is not None for br in group)
    acts = {br.act_binding.value.op.name if br.act_binding else None for br in group}
    all_act = all_bias and len(acts) == 1 and None not in acts
    if all_bias:
        combined = bind(add(combined, bind(concat([br.bias for br in group], axis=0))))
        if all_act:
            act = group[0].act_binding.value
            combined = bind(Call(act.op, [combined], act.attrs, act.sinfo_args))
    widths = [_static_width(br.rhs.struct_info) for br in group]
    cuts, total = [], 0
    for w in widths[:-1]:
        total += w
        cuts.append(total)
    ndim = combined.struct_info.ndim
    parts = bind(split(combined, cuts, axis=ndim - 1))
    for i, br in enumerate(group):
        steps = [TupleGetItem(parts, i)]
        if br.bias is not None and not all_bias:
            steps.append(("bias", br))
        if br.act_binding is not None and not all_act:
            steps.append(("act", br))
        current = None
        for j, step in enumerate(steps):
            last = j == len(steps) - 1
            if j == 0:
                expr = step
            elif step[0] == "bias":
                expr = add(current, br.bias)
            else:
                act = br.act_binding.value
                expr = Call(act.op, [current], act.attrs, act.sinfo_args)
            current = bind(expr, br.result if last else None)
    return out


def _rewrite_block(block, later_uses, check, var2val):
    from ..expr import DataflowBlock, DataflowVar

    readers = _readers(block, later_uses)
    replaced: dict = {}  # id(binding) -> replacement list (at the first matmul) or []
    for (lhs, _, _), group in _branches(block, readers).items():
        if len(group) < 2:
            continue
        start = group[0].index
        needed = [lhs, *[br.rhs for br in group], *[br.bias for br in group if br.bias]]
        if not all(_defined_before(v, block, start) for v in needed):
            continue
        if any(id(b) in replaced for br in group for b in br.bindings):
            continue
        biases = [br.bias for br in group if br.bias is not None]
        if not check(lhs, [br.rhs for br in group], biases, var2val):
            continue
        new = _combine(block, group, lambda sinfo: DataflowVar("lv", sinfo))
        for br in group:
            for b in br.bindings:
                replaced[id(b)] = []
        replaced[id(group[0].matmul)] = new
    if not replaced:
        return block
    bindings = []
    for b in block.bindings:
        bindings.extend(replaced.get(id(b), [b]))
    return DataflowBlock(bindings)


def CombineParallelMatmul(check=None):  # noqa: N802  (pass constructors are capitalised)
    """The pass. check(lhs, rhs_list, bias_list, var2val) -> bool may veto a group."""
    if check is None:

        def check(*_):
            return True

    if not callable(check):
        raise TypeError(
            f"CombineParallelMatmul: check must be callable or None, got {type(check).__name__}"
        )

    @relax_function_pass("CombineParallelMatmul")
    def combine_parallel_matmul(func, mod, ctx):
        from ..analysis.bindings import get_var2val
        from ..expr import DataflowBlock, SeqExpr, _sinfo_of
        from .lowering_utils import free_relax_uses, with_sinfo

        body = func.body
        if not isinstance(body, SeqExpr):
            return func
        var2val = None
        blocks, changed = [], False
        for i, block in enumerate(body.blocks):
            if isinstance(block, DataflowBlock):
                later = [*[b.value for blk in body.blocks[i + 1 :] for b in blk.bindings]]
                later_uses = {v for e in [*later, body.body] for v in free_relax_uses(e)}
                if var2val is None:
                    var2val = get_var2val(func)
                new = _rewrite_block(block, later_uses, check, var2val)
                changed |= new is not block
                block = new
            blocks.append(block)
        if not changed:
            return func
        seq = with_sinfo(SeqExpr(blocks, body.body), _sinfo_of(body))
        return func.with_fields(body=seq)

    return combine_parallel_matmul
