"""ffi.RecursiveEq / RecursiveHash / RecursiveLt, Le, Gt, Ge: value comparison through fields.

Unlike structural_equal these compare by value only (no variable binding): same kind, same
contents, objects field by field (fields declared compare=False / hash=False left out; an
object with no such fields, a Function say, equals any other of its type). A type may replace
the field walk with hooks registered as static methods: ``__ffi_eq__(a, b, fn_eq)``,
``__ffi_compare__(a, b, fn_cmp)`` (negative, 0, positive) and ``__ffi_hash__(obj, fn_hash)``,
where the fn_* are these functions, for the hook's own recursion.

The walks keep their own stack (no Python recursion), so deep values do not hit the
interpreter's recursion limit.
"""

# No typing / math imports: this module loads with `import tvm_ffi`, which keeps them out.
from ._core import Device, Object, register_global_func
from .dtype import dtype as _dtype

_ARRAY_KEYS = ("ffi.Array", "ffi.List", "ffi.Shape")
_MAP_KEYS = ("ffi.Map", "ffi.Dict")
_HASH_HOOK, _EQ_HOOK, _CMP_HOOK = "__ffi_hash__", "__ffi_eq__", "__ffi_compare__"
_MASK = 0xFFFFFFFFFFFFFFFF
_EXIT = object()  # stack marker: leave the object whose pair / handle follows


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


def _info(obj):
    from ._reflection import type_info_of  # on first use: keeps `import tvm_ffi` fast

    return type_info_of(obj.__ffi_type_index__)


def _hook(obj, name):
    method = _info(obj).find_method(name)
    return None if method is None else method.func


def _field_values(obj, flag):
    return [f.getter.__get__(obj) for f in _info(obj).all_fields() if getattr(f, flag)]


def _leaf_key(value):
    """What a non-object value compares by (NaN equals NaN here, as upstream has it)."""
    if isinstance(value, float):
        return (1, 0.0) if value != value else (0, value)
    if isinstance(value, Device):
        return (value.dlpack_device_type(), value.index)
    if isinstance(value, _dtype):
        return value._fields()  # (type_code, bits, lanes)
    return value


def _children(a, kind):
    """The sub-values a composite value is compared by, in order."""
    if kind in _ARRAY_KEYS:
        return list(a)
    return _field_values(a, "c_compare")


def _cycle(func):
    return ValueError(f"{func}: cyclic reference detected; cyclic values cannot be compared")


def recursive_eq(lhs, rhs):
    """True when lhs and rhs have the same kind and equal contents (see the module doc)."""
    # `proven`: object pairs already found equal, so shared sub-values (DAGs) are walked once.
    stack, active, proven = [(lhs, rhs)], set(), set()
    while stack:
        a, b = stack.pop()
        if a is _EXIT:
            active.discard(b)
            proven.add(b)
            continue
        kind = _kind(a)
        if kind != _kind(b):
            return False
        if not isinstance(a, Object):
            if kind == "ffi.OpaquePyObject":
                if a is not b:
                    return False
            elif _leaf_key(a) != _leaf_key(b):
                return False
            continue
        if a.same_as(b) or (a.__ffi_handle__, b.__ffi_handle__) in proven:
            continue
        if kind in _MAP_KEYS:
            if len(a) != len(b) or any(k not in b for k in a.keys()):
                return False
            pairs = [(v, b[k]) for k, v in a.items()]
        elif kind in _ARRAY_KEYS:
            if len(a) != len(b):
                return False
            pairs = list(zip(a, b))
        else:
            hook = _hook(a, _EQ_HOOK)
            if hook is not None:
                if not hook(a, b, recursive_eq):
                    return False
                continue
            hook = _hook(a, _CMP_HOOK)
            if hook is not None:
                if int(hook(a, b, recursive_compare)) != 0:
                    return False
                continue
            pairs = list(zip(_field_values(a, "c_compare"), _field_values(b, "c_compare")))
        key = (a.__ffi_handle__, b.__ffi_handle__)
        if key in active:
            raise _cycle("RecursiveEq")
        active.add(key)
        stack.append((_EXIT, key))
        stack.extend(reversed(pairs))
    return True


def recursive_compare(lhs, rhs):
    """-1, 0 or 1: lexicographic over sequences and fields; TypeError for unordered values."""
    # Items: (a, b) to compare, (_EXIT, key), or (_LengthCheck, None): the length difference
    # of a sequence whose elements all compared equal.
    stack, active, proven = [(lhs, rhs)], set(), set()
    while stack:
        a, b = stack.pop()
        if a is _EXIT:
            active.discard(b)
            proven.add(b)  # reached only when every part compared equal
            continue
        result = _compare_step(a, b, stack, active, proven)
        if result:
            return result
    return 0


class _LengthCheck:
    __slots__ = ("diff",)

    def __init__(self, diff):
        self.diff = diff


