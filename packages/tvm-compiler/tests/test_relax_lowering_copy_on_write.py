"""Every lowering pass is copy-on-write: run again on its own output, it changes nothing and
returns the very same module."""

import pytest
from relax_programs import if_on_symbolic_module, mlp_module
from tvm.relax import transform

_PASSES = [
    "ToNonDataflow",
    "RemovePurityChecking",
    "CallTIRRewrite",
    "StaticPlanBlockMemory",
    "LowerAllocTensor",
    "KillAfterLastUse",
    "LowerRuntimeBuiltin",
    "ComputePrimValue",
    "CanonicalizeBindings",
    "DeadCodeElimination",
    "FoldConstant",
    "AttachGlobalSymbol",
]


@pytest.mark.parametrize("name", _PASSES)
@pytest.mark.parametrize("program", [mlp_module, if_on_symbolic_module])
def test_a_second_run_returns_the_same_module(name, program):
    mod = program()
    for earlier in _PASSES[: _PASSES.index(name) + 1]:
        mod = getattr(transform, earlier)()(mod)
    assert getattr(transform, name)()(mod) is mod
