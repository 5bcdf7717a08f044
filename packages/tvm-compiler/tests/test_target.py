# Tests of tvm.target: parsing strings and dicts, options, the kind registry.
import pytest

from tvm.target import Target, list_target_kinds, register_target_kind


def test_string_and_dict_forms():
    t = Target("llvm -mcpu=native -mattr=+avx2,+fma")
    assert t.kind.name == "llvm" and t.kind.codegen == "c"
    assert t.attrs == {"mcpu": "native", "mattr": ["+avx2", "+fma"]}
    assert str(t) == "llvm -mcpu=native -mattr=+avx2,+fma"
    d = Target({"kind": "c", "mcpu": "native"})
    assert d == Target("c -mcpu=native") and d.export() == {"kind": "c", "mcpu": "native"}
    assert Target(t) == t and "cpu" in t.keys


def test_errors_name_kind_and_option():
    with pytest.raises(ValueError, match="unknown target kind 'nope'"):
        Target("nope")
    with pytest.raises(ValueError, match="kind 'c' has no option 'color'"):
        Target("c -color=red")
    with pytest.raises(ValueError, match="'num-cores' expects an int"):
        Target("c -num-cores=many")
    with pytest.raises(TypeError, match="expected a str, dict or Target"):
        Target(3)


def test_registry_is_extensible_and_current_scope():
    kind = register_target_kind("testdev", {"width": int}, keys=("testdev",), codegen="testdev")
    assert "testdev" in list_target_kinds()
    t = Target("testdev -width=4")
    assert t.attrs["width"] == 4 and t.kind is kind
    with pytest.raises(ValueError, match="already registered"):
        register_target_kind("testdev")
    assert Target.current() is None
    with t:
        assert Target.current() is t