def _compare_step(a, b, stack, active, proven):
    """Compares one pair, or schedules its parts; the nonzero result decides."""
    if isinstance(a, _LengthCheck):
        return (a.diff > 0) - (a.diff < 0)
    kind, other = _kind(a), _kind(b)
    if kind != other:
        # None orders before every other value; any other mix has no order.
        if kind == "None":
            return -1
        if other == "None":
            return 1
        raise TypeError(f"Cannot compare values of different types: {kind} vs {other}")
    if not isinstance(a, Object):
        if kind == "None":
            return 0
        if isinstance(a, float) and (a != a or b != b):
            raise TypeError("Cannot order NaN values")
        if kind == "ffi.OpaquePyObject":
            if a is b:
                return 0
            raise TypeError(f"Cannot order values of type {kind}")
        ka, kb = _leaf_key(a), _leaf_key(b)
        return (ka > kb) - (ka < kb)
    if a.same_as(b) or (a.__ffi_handle__, b.__ffi_handle__) in proven:
        return 0
    if kind in _MAP_KEYS:
        if recursive_eq(a, b):
            return 0
        raise TypeError("Cannot order Map/Dict values")
    if kind not in _ARRAY_KEYS:
        hook = _hook(a, _CMP_HOOK)
        if hook is not None:
            c = int(hook(a, b, recursive_compare))
            return (c > 0) - (c < 0)
    xs, ys = _children(a, kind), _children(b, kind)
    key = (a.__ffi_handle__, b.__ffi_handle__)
    if key in active:
        raise _cycle("RecursiveCompare")
    active.add(key)
    stack.append((_EXIT, key))
    stack.append((_LengthCheck(len(xs) - len(ys)), None))
    stack.extend(reversed(list(zip(xs, ys))))
    return 0


_KIND_HASHES: dict = {}


def _digest(data):
    """A signed 64-bit hash of bytes that is the same in every process (str/bytes hash()
    is salted per process, PYTHONHASHSEED)."""
    from hashlib import blake2b  # on first use: keeps `import tvm_ffi` fast

    value = int.from_bytes(blake2b(data, digest_size=8).digest(), "little")
    return value - (1 << 64) if value >= (1 << 63) else value


def _kind_hash(kind):
    cached = _KIND_HASHES.get(kind)
    if cached is None:
        cached = _KIND_HASHES[kind] = _digest(kind.encode("utf-8", "surrogatepass"))
    return cached


def _leaf_hash(kind, value):
    """A leaf's hash, stable across processes but for opaque Python objects (by identity)."""
    if kind == "ffi.OpaquePyObject":
        return hash(id(value))
    if kind == "ffi.String":
        return _digest(value.encode("utf-8", "surrogatepass"))
    if kind == "ffi.Bytes":
        return _digest(bytes(value))
    if kind == "None":
        return 0  # hash(None) is the object's address before Python 3.12
    return hash(_leaf_key(value))  # ints, floats and tuples of them hash alike everywhere


def _mix(seed, value):
    """Combines into a signed 64-bit hash."""
    seed = (seed ^ ((value + 0x9E3779B97F4A7C15 + (seed << 6) + (seed >> 2)) & _MASK)) & _MASK
    return seed - (1 << 64) if seed >= (1 << 63) else seed


def recursive_hash(value):
    """A hash that agrees with recursive_eq and is the same in every process (but for opaque
    Python objects); ValueError for a type with an eq hook but no hash hook."""
    # Post-order with an explicit stack: (_VISIT, value) pushes a value's hash onto `out`;
    # (_COMBINE, (seed, is_map, n, handle)) folds the last n hashes into one.
    # `memo`: the hash of each object already hashed, so shared sub-values are hashed once.
    todo, out, active, memo = [(True, value)], [], set(), {}
    while todo:
        visit, item = todo.pop()
        if not visit:
            seed, is_map, n, handle = item
            parts = out[len(out) - n :]
            del out[len(out) - n :]
            active.discard(handle)
            if is_map:  # order-independent: equal maps hash alike in any insertion order
                total = sum(_mix(parts[i], parts[i + 1]) for i in range(0, n, 2))
                seed = _mix(seed, total & _MASK)
            else:
                for h in parts:
                    seed = _mix(seed, h)
            memo[handle] = seed
            out.append(seed)
            continue
        kind = _kind(item)
        seed = _kind_hash(kind)
        if not isinstance(item, Object):
            out.append(_mix(seed, _leaf_hash(kind, item)))
            continue
        handle = item.__ffi_handle__
        if handle in memo:
            out.append(memo[handle])
            continue
        if handle in active:  # a cycle: its members hash by kind alone
            out.append(seed)
            continue
        if kind in _MAP_KEYS:
            children = [x for kv in item.items() for x in kv]
        elif kind in _ARRAY_KEYS:
            children = list(item)
        else:
            hook = _hook(item, _HASH_HOOK)
            if hook is not None:
                out.append(_mix(seed, int(hook(item, recursive_hash))))
                continue
            if _hook(item, _EQ_HOOK) is not None or _hook(item, _CMP_HOOK) is not None:
                raise ValueError(
                    f"RecursiveHash: type '{kind}' defines __ffi_eq__ or __ffi_compare__ but "
                    "not __ffi_hash__. Add a __ffi_hash__ hook to maintain the invariant "
                    "RecursiveEq(a,b) => RecursiveHash(a)==RecursiveHash(b)."
                )
            children = _field_values(item, "c_hash")
        active.add(handle)
        todo.append((False, (seed, kind in _MAP_KEYS, len(children), handle)))
        todo.extend((True, c) for c in reversed(children))
    return out[0]


register_global_func("ffi.RecursiveEq", recursive_eq, override=True)
register_global_func("ffi.RecursiveHash", recursive_hash, override=True)
register_global_func("ffi.RecursiveLt", lambda a, b: recursive_compare(a, b) < 0, override=True)
register_global_func("ffi.RecursiveLe", lambda a, b: recursive_compare(a, b) <= 0, override=True)
register_global_func("ffi.RecursiveGt", lambda a, b: recursive_compare(a, b) > 0, override=True)
register_global_func("ffi.RecursiveGe", lambda a, b: recursive_compare(a, b) >= 0, override=True)
