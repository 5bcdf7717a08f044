"""StaticPlanBlockMemory: the tensors a function allocates for its intermediates share storage
once their last use has passed, so peak memory is what is live at once, not the sum.

A function attribute "tir_var_upper_bound" ({name: int}, as upstream) bounds the symbolic vars
of that name in the function's signature: a tensor whose shape uses only them gets a storage of
its largest size with each var in [0, bound], a constant, which other tensors may then reuse."""

from __future__ import annotations

from .lowering_utils import (
    call,
    dtype_bytes,
    dtype_imm,
    free_relax_uses,
    is_op_call,
    new_var,
    object_sinfo,
    prim,
    relax_function_pass,
    shape_expr,
    string,
)


class _Token:
    """One storage: its byte size (a PrimExpr), dtype, and the var bound to its allocation."""

    def __init__(self, size, dtype, index):
        self.size = size
        self.dtype = dtype
        self.index = index
        self.storage_var = None
        self.last_use = -1


def _nbytes(sinfo):
    from tvm.arith import Analyzer
    from tvm.tir.expr import IntImm

    size = IntImm("int64", dtype_bytes(sinfo.dtype))
    for dim in sinfo.shape.values:
        size = size * dim
    return Analyzer().simplify(size)


def _const(expr):
    from tvm.tir.expr import IntImm

    return expr.value if isinstance(expr, IntImm) else None


def _fits(analyzer, token_size, size) -> bool:
    from tvm.ir.structural import structural_equal

    if structural_equal(token_size, size):
        return True
    return analyzer.can_prove(token_size - size >= 0)


def _shape_vars_nonnegative(analyzer, func):
    """Symbolic dimensions are never negative: tell the analyzer, so that 40*n <= 2048*n."""
    from tvm.relax.struct_info import TensorStructInfo
    from tvm.tir.analysis.well_formed import undefined_vars

    seen = set()
    for param in func.params:
        sinfo = param.struct_info
        if isinstance(sinfo, TensorStructInfo) and sinfo.shape is not None:
            for dim in getattr(sinfo.shape, "values", ()):
                for var in undefined_vars(dim):
                    if id(var) not in seen:
                        seen.add(id(var))
                        analyzer.bind(var, _nonneg_range())


def _nonneg_range():
    from tvm.arith.bound import ConstIntBound

    return ConstIntBound(0, 1 << 62)


def _upper_bounds(func) -> dict:
    """{signature TIR var: IntImm bound} from the function's "tir_var_upper_bound" attribute."""
    from tvm.relax.analysis.struct_info_analysis import tir_vars_in
    from tvm.tir.expr import IntImm

    attrs = func.attrs
    if attrs is None or "tir_var_upper_bound" not in attrs:
        return {}
    given = attrs["tir_var_upper_bound"]
    where = "relax.transform.StaticPlanBlockMemory: function attribute 'tir_var_upper_bound'"
    if not hasattr(given, "items"):
        raise TypeError(f"{where} must be a dict of var names to ints, got {given!r}")
    bounds = {}
    for name, value in given.items():
        raw = value.value if isinstance(value, IntImm) else value
        if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
            raise ValueError(
                f"{where}: the bound of {str(name)!r} must be a non-negative int, got {value!r}"
            )
        bounds[str(name)] = raw
    found = {}
    for param in func.params:
        for var in tir_vars_in(param.struct_info):
            if var.name in bounds and all(var is not v for v in found):
                found[var] = IntImm(var.dtype, bounds[var.name])
    return found


def _bounded(size, bounds):
    """The largest size can be with each bounded var in [0, its bound], when every var of
    size is bounded (a constant); else size. Not size at the bounds: a size such as
    4 * (1024 - n) is largest at n = 0, and the storage must hold it for every valid n."""
    import math

    from tvm.arith import Analyzer
    from tvm.arith.bound import ConstIntBound
    from tvm.tir.analysis.well_formed import undefined_vars
    from tvm.tir.expr import IntImm

    if not bounds:
        return size
    if not all(var in bounds for var in undefined_vars(size)):
        return size
    analyzer = Analyzer()
    for var, bound in bounds.items():
        analyzer.bind(var, ConstIntBound(0, bound.value))
    upper = analyzer.const_int_bound(size).max_value
    if not math.isfinite(upper):
        return size
    if upper >= 2**63 - 1:  # the analyzer clamps an overflowing int64 to its maximum
        raise ValueError(
            "relax.transform.StaticPlanBlockMemory: function attribute 'tir_var_upper_bound': "
            f"the bounds make a storage of {int(upper)} bytes, more than an int64 holds"
        )
    return IntImm(size.dtype, max(int(upper), 0))


