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
    # The error context, character for character as upstream writes it.
    assert checks[0].args[-1].value == (
        "ErrorContext(fn=main, loc=param[0], param=x, "
        'annotation=R.Tensor((n, 4), dtype="float32")) '
    )
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


def test_a_shape_is_made_once_per_function_body():
    shapes = _packed(_lowered()["main"], "vm.builtin.make_shape")
    made = [tuple(_ints(s, 2)) for s in shapes]
    assert len(made) == len(set(made))


def test_a_symbolic_prim_value_is_loaded_once():
    from relax_programs import if_on_symbolic_module

    func = relax.get_pipeline("default")(if_on_symbolic_module())["main"]
    assert len(_packed(func, "vm.builtin.make_prim_value")) == 1


def test_match_cast_to_static_dims_in_a_function_without_symbolic_ones():
    """No symbolic dim anywhere, yet the match_cast checks (3,) through the shape heap: the
    function must allocate one (it raised "used before it is allocated")."""
    import numpy as np
    import pytest
    import tvm
    from tvm import relax

    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo(dtype="float32", ndim=1))
    with bb.function("main", [x]):
        y = bb.match_cast(x, relax.TensorStructInfo([3], "float32"))
        bb.emit_func_output(bb.emit(relax.op.add(y, y)))
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    data = np.arange(3, dtype="float32")
    np.testing.assert_array_equal(vm["main"](tvm.runtime.tensor(data)).numpy(), 2 * data)
    with pytest.raises(
        ValueError, match=r"match_cast .* dimension 0 of the shape \(4,\) is 4, expected 3"
    ):
        vm["main"](tvm.runtime.tensor(np.zeros(4, "float32")))


def _symbolic_identity():
    n = tir.Var("n", "int64")
    x = relax.Var("x", relax.TensorStructInfo([n, 4], "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x], attrs={"relax.force_pure": True}):
        bb.emit_func_output(x)
    return bb.get()


def test_without_error_context_the_checks_carry_empty_messages():
    # Upstream's VMShapeLower(emit_err_ctx=False): each check's message argument is "".
    func = relax.transform.VMShapeLower(emit_err_ctx=False)(_symbolic_identity())["main"]
    checks = _packed(func, "vm.builtin.check_tensor_info") + _packed(func, "vm.builtin.match_shape")
    assert len(checks) >= 2 and all(c.args[-1].value == "" for c in checks)
    func = relax.transform.VMShapeLower()(_symbolic_identity())["main"]
    (check,) = _packed(func, "vm.builtin.check_tensor_info")
    assert check.args[-1].value.startswith("ErrorContext(fn=main, loc=param[0], param=x")


def test_call_builtin_with_ctx_constructor_and_script():
    from tvm.script import relax as R

    heap_sinfo = relax.TensorStructInfo(ndim=1, dtype="int64")
    call = R.call_builtin_with_ctx(
        "vm.builtin.alloc_shape_heap", [R.prim_value(2)], sinfo_args=[heap_sinfo]
    )
    assert call.op.name == "relax.call_builtin_with_ctx"
    assert call.args[0].global_symbol == "vm.builtin.alloc_shape_heap"
    assert isinstance(call.args[1], relax.Tuple) and len(call.args[1].fields) == 1
    assert relax.BlockBuilder().normalize(call).struct_info.ndim == 1
    import pytest

    with pytest.raises(TypeError, match="call_builtin_with_ctx: func must be a str"):
        relax.op.call_builtin_with_ctx(3, [])


def test_static_parameter_dims_are_checked_when_nothing_is_symbolic():
    """Without a symbolic dim no match_shape was emitted: a (1, 2) tensor passed for a (3, 2)
    parameter came back as the (3, 2) result (a kernel without checks of its own would have
    read past it). A static dim past the VM's 56-bit immediates goes in the constant pool."""
    import numpy as np
    import pytest
    import tvm

    for dims in ([3, 2], [2**60, 2]):
        bb = relax.BlockBuilder()
        x = relax.Var("x", relax.TensorStructInfo(dims, "float32"))
        with bb.function("main", [x]):
            bb.emit_func_output(x)
        for exec_mode in ("bytecode", "compiled"):
            ex = tvm.compile(bb.get(), target="llvm", exec_mode=exec_mode)
            vm = relax.VirtualMachine(ex, tvm.cpu())
            with pytest.raises(
                ValueError,
                match=rf"param=x.*: dimension 0 of the shape \(1, 2\) is 1, expected {dims[0]}",
            ):
                vm["main"](tvm.runtime.tensor(np.zeros((1, 2), "float32")))
    ok = np.ones((3, 2), "float32")
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo([3, 2], "float32"))
    with bb.function("main", [x]):
        bb.emit_func_output(x)
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    np.testing.assert_array_equal(vm["main"](tvm.runtime.tensor(ok)).numpy(), ok)
