"""Per-field repr / compare / hash flags (C++ refl::repr/compare/hash, py_class field options)
and the tvm_ffi.testing types that carry them (TestCompare, TestHash, TestFrozenCxx)."""

import subprocess
import sys
import textwrap

import pytest
from tvm_ffi import Object, _core
from tvm_ffi import testing as t
from tvm_ffi._reflection import FLAG_COMPARE_OFF, FLAG_HASH_OFF, FLAG_REPR_OFF
from tvm_ffi.dataclasses import field, fields, py_class


def raw_flags(cls):
    return [meta[0] for meta in _core.type_info(cls.__ffi_type_index__)["field_meta"]]


def test_testing_types_carry_the_cxx_field_traits():
    obj = t.TestCompare(1, "a", 5)
    assert (obj.key, obj.name, obj.ignored_field) == (1, "a", 5)
    assert [bool(f & FLAG_COMPARE_OFF) for f in raw_flags(t.TestCompare)] == [False, False, True]
    assert [bool(f & FLAG_HASH_OFF) for f in raw_flags(t.TestHash)] == [False, False, True]
    # c_class reads them: a field out of == is out of the hash too (they must agree).
    assert [(f.name, f.compare, f.hash) for f in fields(t.TestCompare)] == [
        ("key", True, True),
        ("name", True, True),
        ("ignored_field", False, False),
    ]
    assert [(f.name, f.compare, f.hash) for f in fields(t.TestHash)] == [
        ("key", True, True),
        ("name", True, True),
        ("hash_ignored", True, False),
    ]


def test_cxx_flags_drive_the_dataclass_eq_and_hash():
    # A c_class view with eq / unsafe_hash over the same C++ types, in a child process (it
    # binds the type keys to other classes).
    code = textwrap.dedent(
        """
        import tvm_ffi
        from tvm_ffi.dataclasses import c_class

        @c_class("testing.TestCompare", eq=True, unsafe_hash=True)
        class Cmp(tvm_ffi.Object):
            pass

        @c_class("testing.TestHash", eq=True, unsafe_hash=True)
        class Hsh(tvm_ffi.Object):
            pass

        assert Cmp(1, "a", 5) == Cmp(1, "a", 6) and hash(Cmp(1, "a", 5)) == hash(Cmp(1, "a", 6))
        assert Cmp(1, "a", 5) != Cmp(2, "a", 5)
        assert Hsh(1, "a", 5) != Hsh(1, "a", 6)  # compared ...
        assert hash(Hsh(1, "a", 5)) == hash(Hsh(1, "a", 6))  # ... but not hashed
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


@py_class("test_flags.Options")
class Options(Object):
    shown: int
    secret: int = field(default=0, repr=False)
    cache: int = field(default=0, compare=False)
    salt: int = field(default=0, hash=False)


def test_py_class_field_options_are_recorded_as_flags():
    flags = raw_flags(Options)
    assert [bool(f & FLAG_REPR_OFF) for f in flags] == [False, True, False, False]
    assert [bool(f & FLAG_COMPARE_OFF) for f in flags] == [False, False, True, False]
    assert [bool(f & FLAG_HASH_OFF) for f in flags] == [False, False, True, True]
    assert repr(Options(1, 2, 3, 4)) == "test_flags.Options(shown=1, cache=3, salt=4)"


def test_frozen_cxx_type_is_frozen_in_python_only():
    obj = t.TestFrozenCxx(7, "tag")
    assert (obj.value, obj.tag) == (7, "tag")
    with pytest.raises(AttributeError, match="read-only"):
        obj.value = 8
    type(obj).value.set(obj, 9)  # the C++ field itself stays writable (the escape hatch)
    assert obj.value == 9
