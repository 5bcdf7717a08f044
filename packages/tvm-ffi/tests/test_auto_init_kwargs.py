"""The __ffi_init__ C++ makes from a type's fields and keyword construction through core.KWARGS."""

import inspect

import pytest
import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi import core


class _Traits(tvm_ffi.Object):
    pass


class _NoInit(tvm_ffi.Object):
    pass


tvm_ffi.register_object("testing.TestAutoInitTraits")(_Traits)
tvm_ffi.register_object("testing.TestNoAutoInit")(_NoInit)


def ffi_init(cls):
    return cls.__tvm_ffi_type_info__.find_method("__ffi_init__").func


def test_kwargs_is_the_registry_sentinel():
    assert core.KWARGS.same_as(tvm_ffi.get_global_func("ffi.GetKwargsObject")())
    assert repr(core.KWARGS) == "<KWARGS>"
    assert isinstance(core.KWARGS, tvm_ffi.Object)


def test_positional_order_is_required_fields_first():
    obj = t.TestObjectDerived({"k": 1}, [2], 3, 4.5, "s")
    assert (obj.v_i64, obj.v_f64, obj.v_str) == (3, 4.5, "s")
    assert dict(obj.v_map) == {"k": 1} and list(obj.v_array) == [2]
    sig = inspect.signature(t.TestObjectDerived.__init__)
    assert list(sig.parameters) == ["self", "v_map", "v_array", "v_i64", "v_f64", "v_str"]
    assert sig.parameters["v_i64"].default is core.MISSING


def test_keywords_and_defaults():
    obj = t.TestObjectDerived(v_array=[1], v_map={}, v_str="kw")
    # default_value(...) of the registration, not the C++ constructor's 0 / 0.0
    assert (obj.v_i64, obj.v_f64, obj.v_str) == (10, 10.0, "kw")
    assert t.TestObjectBase(v_f64=1.5).v_f64 == 1.5
    mixed = t.TestObjectDerived({}, [], 7, v_str="m")
    assert (mixed.v_i64, mixed.v_str) == (7, "m")


def test_raw_call_with_the_sentinel():
    init = ffi_init(t.TestObjectDerived)
    obj = init(core.KWARGS, "v_map", {"a": 1}, "v_array", [], "v_i64", 2)
    assert obj.v_i64 == 2 and dict(obj.v_map) == {"a": 1}
    assert init({}, [], core.KWARGS).v_str == "hello"  # nothing after KWARGS


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: t.TestObjectDerived(), r"missing required argument: 'v_map'"),
        (lambda: t.TestObjectDerived({}), r"missing required argument: 'v_array'"),
        (lambda: t.TestObjectDerived({}, [], bogus=1), r"unexpected keyword argument 'bogus'"),
        (lambda: t.TestObjectDerived({}, [], v_map={}), r"multiple values for argument 'v_map'"),
        (
            lambda: t.TestObjectDerived({}, [], 1, 2.0, "s", 6),
            r"takes at most 5 positional argument\(s\), but 6 were given",
        ),
        (lambda: t.TestObjectDerived(3, []), r"__ffi_init__\(\) field 'v_map':\n  .*int"),
        (lambda: t.TestObjectBase(v_i64="x"), r"field 'v_i64'"),
        (
            lambda: ffi_init(t.TestObjectDerived)({}, [], core.KWARGS, "v_str"),
            "KWARGS requires an even number of key-value arguments",
        ),
        (
            lambda: ffi_init(t.TestObjectDerived)(core.KWARGS, 1, 2),
            "keyword names must be str, got int",
        ),
    ],
)
def test_bad_calls_raise_type_error_naming_the_problem(call, match):
    with pytest.raises(TypeError, match=match) as info:
        call()
    assert "testing.TestObject" in str(info.value)


def test_kw_only_and_init_off_field_traits():
    info = _Traits.__tvm_ffi_type_info__
    required, kw, skipped = info.fields
    assert (kw.c_kw_only, kw.c_has_default, kw.c_default) == (True, True, 5)
    assert not skipped.c_init and required.c_init and not required.c_has_default
    assert str(inspect.signature(_Traits.__init__)) == "(self, required, *, kw=<MISSING>)"
    obj = _Traits(1)
    assert (obj.required, obj.kw, obj.skipped) == (1, 5, "ctor")
    assert _Traits(1, kw=2).kw == 2
    with pytest.raises(TypeError, match=r"takes at most 1 positional argument\(s\), but 2"):
        _Traits(1, 2)
    with pytest.raises(TypeError, match="unexpected keyword argument 'skipped'"):
        _Traits(1, skipped="x")


def test_explicit_constructors_and_opt_out_keep_no_keyword_init():
    # A registered init<...> stays positional: keywords are refused, not guessed.
    with pytest.raises(TypeError):
        t.TestIntPair(a=1, b=2)
    assert t.TestIntPair(1, 2).sum() == 3
    # ObjectDef(init(false)): no __ffi_init__ at all, though the type is default-constructible.
    assert _NoInit.__tvm_ffi_type_info__.find_method("__ffi_init__") is None
    assert t.create_object("testing.TestNoAutoInit").value == 3
