"""tvm_ffi.testing names that apache-tvm-ffi's tests call: schema identities, builders, objects."""

import copy
import sys

import pytest
import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi import Array, Dict, List, Map


def g(name):
    return tvm_ffi.get_global_func("testing." + name)


def test_every_testing_name_is_a_registered_global():
    for name in t._GLOBALS:
        assert isinstance(getattr(t, name), tvm_ffi.Function), name
    assert set(t._GLOBALS) <= set(t.__all__)


@pytest.mark.parametrize(
    "name, value",
    [
        ("schema_id_int", 7), ("schema_id_float", 2.5), ("schema_id_bool", True),
        ("schema_id_string", "héllo"), ("schema_id_bytes", b"\x00\xff"), ("schema_id_any", "x"),
        ("schema_id_opt_int", None), ("schema_id_opt_int", 3), ("schema_id_opt_str", None),
        ("schema_id_opt_str", "s"), ("schema_id_variant_int_str", 5),
        ("schema_id_variant_int_str", "five"), ("schema_variant_mix", "m"),
    ],
)  # fmt: skip
def test_schema_identities_return_their_argument(name, value):
    assert g(name)(value) == value
    assert type(g(name)(value)) is type(value) or isinstance(value, str)


def test_schema_identities_over_containers_and_objects():
    assert list(t.schema_id_arr_int([1, 2])) == [1, 2]
    assert list(t.schema_id_arr_str(["a"])) == ["a"]
    assert dict(t.schema_id_map_str_int({"a": 1}).items()) == {"a": 1}
    assert list(t.schema_variant_mix([1, 2])) == [1, 2]
    obj = t.TestIntPair(1, 2)
    assert t.schema_id_object(obj).same_as(obj) and t.schema_id_opt_obj(None) is None
    assert t.schema_id_arr_obj([obj])[0].same_as(obj)
    assert t.schema_id_device(tvm_ffi.device("cpu", 1)) == tvm_ffi.device("cpu", 1)
    assert str(t.schema_id_dtype(tvm_ffi.dtype("float16"))) == "float16"
    assert t.schema_id_func(t.nop).same_as(t.nop)
    assert (
        t.schema_no_args() == 1
        and t.schema_no_return(3) is None
        and t.schema_no_args_no_return() is None
    )
    assert t.schema_packed(1, "x") is None


@pytest.mark.parametrize(
    "name, bad",
    [
        ("schema_id_int", "x"), ("schema_id_bool", "x"), ("schema_id_string", 1),
        ("schema_id_arr_int", ["x"]), ("schema_id_list_int", ["x"]),
        ("schema_id_map_str_int", {"a": "b"}), ("schema_id_dict_str_int", {1: 1}),
        ("schema_id_opt_int", "x"), ("schema_id_variant_int_str", 1.5),
        ("schema_variant_mix", ["x"]),
        ("schema_id_object", 1), ("TestIntPairSum", 1), ("TestIntPairSum", None),
    ],
)  # fmt: skip
def test_schema_identities_refuse_wrong_types_naming_the_function(name, bad):
    with pytest.raises(TypeError, match=f"testing.{name}"):
        g(name)(bad)


def test_schema_identities_check_the_argument_count():
    with pytest.raises(TypeError, match="testing.schema_id_int"):
        t.schema_id_int()
    with pytest.raises(TypeError, match="testing.schema_no_args"):
        t.schema_no_args(1)


def test_schema_arr_map_opt_stores_the_present_ints_under_the_key():
    out = t.schema_arr_map_opt([1, None, 3], {"x": [0]}, "k")
    assert list(out.keys()) == ["x", "k"] and list(out["k"]) == [1, 3]
    assert list(t.schema_arr_map_opt([1], {"x": [0]}, None).keys()) == ["x"]


def test_int_pair_object_and_its_global():
    pair = t.TestIntPair(3, 4)
    assert (pair.a, pair.b, pair.sum()) == (3, 4, 7)
    assert t.TestIntPairSum(pair) == 7
    with pytest.raises(AttributeError):
        pair.a = 5  # read-only field
    with pytest.raises(TypeError):
        t.TestIntPair(1)


