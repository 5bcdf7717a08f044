"""ConvertToDataflow: runs of consecutive pure bindings outside dataflow blocks become
dataflow blocks (merged with a dataflow block they touch); their variables nobody reads after
the block become DataflowVars."""

from __future__ import annotations

from ..analysis.purity import contains_impure_call
from .lowering_utils import BindingRewriter, free_relax_uses, relax_function_pass, substitute_vars


def _dataflow_able(binding) -> bool:
    from ..expr import Function, If, MatchCast, SeqExpr

    if isinstance(binding, MatchCast):
        return not contains_impure_call(binding.value)
    value = binding.value
    if isinstance(value, (If, SeqExpr, Function)):
        return False  # control flow and closures stay outside dataflow blocks
    return not contains_impure_call(value)


def _regroup(seq, min_size):
    """The blocks of seq regrouped, or None when nothing changes."""
    from ..expr import DataflowBlock

    # runs: [is_dataflow, [(binding, was_in_dataflow_block)]]
    runs: list = []
    for block in seq.blocks:
        in_df = isinstance(block, DataflowBlock)
        for b in block.bindings:
            ok = in_df or _dataflow_able(b)
            if not runs or runs[-1][0] != ok:
                runs.append([ok, []])
            runs[-1][1].append((b, in_df))
    new_blocks, changed = [], False
    for ok, items in runs:
        fresh = sum(not in_df for _, in_df in items)
        if ok and fresh >= min_size:
            new_blocks.append(("dataflow", [b for b, _ in items]))
            changed = True
        else:
            # unchanged: keep each binding in a block of the kind it came from
            for b, in_df in items:
                kind = "keep-dataflow" if in_df else "plain"
                if new_blocks and new_blocks[-1][0] == kind and not _starts_block(b, seq):
                    new_blocks[-1][1].append(b)
                else:
                    new_blocks.append((kind, [b]))
    return new_blocks if changed else None


def _starts_block(binding, seq) -> bool:
    return any(block.bindings and block.bindings[0] is binding for block in seq.blocks)


def _convert(seq, min_size):
    from ..expr import BindingBlock, DataflowBlock, DataflowVar, SeqExpr, Var, _sinfo_of
    from .lowering_utils import with_sinfo

    groups = _regroup(seq, min_size)
    if groups is None:
        return seq
    # where each variable is read: a variable of a new dataflow block read by a later
    # block (or the body) must stay a Var; one read only inside its block becomes a DataflowVar
    renames: dict = {}
    for index, (kind, bindings) in enumerate(groups):
        if kind != "dataflow":
            continue
        later = [b.value for _, bs in groups[index + 1 :] for b in bs] + [seq.body]
        read_later = {id(v) for expr in later for v in free_relax_uses(expr)}
        for b in bindings:
            var = b.var
            if type(var) is Var and id(var) not in read_later:
                renames[var] = DataflowVar(var.name_hint, _sinfo_of(var))
    blocks = []
    for kind, bindings in groups:
        new_bindings = []
        for b in bindings:
            value = substitute_vars(b.value, renames) if renames else b.value
            var = renames.get(b.var, b.var)
            if value is not b.value or var is not b.var:
                b = b.with_fields(value=value, var=var)
            new_bindings.append(b)
        cls = BindingBlock if kind == "plain" else DataflowBlock
        blocks.append(cls(new_bindings))
    body = substitute_vars(seq.body, renames) if renames else seq.body
    return with_sinfo(SeqExpr(blocks, body), _sinfo_of(seq))


class _Rewriter(BindingRewriter):
    def __init__(self, min_size):
        super().__init__()
        self.min_size = min_size

    def rewrite_seq(self, seq):
        return _convert(super().rewrite_seq(seq), self.min_size)


def ConvertToDataflow(min_size: int = 2):  # noqa: N802  (pass constructors are capitalised)
    """Put each run of at least min_size consecutive pure bindings outside dataflow blocks
    into a dataflow block (relax.transform.ConvertToDataflow)."""
    if isinstance(min_size, bool) or not isinstance(min_size, int) or min_size < 1:
        raise ValueError(f"ConvertToDataflow: min_size must be an int >= 1, got {min_size!r}")

    @relax_function_pass("ConvertToDataflow")
    def convert_to_dataflow(func, mod, ctx):
        return _Rewriter(min_size).rewrite_function(func)

    return convert_to_dataflow
