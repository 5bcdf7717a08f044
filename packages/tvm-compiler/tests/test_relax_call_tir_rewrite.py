"""CallTIRRewrite: call_tir becomes an allocation of its output plus a destination call."""

from relax_programs import mlp_module
from tvm import relax
from tvm.ir.module import GlobalVar
from tvm.relax import transform
from tvm.relax.transform.lowering_utils import is_op_call


def _bindings(func):
    return [b for block in func.body.blocks for b in block.bindings]


def test_call_tir_becomes_alloc_then_call_with_the_output():
    mod = transform.CallTIRRewrite()(transform.ToNonDataflow()(mlp_module((4, 8))))
    bindings = _bindings(mod["main"])
    assert not any(is_op_call(b.value, "relax.call_tir") for b in bindings)
    alloc, kernel, alias = bindings[:3]
    assert is_op_call(alloc.value, "relax.builtin.alloc_tensor")
    shape, dtype = alloc.value.args[:2]
    assert [int(v.value) for v in shape.values[1:]] == [8] and dtype.value == "float32"
    assert isinstance(kernel.value.op, GlobalVar) and kernel.value.op.name_hint == "matmul4x8"
    assert kernel.value.args[-1] is alloc.var
    assert alias.value is alloc.var


def test_a_module_without_call_tir_is_unchanged():
    mod = transform.CallTIRRewrite()(transform.ToNonDataflow()(mlp_module((4, 8))))
    assert transform.CallTIRRewrite()(mod) is mod
    assert relax.transform.LowerAllocTensor()(mod) is not mod
