"""A C++-declared enum (testing.TestEnumVariant) bound by Python Enum classes."""

from typing import ClassVar

import pytest
import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi.dataclasses import Enum, IntEnum, entry
from tvm_ffi.testing.testing import _TestEnumVariant


def test_enum_variant_get_returns_the_cxx_singletons():
    alpha = t.enum_variant_get("Alpha")
    assert isinstance(alpha, Enum) and alpha.same_as(_TestEnumVariant.Alpha)
    assert (alpha.name, alpha.value) == ("Alpha", 0)
    assert [v.name for v in _TestEnumVariant] == ["Alpha", "Beta"]
    assert _TestEnumVariant.get(1).same_as(t.enum_variant_get("Beta"))
    assert repr(alpha) == "testing.TestEnumVariant.Alpha"
    with pytest.raises(RuntimeError, match="testing.TestEnumVariant has no instance named `Nope`"):
        t.enum_variant_get("Nope")
    with pytest.raises(TypeError):
        t.enum_variant_get(1)


def test_cxx_attributes_are_the_enum_attributes():
    code = _TestEnumVariant.def_attr("code")
    assert (code[_TestEnumVariant.Alpha], code[_TestEnumVariant.Beta]) == (10, 20)
    assert set(_TestEnumVariant.attr_dict.keys()) == {"code"}


def test_another_class_binds_the_same_variants():
    # apache-tvm-ffi's test_cxx_enum_obj_get_returns_singleton, as written there.
    cxx_get = tvm_ffi.get_global_func("testing.enum_variant_get")

    class Variant(Enum, type_key="testing.TestEnumVariant"):
        Alpha: ClassVar["Variant"]
        Beta: ClassVar["Variant"]

    try:
        assert cxx_get("Alpha").same_as(Variant.Alpha)
        assert cxx_get("Beta").same_as(Variant.Beta)
        assert type(cxx_get("Alpha")) is Variant  # the newest class for the key
        with pytest.raises(RuntimeError, match="no instance named"):
            cxx_get("Nope")
    finally:
        tvm_ffi.register_object("testing.TestEnumVariant")(_TestEnumVariant)


def test_cxx_enum_refuses_python_declared_variants():
    with pytest.raises(TypeError, match="has no such variant"):

        class Missing(Enum, type_key="testing.TestEnumVariant"):
            Gamma: ClassVar["Missing"]

    with pytest.raises(TypeError, match="are declared in C\\+\\+"):

        class ByValue(IntEnum, type_key="testing.TestEnumVariant"):
            low = entry(value=10)

    # The refused classes did not take the key.
    assert type(t.enum_variant_get("Alpha")) is _TestEnumVariant
