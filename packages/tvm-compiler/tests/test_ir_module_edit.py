# IRModule edited in place as upstream code does it: mod["f"] = func, del, update, update_func,
# update_global_info, clone, and the attribute helpers; bad keys and values are TypeErrors.
import pytest
import tvm
from tvm import relax
from tvm.script import ir as I
from tvm.script import relax as R


def _module():
    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((2,), "float32")):
            return x

        @R.function
        def f(x: R.Tensor((2,), "float32")):
            y = R.add(x, x)
            return y

    return Module


def _names(mod):
    return sorted(gv.name_hint for gv in mod.get_global_vars())


def test_setitem_adds_and_replaces_in_place():
    mod = _module()
    f = mod["f"]
    mod["h"] = f
    assert _names(mod) == ["f", "h", "main"]
    assert mod["h"] is f
    gv_h = mod.get_global_var("h")
    mod["h"] = mod["main"]
    assert mod["h"] is mod["main"] and len(mod.functions) == 3
    # Rebinding keeps the module's one GlobalVar for the name (calls elsewhere use it).
    mod[relax.GlobalVar("h")] = f
    assert mod.get_global_var("h") is gv_h and mod["h"] is f


def test_setitem_rejects_bad_keys_and_values():
    mod = _module()
    with pytest.raises(TypeError, match="the key must be a str or GlobalVar"):
        mod[1] = mod["f"]
    with pytest.raises(TypeError, match=r"IRModule.__setitem__: the value must be a function"):
        mod["z"] = 3
    assert "z" not in mod


def test_delitem_and_missing_names():
    mod = _module()
    del mod["f"]
    assert _names(mod) == ["main"]
    with pytest.raises(ValueError, match="no function named 'nope'"):
        del mod["nope"]
    with pytest.raises(ValueError, match="no function named 'nope'"):
        mod["nope"]


def test_update_and_update_func():
    mod = _module()
    f = mod["f"]
    assert mod.update(tvm.IRModule({"k": f})) is None
    mod.update({"k2": f})
    assert _names(mod) == ["f", "k", "k2", "main"]
    mod.update_func(mod.get_global_var("k"), mod["main"])
    assert mod["k"] is mod["main"]
    mod.update_func(relax.GlobalVar("qq"), f)
    assert [gv.name_hint for gv, _ in mod.functions_items()] == ["f", "k", "k2", "main", "qq"]
    with pytest.raises(TypeError, match="IRModule.update: other must be an IRModule"):
        mod.update([f])


def test_clone_is_independent():
    mod = _module()
    twin = mod.clone()
    assert not twin.same_as(mod)
    tvm.ir.assert_structural_equal(twin, mod)
    del twin["f"]
    assert "f" in mod and "f" not in twin


def test_update_global_info_edits_in_place():
    mod = _module()
    assert mod.update_global_info("vdevice", [I.vdevice("llvm")]) is None
    assert list(mod.global_infos) == ["vdevice"]
    with pytest.raises(TypeError, match=r"update_global_info: global_infos\['vdevice'\] holds"):
        mod.update_global_info("vdevice", [1])


def test_attribute_helpers():
    mod = _module()
    assert mod.get_attr("a") is None
    with_a = mod.with_attrs({"a": "v", "b": 2})
    assert with_a.get_attr("a") == "v" and mod.get_attr("a") is None
    assert "a" not in with_a.without_attr("a").attrs and with_a.without_attr("a").get_attr("b") == 2
    assert mod.without_attr("zz") is mod
    with pytest.raises(TypeError, match="IRModule.with_attrs: attr_map must be a dict"):
        mod.with_attrs([("a", 1)])


def test_edited_module_builds_and_runs():
    import numpy as np

    mod = _module()
    mod["main"] = mod["f"]
    ex = tvm.compile(mod, target="llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    out = vm["main"](tvm.runtime.tensor(np.array([1.0, 2.0], "float32")))
    np.testing.assert_allclose(out.numpy(), [2.0, 4.0])


def test_build_cache_sees_an_edit_made_after_the_build():
    import numpy as np

    mod = _module()
    x = tvm.runtime.tensor(np.array([1.0, 2.0], "float32"))
    first = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())["main"](x)
    np.testing.assert_allclose(first.numpy(), [1.0, 2.0])
    mod["main"] = mod["f"]  # the same module object, edited after it was built
    second = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())["main"](x)
    np.testing.assert_allclose(second.numpy(), [2.0, 4.0])


def test_tir_build_cache_sees_an_edit_made_after_the_build():
    import numpy as np
    from tvm import te

    def kernel(scale):
        a = te.placeholder((4,), "float32", name="A")
        b = te.compute((4,), lambda i: a[i] * scale, name="B")
        return te.create_prim_func([a, b])

    mod = tvm.IRModule({"main": kernel(2.0)})
    x = tvm.runtime.tensor(np.ones(4, "float32"))
    out = tvm.runtime.tensor(np.zeros(4, "float32"))
    tvm.compile(mod, target="llvm")["main"](x, out)
    np.testing.assert_allclose(out.numpy(), 2.0)
    mod["main"] = kernel(3.0)
    tvm.compile(mod, target="llvm")["main"](x, out)
    np.testing.assert_allclose(out.numpy(), 3.0)
