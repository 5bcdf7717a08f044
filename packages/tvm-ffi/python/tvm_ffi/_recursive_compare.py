"""ffi.RecursiveEq / RecursiveHash / RecursiveLt, Le, Gt, Ge: value comparison through fields.

Unlike structural_equal these compare by value only (no variable binding): same kind, same
contents, objects field by field (fields declared compare=False / hash=False left out). A type
may replace the field walk with hooks registered as static methods: ``__ffi_eq__(a, b, fn_eq)``,
``__ffi_compare__(a, b, fn_cmp)`` (negative, 0, positive) and ``__ffi_hash__(obj, fn_hash)``,
where the fn_* are these functions, for the hook's own recursion.
"""

# No typing / math imports: this module loads with `import tvm_ffi`, which keeps them out.
from ._core import Device, Object, register_global_func
from .dtype import dtype as _dtype

_ARRAY_KEYS = ("ffi.Array", "ffi.List")
_MAP_KEYS = ("ffi.Map", "ffi.Dict")
_HASH_HOOK, _EQ_HOOK, _CMP_HOOK = "__ffi_hash__", "__ffi_eq__", "__ffi_compare__"


def _kind(value):
    """The name of a value's FFI kind; values of different kinds never compare equal."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "ffi.String"
    if isinstance(value, bytes):
        return "ffi.Bytes"
    if isinstance(value, Device):
        return "Device"
    if isinstance(value, _dtype):
        return "DataType"
    if isinstance(value, Object):
        return value.__ffi_type_key__
    return "ffi.OpaquePyObject"


def _hook(obj, name):
    from ._reflection import type_info_of  # on first use: keeps `import tvm_ffi` fast

    method = type_info_of(obj.__ffi_type_index__).find_method(name)
    return None if method is None else method.func


def _fields(obj, flag):
    from ._reflection import type_info_of

    return [f for f in type_info_of(obj.__ffi_type_index__).all_fields() if getattr(f, flag)]


def _float_key(x):
    """NaN equals NaN here (and hashes alike), as upstream's recursive comparison has it."""
    return (1, 0.0) if x != x else (0, x)


def _eq(a, b, active):
    kind = _kind(a)
    if kind != _kind(b):
        return False
    if isinstance(a, float):
        return _float_key(a) == _float_key(b)
    if not isinstance(a, Object):
        if kind == "ffi.OpaquePyObject":
            return a is b
        return bool(a == b)
    if a.same_as(b):
        return True
    pair = (a.__ffi_handle__, b.__ffi_handle__)
    if pair in active:  # a cycle: equal unless some other part differs
        return True
    active.add(pair)
    try:
        if kind in _ARRAY_KEYS:
            return len(a) == len(b) and all(_eq(x, y, active) for x, y in zip(a, b))
        if kind in _MAP_KEYS:
            if len(a) != len(b):
                return False
            for key, value in a.items():
                if key not in b or not _eq(value, b[key], active):
                    return False
            return True
        if kind == "ffi.Shape":
            return tuple(a) == tuple(b)
        hook = _hook(a, _EQ_HOOK)
        if hook is not None:
            return bool(hook(a, b, _FN_EQ))
        hook = _hook(a, _CMP_HOOK)
        if hook is not None:
            return int(hook(a, b, _FN_CMP)) == 0
        fields = _fields(a, "c_compare")
        if not fields:  # nothing reflected to compare (Function, Tensor, Module...): identity
            return False
        return all(_eq(f.getter.__get__(a), f.getter.__get__(b), active) for f in fields)
    finally:
        active.discard(pair)


def _sign(x):
    return (x > 0) - (x < 0)