def test_non_copyable_object_refuses_copy_but_shares():
    obj = t.TestNonCopyable(5)
    assert obj.value == 5 and t.echo(obj).same_as(obj)
    with pytest.raises(TypeError, match="cannot be copied"):
        copy.copy(obj)


def test_unregistered_object_is_seen_through_its_registered_ancestor():
    obj = t.make_unregistered_object()
    assert type(obj) is tvm_ffi.Object
    assert repr(obj) == "testing.TestUnregisteredObject(v1=41, v2=42)"


def test_create_object_keeps_defaults_and_checks_field_names():
    obj = t.create_object("testing.TestObjectBase")
    assert isinstance(obj, t.TestObjectBase) and (obj.v_i64, obj.v_f64, obj.v_str) == (
        10,
        10.0,
        "hello",
    )
    obj = t.create_object("testing.TestObjectBase", v_i64=3, v_str="x")
    assert (obj.v_i64, obj.v_f64, obj.v_str) == (3, 10.0, "x")
    derived = t.create_object("testing.TestObjectDerived", v_i64=8, v_map={}, v_array=[1, 2])
    assert isinstance(derived, t.TestObjectDerived) and list(derived.v_array) == [1, 2]
    # A field without a default must be given (upstream's message).
    with pytest.raises(
        TypeError, match="Required field `v_map` not set in type `testing.TestObjectDerived`"
    ):
        t.create_object("testing.TestObjectDerived", v_array=[])
    pair = t.create_object("testing.TestIntPair", a=1, b=2)  # no default constructor: every field
    assert pair.sum() == 3
    with pytest.raises(
        TypeError, match="create_object: type `testing.TestObjectBase` has no field.*nope"
    ):
        t.create_object("testing.TestObjectBase", nope=1)
    with pytest.raises(TypeError, match="missing field.*'b'"):
        t.create_object("testing.TestIntPair", a=1)
    with pytest.raises(ValueError, match="testing.NoSuchType"):
        t.create_object("testing.NoSuchType")
    with pytest.raises(TypeError, match="type_key"):
        t.create_object(5)
    with pytest.raises(TypeError):
        t.create_object("testing.TestObjectBase", v_i64="not an int")


def test_add_one_is_a_python_helper_over_the_global():
    assert t.add_one(1) == 2 and not isinstance(t.add_one, tvm_ffi.Function)
    with pytest.raises(TypeError, match="testing.add_one"):
        t.add_one("x")


def test_function_from_extern_c_symbol():
    add_one = tvm_ffi.Function.__from_extern_c__(t.get_add_one_c_symbol())
    assert add_one(1) == 2 and add_one(41) == 42
    with pytest.raises(TypeError, match="add_one"):
        add_one(None)
    with pytest.raises(TypeError, match="add_one"):
        add_one()
    keep = [1, 2, 3]
    base = sys.getrefcount(keep)
    f = tvm_ffi.Function.__from_extern_c__(t.get_add_one_c_symbol(), keep_alive_object=keep)
    assert sys.getrefcount(keep) == base + 1 and f(2) == 3
    del f
    assert sys.getrefcount(keep) == base


def test_function_from_mlir_packed_symbol():
    keep = object()
    base = sys.getrefcount(keep)
    f = tvm_ffi.Function.__from_mlir_packed_safe_call__(
        t.get_mlir_add_one_c_symbol(), keep_alive_object=keep
    )
    assert f(5) == 6 and t.apply(f, 9) == 10
    with pytest.raises(TypeError):
        f("x")
    del f
    assert sys.getrefcount(keep) == base


@pytest.mark.parametrize(
    "bad, exc",
    [(None, TypeError), ("1", TypeError), (True, TypeError), (0, ValueError), (-1, ValueError),
     (1 << 80, ValueError)],
)  # fmt: skip
def test_function_from_extern_c_refuses_bad_addresses(bad, exc):
    with pytest.raises(exc, match="__from_extern_c__"):
        tvm_ffi.Function.__from_extern_c__(bad)


