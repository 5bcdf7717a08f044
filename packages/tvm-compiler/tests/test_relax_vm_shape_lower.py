"""VMShapeLower: the shape heap (alloc_shape_heap, check_tensor_info, match_shape with the
MatchShapeCode constants, make_shape with MakeShapeCode, a host shape function)."""

from relax_programs import mlp_module
from tvm import relax, tir
from tvm.runtime.vm import MakeShapeCode, MatchShapeCode


def _packed(func, name):
    out = []
    for block in func.body.blocks:
        for b in block.bindings:
            v = b.value
            if isinstance(v, relax.Call) and v.args and isinstance(v.args[0], relax.ExternFunc):
                if v.args[0].global_symbol == name:
                    out.append(v)
    return out


def _lowered():
    return relax.get_pipeline("default")(mlp_module((4, 8)))


def _ints(call, start, stop=None):
    return [int(a.value.value) for a in call.args[start:stop]]


def test_parameters_are_checked_then_matched_into_the_heap():
    mod = _lowered()
    func = mod["main"]
    heap_call = func.body.blocks[0].bindings[0].value
    assert heap_call.args[0].global_symbol == "vm.builtin.alloc_shape_heap"
    checks = _packed(func, "vm.builtin.check_tensor_info")
    assert [c.args[1] for c in checks] == list(func.params)
    assert "ErrorContext(fn=main, loc=param[0], param=x" in checks[0].args[-1].value
    matches = _packed(func, "vm.builtin.match_shape")
    x_match = matches[0]
    # x: (n, 4): store n into slot 0, assert the 4.
    assert _ints(x_match, 3, -1) == [
        2,
        MatchShapeCode.kStoreToHeap,
        0,
        MatchShapeCode.kAssertEqualToImm,
        4,
    ]
    # The result is checked against n when the function returns.
    assert _ints(matches[-1], 3, -1)[:3] == [2, MatchShapeCode.kAssertEqualToLoad, 0]


def test_shapes_are_made_from_the_heap_and_composites_computed_by_a_shape_func():
    mod = _lowered()
    shapes = _packed(mod["main"], "vm.builtin.make_shape")
    two_d = [s for s in shapes if int(s.args[2].value.value) == 2]
    assert _ints(two_d[0], 3) == [MakeShapeCode.kLoadShape, 0, MakeShapeCode.kUseImm, 8]
    shape_funcs = [gv for gv in mod.get_global_vars() if gv.name_hint.startswith("shape_func")]
    assert len(shape_funcs) == 1
    assert isinstance(mod[shape_funcs[0]], tir.PrimFunc)
    assert mod[shape_funcs[0]].attrs["tir.is_host_func"] is True