def _cmp(a, b, active):
    kind = _kind(a)
    other = _kind(b)
    if kind != other:
        # None orders before every other value; any other mix has no order.
        if kind == "None":
            return -1
        if other == "None":
            return 1
        raise TypeError(f"Cannot compare values of different types: {kind} vs {other}")
    if kind == "None":
        return 0
    if isinstance(a, float):
        if a != a or b != b:
            raise TypeError("Cannot order NaN values")
        return _sign(a - b) if a != b else 0
    if isinstance(a, (bool, int, str, bytes)):
        return (a > b) - (a < b)
    if isinstance(a, (Device, _dtype)):
        ka = (a.dlpack_device_type(), a.index) if isinstance(a, Device) else str(a)
        kb = (b.dlpack_device_type(), b.index) if isinstance(b, Device) else str(b)
        return (ka > kb) - (ka < kb)
    if not isinstance(a, Object):
        if a is b:
            return 0
        raise TypeError(f"Cannot order values of type {kind}")
    if a.same_as(b):
        return 0
    pair = (a.__ffi_handle__, b.__ffi_handle__)
    if pair in active:
        return 0
    active.add(pair)
    try:
        if kind in _ARRAY_KEYS or kind == "ffi.Shape":
            for x, y in zip(a, b):
                c = _cmp(x, y, active)
                if c:
                    return c
            return _sign(len(a) - len(b))
        if kind in _MAP_KEYS:
            raise TypeError("Cannot order Map/Dict values")
        hook = _hook(a, _CMP_HOOK)
        if hook is not None:
            return _sign(int(hook(a, b, _FN_CMP)))
        fields = _fields(a, "c_compare")
        if not fields:
            raise TypeError(f"Cannot order values of type {kind}: it has no compared fields")
        for f in fields:
            c = _cmp(f.getter.__get__(a), f.getter.__get__(b), active)
            if c:
                return c
        return 0
    finally:
        active.discard(pair)


def _mix(seed, value):
    """Combines into a signed 64-bit hash."""
    seed ^= (value + 0x9E3779B97F4A7C15 + (seed << 6) + (seed >> 2)) & 0xFFFFFFFFFFFFFFFF
    seed &= 0xFFFFFFFFFFFFFFFF
    return seed - (1 << 64) if seed >= (1 << 63) else seed


def _hash(v, active):
    kind = _kind(v)
    seed = hash(kind)
    if isinstance(v, float):
        return _mix(seed, hash(_float_key(v)))
    if not isinstance(v, Object):
        if kind == "ffi.OpaquePyObject":
            return _mix(seed, id(v))
        if isinstance(v, Device):
            return _mix(seed, hash((v.dlpack_device_type(), v.index)))
        return _mix(seed, hash(str(v) if isinstance(v, _dtype) else v))
    handle = v.__ffi_handle__
    if handle in active:  # a cycle: its members hash by kind alone
        return seed
    active.add(handle)
    try:
        if kind in _ARRAY_KEYS or kind == "ffi.Shape":
            for x in v:
                seed = _mix(seed, _hash(x, active))
            return seed
        if kind in _MAP_KEYS:
            total = 0  # order-independent: maps equal in any insertion order hash alike
            for key, value in v.items():
                total += _mix(_hash(key, active), _hash(value, active))
            return _mix(seed, total & 0xFFFFFFFFFFFFFFFF)
        hook = _hook(v, _HASH_HOOK)
        if hook is not None:
            return _mix(seed, int(hook(v, _FN_HASH)))
        if _hook(v, _EQ_HOOK) is not None or _hook(v, _CMP_HOOK) is not None:
            raise ValueError(
                f"RecursiveHash: type '{kind}' defines __ffi_eq__ or __ffi_compare__ but not "
                "__ffi_hash__. Add a __ffi_hash__ hook to maintain the invariant "
                "RecursiveEq(a,b) => RecursiveHash(a)==RecursiveHash(b)."
            )
        fields = _fields(v, "c_hash")
        if not fields and not _fields(v, "c_compare"):
            return _mix(seed, handle)  # compared by identity (see _eq): hashed by it
        for f in fields:
            seed = _mix(seed, _hash(f.getter.__get__(v), active))
        return seed
    finally:
        active.discard(handle)


def recursive_eq(lhs, rhs):
    """True when lhs and rhs have the same kind and equal contents (see the module doc)."""
    return _eq(lhs, rhs, set())


def recursive_hash(value):
    """A hash that agrees with recursive_eq; ValueError for a type with an eq hook but no
    hash hook."""
    return _hash(value, set())


def recursive_compare(lhs, rhs):
    """-1, 0 or 1: lexicographic over sequences and fields; TypeError for unordered values."""
    return _cmp(lhs, rhs, set())


_FN_EQ = recursive_eq
_FN_CMP = recursive_compare
_FN_HASH = recursive_hash
register_global_func("ffi.RecursiveEq", recursive_eq, override=True)
register_global_func("ffi.RecursiveHash", recursive_hash, override=True)
register_global_func("ffi.RecursiveLt", lambda a, b: _cmp(a, b, set()) < 0, override=True)
register_global_func("ffi.RecursiveLe", lambda a, b: _cmp(a, b, set()) <= 0, override=True)
register_global_func("ffi.RecursiveGt", lambda a, b: _cmp(a, b, set()) > 0, override=True)
register_global_func("ffi.RecursiveGe", lambda a, b: _cmp(a, b, set()) >= 0, override=True)
