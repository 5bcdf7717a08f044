"""tvm_ffi.dataclasses Enum / IntEnum / StrEnum: variants as singletons, as apache-tvm-ffi's."""

from __future__ import annotations

import copy
import itertools
import pickle
from typing import ClassVar

import pytest
import tvm_ffi
from tvm_ffi.dataclasses import (
    Enum,
    EnumAttrMap,
    EnumState,
    IntEnum,
    StrEnum,
    auto,
    entry,
)
from tvm_ffi.dataclasses.enum import ENUM_STATE_ATTR, _EnumEntry

_keys = itertools.count()


def _key(name: str) -> str:
    return f"testing.enum_test.{name}_{next(_keys)}"


def test_auto_variants_have_position_and_name():
    key = _key("Color")

    class Color(Enum, type_key=key):
        red = auto()
        green = auto()

    assert isinstance(Color.red, Color)
    assert (Color.red._int_index, Color.red._str_index) == (0, "red")
    assert (Color.green.value, Color.green.name) == (1, "green")
    assert repr(Color.red) == f"{key}.red"
    assert str(Color.green) == f"{key}.green"
    assert [v.name for v in Color] == ["red", "green"]
    assert len(Color) == 2
    assert [v.name for v in Color.all_entries()] == ["red", "green"]


def test_lookup_by_index_and_call():
    class Color(Enum, type_key=_key("Color")):
        red = auto()
        green = auto()

    assert Color.get("green").same_as(Color.green)
    assert Color.get(0).same_as(Color.red)
    assert Color("red").same_as(Color.red)
    assert Color(1).same_as(Color.green)
    assert Color(Color.red) is Color.red
    with pytest.raises(KeyError):
        Color.get("blue")
    with pytest.raises(ValueError, match="5 is not a valid Color"):
        Color(5)
    with pytest.raises(
        TypeError, match=r"Color\.get: argument `index`: enum index must be int or str, got float"
    ):
        Color.get(1.5)
    with pytest.raises(OverflowError, match=r"Color\.get: enum integer index .* outside int64"):
        Color.get(1 << 70)


def test_variants_are_frozen_singletons():
    class Flag(Enum, type_key=_key("Flag")):
        on = auto()

    with pytest.raises(AttributeError, match="read-only"):
        Flag.on._int_index = 3
    assert copy.copy(Flag.on) is Flag.on
    assert copy.deepcopy(Flag.on) is Flag.on
    assert tvm_ffi.structural_equal(Flag.on, Flag.get("on"))
    assert tvm_ffi.structural_hash(Flag.on) == tvm_ffi.structural_hash(Flag.get(0))


class Picklable(Enum, type_key="testing.enum_test.Picklable"):
    one = auto()
    two = auto()


def test_pickle_returns_the_singleton():
    assert pickle.loads(pickle.dumps(Picklable.two)).same_as(Picklable.two)


def test_entry_fields_classvar_binders_and_order():
    class Activation(Enum, type_key=_key("Activation")):
        output_zero: bool = False
        is_monotonic: bool = True
        blank: ClassVar[Activation]
        relu: ClassVar[Activation] = entry(output_zero=True)
        gelu = entry(output_zero=False, is_monotonic=False)

    # Bare ClassVar binders come first, then the entry(...) declarations in body order.
    assert [v.name for v in Activation] == ["blank", "relu", "gelu"]
    assert Activation.blank.output_zero is False
    assert Activation.relu.output_zero is True
    assert Activation.relu.is_monotonic is True
    assert Activation.gelu.is_monotonic is False
    with pytest.raises(AttributeError, match="read-only"):
        Activation.relu.output_zero = False


def test_int_enum_values_compare_and_alias():
    class Level(IntEnum, type_key=_key("Level")):
        low = 10
        high = entry(value=20)
        also_low = 10

    assert Level.low.value == 10 and Level.low.name == "low"
    assert Level.low == 10 and Level.high != 10
    assert hash(Level.low) == hash(10)
    assert repr(Level.low) == "Level.low" and str(Level.high) == "20"
    assert Level(20).same_as(Level.high)
    assert Level.also_low.same_as(Level.low)  # a repeated value names the same variant
    assert len(Level) == 2


def test_str_enum_values():
    class Op(StrEnum, type_key=_key("Op")):
        add = "+"
        mul = entry(value="*")

    assert Op.add.value == "+" and Op.add.name == "+"
    assert Op.add._int_index == 0 and Op.mul._int_index == 1
    assert Op.add == "+" and str(Op.mul) == "*"
    assert repr(Op.add) == "Op.+"
    assert Op("*").same_as(Op.mul)


