"""Python <-> Any conversion round trips through testing.echo, including a hypothesis fuzz."""

import math
import subprocess
import sys
import warnings

import numpy as np
import pytest
import tvm_ffi
from hypothesis import given, settings
from hypothesis import strategies as st
from tvm_ffi import testing

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


@pytest.mark.parametrize(
    "value",
    [None, True, False, 0, 1, -1, INT64_MAX, INT64_MIN, 0.0, -2.5, 1e300, math.inf],
    ids=repr,
)
def test_pod_round_trip(value):
    out = testing.echo(value)
    assert type(out) is type(value)
    assert out == value


def test_nan_round_trip():
    assert math.isnan(testing.echo(math.nan))


@pytest.mark.parametrize("value", [INT64_MAX + 1, INT64_MIN - 1, 2**100, -(2**70)])
def test_int_outside_int64_overflows(value):
    with pytest.raises(OverflowError, match="int64"):
        testing.echo(value)


@pytest.mark.parametrize(
    "value",
    [
        "",
        "a",
        "abcdefg",
        "abcdefgh",
        "x" * 1000,
        "héllo wörld ✓",
        "日本",
        "a\x00b",
        "\x00" * 9,
        "🐍" * 3,
    ],
    ids=lambda v: f"str{len(v)}",
)
def test_str_round_trip(value):
    out = testing.echo(value)
    assert type(out) is str
    assert out == value


@pytest.mark.parametrize(
    "value", [b"", b"\x00", b"abcdefg", b"abcdefgh", bytes(range(256)), b"\x00\xff" * 100], ids=len
)
def test_bytes_round_trip(value):
    out = testing.echo(value)
    assert type(out) is bytes
    assert out == value


def test_dtype_and_device_round_trip():
    dt = tvm_ffi.dtype("float16")
    out = testing.echo(dt)
    assert isinstance(out, tvm_ffi.dtype)
    assert out == "float16"
    dev = tvm_ffi.device("cuda", 3)
    out = testing.echo(dev)
    assert isinstance(out, tvm_ffi.Device)
    assert (out.device_type, out.device_id) == (dev.device_type, dev.device_id)
    assert out == dev


def test_function_and_object_round_trip_keep_identity():
    obj = testing.TestObjectBase(1, 2.0, "s")
    assert testing.echo(obj).same_as(obj)
    f = tvm_ffi.get_global_func("testing.add_one")
    assert testing.echo(f).same_as(f)


def test_list_tuple_become_array_and_dict_becomes_map():
    arr = testing.echo([1, "two", 3.0])
    assert isinstance(arr, tvm_ffi.Array)
    assert arr == [1, "two", 3.0]
    tup = testing.echo((1, 2))
    assert isinstance(tup, tvm_ffi.Array)
    assert tup == [1, 2]
    m = testing.echo({"a": 1, "b": [2, 3]})
    assert isinstance(m, tvm_ffi.Map)
    assert isinstance(m["b"], tvm_ffi.Array)
    assert m == {"a": 1, "b": [2, 3]}


def test_nested_containers():
    value = {"outer": [{"inner": (1, b"bytes", None)}, [[], {}]], "n": -5}
    out = testing.echo(value)
    assert out == value
    assert out["outer"][0]["inner"][1] == b"bytes"
    assert out["outer"][0]["inner"][2] is None
    nested = testing.make_nested(9)
    assert nested == {"ints": [1, 2, 9], "name": "nested"}


@pytest.mark.parametrize("value", [np.int8(-3), np.int32(7), np.int64(INT64_MAX), np.uint16(65535)])
def test_numpy_integers_become_int(value):
    out = testing.echo(value)
    assert type(out) is int
    assert out == int(value)


@pytest.mark.parametrize("value", [np.float32(1.5), np.float64(-2.25)])
def test_numpy_floats_become_float(value):
    out = testing.echo(value)
    assert type(out) is float
    assert out == float(value)


@pytest.mark.parametrize("value", [np.complex64(1 + 2j), np.complex128(-1j), 3 + 4j], ids=repr)
def test_complex_numbers_travel_whole(value):
    # np.complex64 has a __float__ that drops the imaginary part: it silently became 1.0.
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # NumPy's ComplexWarning when __float__ is used
        out = testing.echo(value)
    assert out is value


@pytest.mark.parametrize(
    "value", [np.bytes_(b"ab"), np.bytes_(b"long enough to be an object")], ids=repr
)
def test_bytes_subclass_becomes_bytes(value):
    out = testing.echo(value)
    assert type(out) is bytes and out == value
    assert tvm_ffi.get_global_func("testing.echo")([value])[0] == value


def test_numpy_bool_becomes_bool():
    assert testing.echo(np.bool_(True)) is True


def test_numpy_uint64_outside_int64_overflows():
    with pytest.raises(OverflowError):
        testing.echo(np.uint64(2**64 - 1))


def test_arbitrary_python_object_is_opaque_and_keeps_identity():
    class Thing:
        pass

    thing = Thing()
    assert testing.echo(thing) is thing
    holder = testing.echo([thing, 1])
    assert holder[0] is thing