def _plan(func, mod):
    from tvm.arith import Analyzer
    from tvm.relax.expr import SeqExpr, Tuple, TupleGetItem, Var, VarBinding
    from tvm.relax.struct_info import TensorStructInfo

    body = func.body
    if not isinstance(body, SeqExpr):
        return func
    bindings = [(bi, b) for bi, block in enumerate(body.blocks) for b in block.bindings]
    if not any(is_op_call(b.value, "relax.builtin.alloc_tensor") for _, b in bindings):
        return func
    # Which token each var may hold (an alloc, an alias of one, or a tuple of them).
    holds: dict = {}
    tokens: list = []
    escaped: set = set()
    bounds = _upper_bounds(func)
    for i, (_, binding) in enumerate(bindings):
        value = binding.value
        var = binding.var
        if is_op_call(value, "relax.builtin.alloc_tensor"):
            sinfo = var.struct_info
            if isinstance(sinfo, TensorStructInfo) and sinfo.shape is not None:
                token = _Token(_bounded(_nbytes(sinfo), bounds), str(sinfo.dtype), i)
                tokens.append(token)
                holds[var] = {token}
            continue
        uses = free_relax_uses(value)
        used_tokens = set()
        for use in uses:
            for token in holds.get(use, ()):
                token.last_use = i
                used_tokens.add(token)
        if isinstance(value, (Var, Tuple, TupleGetItem)):
            if used_tokens:
                holds[var] = used_tokens
        elif not _is_kernel_call(value, mod):
            escaped |= used_tokens  # a callee that may keep the tensor: leave it alone
    for use in free_relax_uses(body.body):
        escaped |= holds.get(use, set())
    analyzer = Analyzer()
    _shape_vars_nonnegative(analyzer, func)
    # Assign each alloc a storage token, reusing those whose last use has passed.
    assign: dict = {}
    storages: list = []
    for token in tokens:
        if token in escaped:
            continue
        free = [s for s in storages if s.last_use < token.index and s.dtype == token.dtype]
        chosen = None
        for s in sorted(free, key=lambda s: (_const(s.size) is None, _const(s.size) or 0)):
            if _fits(analyzer, s.size, token.size):
                chosen = s
                break
        if chosen is None:
            grow = [s for s in free if _const(s.size) is not None and _const(token.size)]
            if grow:
                chosen = max(grow, key=lambda s: _const(s.size))
                chosen.size = token.size
        if chosen is None:
            chosen = _Token(token.size, token.dtype, token.index)
            storages.append(chosen)
        chosen.last_use = max(chosen.last_use, token.last_use)
        assign[token.index] = chosen
    if not assign:
        return func
    # Rewrite: the first alloc of a storage also allocates it, at its final size.
    new_blocks = [[] for _ in body.blocks]
    emitted = set()
    for i, (bi, binding) in enumerate(bindings):
        storage = assign.get(i)
        if storage is None:
            new_blocks[bi].append(binding)
            continue
        if id(storage) not in emitted:
            emitted.add(id(storage))
            storage.storage_var = new_var("storage", object_sinfo())
            alloc_storage = call(
                "relax.memory.alloc_storage",
                [shape_expr([storage.size]), prim(0), string("global"), dtype_imm(storage.dtype)],
                object_sinfo(),
            )
            new_blocks[bi].append(VarBinding(storage.storage_var, alloc_storage))
        sinfo = binding.var.struct_info
        alloc = call(
            "relax.memory.alloc_tensor",
            [storage.storage_var, prim(0), shape_expr(sinfo.shape.values), dtype_imm(sinfo.dtype)],
            sinfo,
        )
        new_blocks[bi].append(binding.with_fields(value=alloc))
    blocks = [type(block)(b) for block, b in zip(body.blocks, new_blocks)]
    return func.with_fields(body=body.with_fields(blocks=blocks))


def _is_kernel_call(value, mod) -> bool:
    """A call that only reads and writes its tensors during the call (a PrimFunc, a packed
    builtin): its arguments' storage may be reused after it returns."""
    from tvm.ir.module import GlobalVar
    from tvm.ir.op import Op
    from tvm.relax.expr import Call, If

    if isinstance(value, If):  # upstream: what control flow reads is left to the runtime
        return False
    if not isinstance(value, Call):
        return True
    if isinstance(value.op, GlobalVar):
        from tvm.tir.function import PrimFunc

        return value.op in mod and isinstance(mod[value.op], PrimFunc)
    if isinstance(value.op, Op):
        return value.op.name not in (
            "relax.make_closure",
            "relax.invoke_closure",
            "relax.invoke_pure_closure",
        )
    return False


def StaticPlanBlockMemory():  # noqa: N802
    """Plan the storage of each function's intermediate tensors (relax.transform
    .StaticPlanBlockMemory): builtin.alloc_tensor becomes memory.alloc_storage + memory
    .alloc_tensor, sharing storage between tensors that are never live at once."""

    @relax_function_pass("StaticPlanBlockMemory")
    def static_plan_block_memory(func, mod, ctx):
        return _plan(func, mod)

    return static_plan_block_memory