def test_bad_declarations():
    with pytest.raises(TypeError, match=r"Bad\.a requires an integer value"):

        class Bad(IntEnum, type_key=_key("Bad")):
            a: ClassVar[Bad]

    with pytest.raises(TypeError, match=r"Bad2\.a value must be int, got str"):

        class Bad2(IntEnum, type_key=_key("Bad2")):
            a = "x"

    with pytest.raises(TypeError, match=r"`value` is inferred"):

        class Bad3(Enum, type_key=_key("Bad3")):
            flag: bool
            a = entry(flag=True, value=5)

    with pytest.raises(TypeError, match="reserves `value`"):

        class Bad4(IntEnum, type_key=_key("Bad4")):
            value: int

    with pytest.raises(TypeError, match=r"Bad5\.a: invalid enum entry"):

        class Bad5(Enum, type_key=_key("Bad5")):
            flag: bool
            a = entry(nope=1)

    with pytest.raises(OverflowError, match=r"Big\.a: enum integer index .* outside int64"):

        class Big(IntEnum, type_key=_key("Big")):
            a = 1 << 70

    with pytest.raises(TypeError, match="argument `type_key` must be a str, got int"):

        class Bad6(Enum, type_key=5):
            a = auto()


def test_a_variant_cannot_shadow_the_enum_api():
    # A variant named `name` replaced the property for every variant: C.red.name was the
    # variant C.name; one named `get` made C(1) fail with "'C' object is not callable".
    for alias in ("name", "value", "get", "entries", "def_attr", "same_as"):
        key = _key(f"Shadow_{alias}")
        with pytest.raises(TypeError, match=rf"\.{alias}: a variant cannot be named '{alias}'"):
            type(Enum)("Shadow", (Enum,), {alias: auto(), "red": auto()}, type_key=key)

        class Fine(Enum, type_key=key):  # the refused class did not take the type key
            red = auto()

        assert Fine.red.name == "red"
    with pytest.raises(TypeError, match=r"P\.name: a variant cannot be named 'name'"):

        class P(IntEnum, type_key=_key("ShadowInt")):
            red = 1
            name = 2


def test_def_attr_tables():
    class Op(Enum, type_key=_key("OpAttr")):
        arity: int
        add = entry(arity=2)
        neg = entry(arity=1)

    class Other(Enum, type_key=_key("Other")):
        one = auto()

    cost = Op.def_attr("cost", default=0)
    assert isinstance(cost, EnumAttrMap) and cost.name == "cost"
    assert cost[Op.add] == 0 and Op.add not in cost
    cost[Op.add] = 5
    assert cost[Op.add] == 5 and Op.add in cost and Op.neg not in cost
    assert cost[Op.get("add")] == 5  # a fresh wrapper of the same variant
    assert Op.attr_dict["cost"][Op.add] == 5
    strict = Op.def_attr("strict")
    with pytest.raises(KeyError, match="strict"):
        strict[Op.neg]
    assert strict.get(Op.neg, -1) == -1
    with pytest.raises(TypeError, match="expected Op, got Other"):
        cost[Other.one] = 1
    assert Other.one not in cost
    with pytest.raises(TypeError, match="argument `enum_cls` must be an Enum subclass"):
        EnumAttrMap(int, "x")


def test_entry_sentinels_and_state():
    e = entry(1, 2, key="x")
    assert isinstance(e, _EnumEntry) and e.args == (1, 2) and e.kwargs == {"key": "x"}
    assert repr(e) == "entry(1, 2, key='x')"
    assert auto() is not auto()
    assert ENUM_STATE_ATTR == "__ffi_enum__"
    state = EnumState()
    assert repr(state) == "ffi.EnumState(entries=[], indexes={}, attrs={})"


def test_serialization_writes_the_variant_name():
    key = _key("Ser")

    class Ser(Enum, type_key=key):
        a = auto()
        b = auto()

    text = tvm_ffi.serialization.to_json_graph_str(Ser.b)
    assert f'"type":"{key}","data":"b"' in text.replace(" ", "")
    assert tvm_ffi.serialization.from_json_graph_str(text).same_as(Ser.b)
    bad = text.replace('"b"', '"zz"')
    with pytest.raises(ValueError, match="'zz' is not a variant name"):
        tvm_ffi.serialization.from_json_graph_str(bad)