def test_convert():
    assert isinstance(tvm_ffi.convert([1, 2]), tvm_ffi.Array)
    assert isinstance(tvm_ffi.convert({"k": 1}), tvm_ffi.Map)
    assert isinstance(tvm_ffi.convert(lambda: 1), tvm_ffi.Function)
    assert tvm_ffi.convert(5) == 5


def test_map_keys_of_every_hashable_kind():
    m = testing.echo({1: "int", "s": "str", b"b": "bytes", None: "none"})
    assert m[1] == "int"
    assert m["s"] == "str"
    assert m[b"b"] == "bytes"
    assert list(m.keys()) == [1, "s", b"b", None]


def test_map_lookup_with_none_key():
    m = tvm_ffi.Map({None: "none"})
    assert m[None] == "none"
    assert None in m
    assert m.get(None) == "none"


# ---- fuzz ----------------------------------------------------------------------------
int64s = st.integers(min_value=INT64_MIN, max_value=INT64_MAX)
leaves = (
    st.none()
    | st.booleans()
    | int64s
    | st.floats(allow_nan=False)
    | st.text(max_size=20)
    | st.binary(max_size=20)
)
values = st.recursive(
    leaves,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=25,
)


def assert_same(expected, got):
    """Arrays equal lists, Maps equal dicts, in order; scalars keep their Python type."""
    if isinstance(expected, list):
        assert isinstance(got, tvm_ffi.Array)
        assert len(got) == len(expected)
        for e, g in zip(expected, got):
            assert_same(e, g)
    elif isinstance(expected, dict):
        assert isinstance(got, tvm_ffi.Map)
        assert list(got.keys()) == list(expected.keys())
        for key, e in expected.items():
            assert_same(e, got[key])
    else:
        assert type(got) is type(expected)
        assert got == expected


@settings(max_examples=150, deadline=None)
@given(values)
def test_fuzz_echo_round_trip(value):
    assert_same(value, testing.echo(value))


def test_self_referencing_list_is_a_recursion_error():
    loop = []
    loop.append(loop)
    with pytest.raises(RecursionError, match="converting a container"):
        testing.echo(loop)


def test_very_deep_nesting_is_a_recursion_error():
    outer = inner = []
    for _ in range(50000):
        inner.append([])
        inner = inner[0]
    with pytest.raises(RecursionError):
        testing.echo(outer)


def test_many_long_bytes_and_str_arguments_in_one_call():
    # Long bytes arguments point at per-call descriptors; the ninth and later ones must not
    # move the earlier ones (they once did, and the callee read freed memory).
    blobs = [bytes([65 + i]) * 20 for i in range(12)]
    assert list(testing.apply(lambda *a: list(a), *blobs)) == blobs
    texts = [str(i) * 12 for i in range(20)]
    assert list(testing.apply(lambda *a: list(a), *texts)) == texts


MUTATED_WHILE_CONVERTED = {
    "list argument": (
        "lst = []",
        "lst.clear()",
        "lst.extend([Evil()] + [object() for _ in range(100)])",
        "echo(lst)",
        "list changed size",
    ),
    "list grows": (
        "lst = []",
        "lst.append(1)",
        "lst.extend([Evil(), 2])",
        "tvm_ffi.convert(lst)",
        "list changed size",
    ),
    "dict key": (
        "d = {}",
        "d.clear()",
        "d.update({Evil(): 1, **{object(): i for i in range(100)}})",
        "echo(d)",
        "dictionary changed size",
    ),
    "dict value": (
        "d = {}",
        "d.clear()",
        "d.update({'a': Evil(), **{object(): i for i in range(100)}})",
        "tvm_ffi.Map(d)",
        "dictionary changed size",
    ),
    "shape element": (
        "lst = []",
        "lst.clear()",
        "lst.extend([Evil()] + [10**6 + i for i in range(100)])",
        "tvm_ffi.Shape(lst)",
        "list changed size",
    ),
}


@pytest.mark.parametrize("case", MUTATED_WHILE_CONVERTED, ids=str)
def test_container_mutated_while_converted_raises(case):
    # An element's __index__ that empties its container used to free what conversion still
    # read (std::bad_alloc abort, SIGSEGV); now each element is held and the change refused.
    setup, mutate, fill, call, message = MUTATED_WHILE_CONVERTED[case]
    code = f"""
import tvm_ffi
echo = tvm_ffi.get_global_func("testing.echo")
{setup}
class Evil:
    def __index__(self):
        {mutate}
        return 1
{fill}
try:
    {call}
except RuntimeError as e:
    print("RuntimeError:", e)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("RuntimeError:") and message in out.stdout, out.stdout + out.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")
@pytest.mark.parametrize("call", ["echo(big)", "tvm_ffi.convert(big)", "echo(big_dict)"])
def test_out_of_memory_during_conversion_is_memory_error(call):
    # Under an address-space limit the conversion buffers fail to allocate: MemoryError, not abort.
    code = f"""
import resource, tvm_ffi
echo = tvm_ffi.get_global_func("testing.echo")
big = [1] * 20_000_000
big_dict = dict.fromkeys(range(2_000_000))
in_use = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (in_use + 64 * 2**20, resource.RLIM_INFINITY))
try:
    {call}
except MemoryError:
    print("MemoryError")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "MemoryError"
