"""KillAfterLastUse: the VM drops its reference to each allocated storage and tensor right
after the binding that uses it last, so memory returns while the function still runs."""

from __future__ import annotations

from .canonicalize_bindings import canonicalize
from .lowering_utils import (
    call,
    free_relax_uses,
    is_op_call,
    new_var,
    relax_function_pass,
    void_sinfo,
)

_KILL_OF = {
    "relax.memory.alloc_storage": "relax.memory.kill_storage",
    "relax.memory.alloc_tensor": "relax.memory.kill_tensor",
}


def _kill_in_seq(seq):
    from tvm.relax.expr import Var, VarBinding

    flat = [b for block in seq.blocks for b in block.bindings]
    kill_op = {}
    for binding in flat:
        for alloc_op, kill in _KILL_OF.items():
            if is_op_call(binding.value, alloc_op):
                kill_op[binding.var] = kill
    killed = {
        b.value.args[0]
        for b in flat
        if any(is_op_call(b.value, k) for k in (*_KILL_OF.values(), "relax.vm.kill_object"))
    }
    for var in killed:  # already dropped where it was last used (a second run of the pass)
        kill_op.pop(var, None)
    if not kill_op:
        return seq
    # a var bound to another (a MatchCast, which canonicalize keeps) is the same object in
    # the VM: its uses are the source's, and returning it keeps the source alive
    source = {}
    for binding in flat:
        if isinstance(binding.value, Var):
            source[binding.var] = source.get(binding.value, binding.value)
    last_use = {}
    for i, binding in enumerate(flat):
        for use in free_relax_uses(binding.value):
            use = source.get(use, use)
            if use in kill_op:
                last_use[use] = i
    for use in free_relax_uses(seq.body):
        use = source.get(use, use)
        last_use.pop(use, None)
        kill_op.pop(use, None)
    kills_after: dict = {}
    for var, i in last_use.items():
        if var in kill_op:
            kills_after.setdefault(i, []).append(var)
    if not kills_after:
        return seq
    new_blocks = []
    index = 0
    for block in seq.blocks:
        out = []
        for binding in block.bindings:
            out.append(binding)
            for var in kills_after.get(index, ()):
                kill = call(kill_op[var], [var], void_sinfo())
                out.append(VarBinding(new_var("_", void_sinfo()), kill))
            index += 1
        new_blocks.append(type(block)(out))
    return seq.with_fields(blocks=new_blocks)


def KillAfterLastUse():  # noqa: N802
    """Insert memory.kill_storage / kill_tensor after each allocation's last use."""

    @relax_function_pass("KillAfterLastUse")
    def kill_after_last_use(func, mod, ctx):
        func = canonicalize(func)
        body = _kill_in_seq(func.body)
        return func if body is func.body else func.with_fields(body=body)

    return kill_after_last_use
