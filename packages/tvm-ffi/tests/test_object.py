"""Object identity, hashing, repr, reflected fields and methods, and reference counts."""

import pytest

import tvm_ffi
from tvm_ffi import testing


def make_base():
    return testing.TestObjectBase(1, 2.0, "s")


def test_identity_equality_and_same_as():
    a = make_base()
    b = make_base()
    back = testing.echo(a)
    assert back == a
    assert back.same_as(a)
    assert a != b
    assert not a.same_as(b)
    assert hash(back) == hash(a)
    assert len({a, back, b}) == 2


@pytest.mark.parametrize(
    "make, key",
    [(make_base, "TestObjectBase"), (lambda: tvm_ffi.get_global_func("testing.nop"), "Function")],
    ids=["reflected", "function"],
)
def test_repr_names_type_and_address(make, key):
    obj = make()
    text = repr(obj)
    assert "%" not in text
    assert key in text


def test_fields_and_method():
    obj = make_base()
    assert isinstance(obj, tvm_ffi.Object)
    assert obj.v_i64 == 1
    assert obj.v_f64 == 2.0
    assert obj.v_str == "s"
    assert obj.add_i64(41) == 42
    assert obj.__ffi_type_key__ == "testing.TestObjectBase"


def test_writable_field_and_read_only_field():
    obj = make_base()
    obj.v_f64 = 8.5
    assert obj.v_f64 == 8.5
    assert testing.echo(obj).v_f64 == 8.5  # the C++ object itself changed
    with pytest.raises(AttributeError, match="v_i64"):
        obj.v_i64 = 3
    with pytest.raises(TypeError):
        obj.v_f64 = "not a float"
    assert obj.v_f64 == 8.5


def test_constructor_checks_arguments():
    with pytest.raises(TypeError, match="argument #0"):
        testing.TestObjectBase("x", 2.0, "s")
    with pytest.raises(TypeError, match="Expected 3 but got 1"):
        testing.TestObjectBase(1)


def test_derived_object():
    obj = testing.TestObjectDerived(3, 4.0, "derived", [1, "two"])
    assert isinstance(obj, testing.TestObjectBase)
    assert isinstance(obj, testing.TestObjectDerived)
    assert obj.v_i64 == 3
    assert obj.v_str == "derived"
    assert isinstance(obj.v_array, tvm_ffi.Array)
    assert obj.v_array == [1, "two"]
    assert obj.add_i64(1) == 4  # inherited method
    assert testing.echo(obj).__class__ is testing.TestObjectDerived


def test_method_called_on_wrong_object_type():
    with pytest.raises(TypeError):
        testing.TestObjectBase.add_i64(tvm_ffi.Array([1]), 1)


def test_use_count_balances_through_containers():
    obj = make_base()
    base = testing.object_use_count(obj)
    assert base >= 1
    arr = tvm_ffi.Array([obj])
    assert testing.object_use_count(obj) == base + 1
    m = tvm_ffi.Map({"k": obj})
    assert testing.object_use_count(obj) == base + 2
    del arr
    assert testing.object_use_count(obj) == base + 1
    del m
    assert testing.object_use_count(obj) == base


def test_use_count_unchanged_by_calls():
    obj = make_base()
    base = testing.object_use_count(obj)
    for _ in range(100):
        testing.echo(obj)
        testing.echo([obj, obj])
        testing.apply(lambda x: x, obj)
    assert testing.object_use_count(obj) == base


def test_register_object_rebinds_the_returned_class():
    @tvm_ffi.register_object("testing.TestObjectBase")
    class Rebound(tvm_ffi.Object):
        pass

    try:
        got = testing.echo(make_base())
        assert type(got) is Rebound
        assert got.v_i64 == 1
    finally:
        tvm_ffi.register_object("testing.TestObjectBase")(testing.TestObjectBase)
    assert type(testing.echo(make_base())) is testing.TestObjectBase


def test_register_object_rejects_non_object_class():
    with pytest.raises(TypeError):

        @tvm_ffi.register_object("testing.TestObjectBase")
        class NotAnObject:
            pass