def test_system_lib_holds_the_testing_symbol():
    assert tvm_ffi.system_lib("testing.")["add_one"](1) == 2


def test_containers_with_tensors():
    np = pytest.importorskip("numpy", reason="the container builders take a tensor")
    x = tvm_ffi.from_dlpack(np.arange(3, dtype="float32"))
    arr = t.make_array_with_tensor(x)
    assert isinstance(arr, Array) and len(arr) == 1 and isinstance(arr[0], tvm_ffi.Tensor)
    assert list(t.make_array_with_mixed(x, 5))[1:] == [5, "hello"]
    nested = t.make_nested_array_with_tensor(x)
    assert nested[0][1] == 42 and isinstance(nested[1], tvm_ffi.Tensor)
    lst = t.make_list_with_tensor(x, 7)
    assert isinstance(lst, List) and lst[1] == 7
    m = t.make_map_with_tensor(x)
    assert isinstance(m, Map) and (m["value"], m["name"]) == (42, "test")
    d = t.make_dict_with_tensor(x)
    assert isinstance(d, Dict) and d["value"] == 42
    assert len(t.make_empty_array_with_tensor_input(x)) == 0
    nm = t.make_nested_map_with_tensor(x, x)
    assert (
        nm["scalar"] == 99 and len(nm["array"]) == 2 and isinstance(nm["map"]["t"], tvm_ffi.Tensor)
    )
    assert t.optional_tensor_view_has_value(x) and not t.optional_tensor_view_has_value(None)
    assert t.schema_id_tensor(x).same_as(x) and t.schema_tensor_view_input(x) is None
    with pytest.raises(TypeError, match="testing.make_array_with_tensor"):
        t.make_array_with_tensor(1)


@pytest.mark.parametrize("nsec", [30, 2**62])  # 2**62 * 100 overflowed: the loop ended at once
def test_env_check_signals_turns_ctrl_c_into_keyboard_interrupt(nsec):
    import _thread
    import threading
    import time

    run = tvm_ffi.get_global_func("testing.run_check_signal")
    run.release_gil = True  # so the timer thread can flag the signal while the loop runs
    timer = threading.Timer(0.2, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run(nsec)
    finally:
        timer.cancel()
    assert time.monotonic() - start < 25  # stopped by the signal, not by running out


def test_create_object_names_the_field_a_bad_value_is_for():
    with pytest.raises(TypeError, match=r"TestObjectBase.__ffi_init__\(\) field 'v_f64'"):
        t.create_object("testing.TestObjectBase", v_f64="x")
    # A type keeping its constructor's values (no generated init) names the field too.
    with pytest.raises(
        TypeError, match="create_object: field `v_i64` of type `testing.TestCxxClassBase`"
    ):
        t.create_object("testing.TestCxxClassBase", v_i64="x")


def test_env_check_signals_without_a_signal_runs_to_the_end(capfd):
    t.run_check_signal(0)
    assert "finished without catching signal" in capfd.readouterr().out


def test_env_register_capi_refuses_unknown_names():
    import ctypes

    lib = ctypes.CDLL(tvm_ffi.libinfo.find_libtvm_ffi())
    lib.TVMFFIEnvRegisterCAPI.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    assert lib.TVMFFIEnvRegisterCAPI(b"NoSuchAPI", None) != 0
    lib.TVMFFIErrorMoveFromRaised.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
    handle = ctypes.c_void_p()
    lib.TVMFFIErrorMoveFromRaised(ctypes.byref(handle))  # clear the raised error it left
    assert handle.value
    lib.TVMFFIObjectDecRef.argtypes = [ctypes.c_void_p]
    lib.TVMFFIObjectDecRef(handle)
    assert lib.TVMFFIEnvCheckSignals() == 0  # nothing pending
