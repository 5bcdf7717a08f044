"""ffi.RecursiveEq / Hash / Lt / Le / Gt / Ge and the __ffi_eq__ / __ffi_hash__ /
__ffi_compare__ hooks of tvm_ffi.testing's TestCustom* types."""

import pytest
import tvm_ffi
import tvm_ffi.testing as t

eq = tvm_ffi.get_global_func("ffi.RecursiveEq")
rhash = tvm_ffi.get_global_func("ffi.RecursiveHash")
lt = tvm_ffi.get_global_func("ffi.RecursiveLt")
le = tvm_ffi.get_global_func("ffi.RecursiveLe")
gt = tvm_ffi.get_global_func("ffi.RecursiveGt")
ge = tvm_ffi.get_global_func("ffi.RecursiveGe")


def test_values_and_containers():
    assert eq(1, 1) and not eq(1, 1.0) and not eq(True, 1)
    assert eq(float("nan"), float("nan")) and not eq(float("nan"), 1.0)
    assert eq("abc", "abc") and eq(b"x", b"x")
    assert eq([1, [2, "a"]], [1, [2, "a"]]) and not eq([1], [1, 2])
    assert eq({"a": 1}, {"a": 1}) and not eq({"a": 1}, {"a": 1.0})
    assert not eq(tvm_ffi.Array([1]), tvm_ffi.List([1]))
    assert eq(tvm_ffi.device("cpu"), tvm_ffi.device("cpu"))
    assert lt(tvm_ffi.Device("cpu", 0), tvm_ffi.Device("cuda", 0))
    assert lt(tvm_ffi.dtype("int8"), tvm_ffi.dtype("int16"))  # by (code, bits, lanes)
    assert eq({"a": 1}, {"a": 1}) and le({"a": 1}, {"a": 1})  # equal maps order as equal
    assert rhash({"a": 1, "b": 2}) == rhash({"b": 2, "a": 1})
    assert rhash([1, 2]) == rhash([1, 2]) and rhash([1, 2]) != rhash([2, 1])


def test_objects_field_by_field():
    p = t.TestIntPair
    assert eq(p(1, 2), p(1, 2)) and not eq(p(1, 2), p(1, 3))
    assert rhash(p(1, 2)) == rhash(p(1, 2))
    assert lt(p(1, 2), p(1, 3)) and le(p(1, 2), p(1, 2)) and gt(p(2, 0), p(1, 9))
    assert not eq(p(1, 2), t.TestCustomHash(1, "a"))
    # compare=False fields are left out of == and of the hash.
    assert eq(t.TestCompare(1, "a", 5), t.TestCompare(1, "a", 6))
    assert rhash(t.TestCompare(1, "a", 5)) == rhash(t.TestCompare(1, "a", 6))


def test_hash_hook():
    a, b = t.TestCustomHash(1, "a"), t.TestCustomHash(1, "b")
    assert rhash(a) == rhash(b)  # the hook hashes key only
    assert not eq(a, b)  # == has no hook: every field counts
    assert rhash(a) != rhash(t.TestCustomHash(2, "a"))


def test_eq_and_compare_hooks():
    a, b, c = t.TestCustomCompare(1, "a"), t.TestCustomCompare(1, "b"), t.TestCustomCompare(2, "a")
    assert eq(a, b) and not eq(a, c)
    assert lt(a, c) and not lt(a, b) and le(a, b) and ge(a, b) and gt(c, a)
    assert rhash(a) == rhash(b)


def test_eq_hook_without_hash_hook():
    a, b = t.TestEqWithoutHash(1, "a"), t.TestEqWithoutHash(1, "b")
    assert eq(a, b)
    assert lt(a, b)  # ordering has no hook: fields decide ("a" < "b")
    with pytest.raises(ValueError, match="defines __ffi_eq__ or __ffi_compare__ but not"):
        rhash(a)


def test_cycles():
    lst = tvm_ffi.List([])
    lst.append(lst)
    assert eq(lst, lst)  # the same object: equal without walking
    assert isinstance(rhash(lst), int)
    other = tvm_ffi.List([])
    other.append(other)
    with pytest.raises(ValueError, match="RecursiveEq: cyclic reference"):
        eq(lst, other)
    with pytest.raises(ValueError, match="cyclic reference"):
        lt(lst, other)


def test_deep_values_do_not_recurse():
    def nest(depth):
        value = 0
        for _ in range(depth):
            value = tvm_ffi.Array([value])
        return value

    a, b = nest(3000), nest(3000)
    assert eq(a, b) and rhash(a) == rhash(b) and le(a, b)


def test_shared_sub_values_are_walked_once():
    def dag(depth):
        node = 1
        for _ in range(depth):
            node = tvm_ffi.Array([node, node])  # 2**depth paths, depth + 1 objects
        return node

    a, b = dag(60), dag(60)  # finishes only if each shared object is visited once
    assert eq(a, b) and rhash(a) == rhash(b) and le(a, b) and not lt(a, b)


def test_fieldless_objects_are_equal():
    f, g = tvm_ffi.get_global_func("testing.add_one"), tvm_ffi.get_global_func("testing.nop")
    assert eq(f, g) and rhash(f) == rhash(g) and not lt(f, g)


def test_inherited_fields():
    derived = t.testing._TestCxxClassDerived
    a, b = derived(10, 20, 1.5), derived(99, 20, 1.5)
    assert a.v_f32 == 8.0  # the Python default
    assert eq(a, derived(10, 20, 1.5, 8.0)) and not eq(a, b) and lt(a, b)
    dd = t.testing._TestCxxClassDerivedDerived(1, 2, 3.0, True)
    assert repr(dd) == (
        'testing.TestCxxClassDerivedDerived(v_f64=3, v_f32=8, v_str="default", v_bool=True)'
    )


def test_unordered_values():
    with pytest.raises(TypeError, match="different types: int vs ffi.String"):
        lt(1, "a")
    with pytest.raises(TypeError, match="Cannot order Map/Dict values"):
        lt({"a": 1}, {"a": 2})
    with pytest.raises(TypeError, match="Cannot order NaN values"):
        lt(float("nan"), 1.0)
    assert lt(None, 1) and not lt(None, None)


def test_hooks_are_reflected_methods():
    info = t.TestCustomHash.__tvm_ffi_type_info__
    hook = info.find_method("__ffi_hash__").func
    assert hook(t.TestCustomHash(7, "x"), lambda key: key * 10) == 70
    with pytest.raises(TypeError, match="argument `self` must be testing.TestCustomHash"):
        hook(t.TestIntPair(1, 2), lambda key: key)


def test_hash_is_the_same_in_every_process():
    # str hash() is salted per process (PYTHONHASHSEED) and hash(None) is an address before
    # Python 3.12: RecursiveHash must not inherit either, or hashes kept across runs go stale.
    import os
    import subprocess
    import sys

    code = (
        "import tvm_ffi; h = tvm_ffi.get_global_func('ffi.RecursiveHash'); "
        "print(h('abc'), h(b'xy'), h(None), h(['a', 1, None, 2.5, {'k': 'v'}]))"
    )
    outputs = set()
    for seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        run = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
        )
        outputs.add(run.stdout)
    assert len(outputs) == 1, outputs
    # Equal values still hash alike, unequal ones apart.
    assert rhash("abc") == rhash("abc") and rhash("abc") != rhash("abd")
    assert rhash(b"abc") != rhash("abc") and rhash(None) != rhash(0)
