"""The VM's builtins, registered as global functions under upstream's names (vm.builtin.*).

The interpreter calls these Python functions directly (no FFI round trip); the global
registration lets compiled code and other languages reach them too.
"""

from __future__ import annotations

import ctypes
import math
import operator

import tvm_ffi

from ..dlpack_pointer import data_pointer, tensor_from_pointer
from ..tensor import empty
from .shape_codes import MakeShapeCode, MatchShapeCode
from .storage import Storage, checked_view, dtype_bytes

# name -> Python function; the interpreter resolves a packed function here before the registry.
BUILTINS: dict = {}
# What builtin() registered: an entry of BUILTINS replaced since (a test counting calls, a user's
# own version) is called instead of the library's native builtin of that name.
REGISTERED: dict = {}


def builtin(name):
    def register(fn):
        BUILTINS[name] = REGISTERED[name] = fn
        tvm_ffi.register_global_func(name, fn, override=True)
        return fn

    return register


class VMClosure:
    """A function with its last arguments already bound (vm.builtin.make_closure): the values
    a lifted local function captured, which LambdaLift appends to its parameters."""

    __slots__ = ("func", "saved_args")

    def __init__(self, func, saved_args):
        self.func = func
        self.saved_args = tuple(saved_args)

    def __call__(self, *args):
        return self.func(*args, *self.saved_args)

    def __repr__(self) -> str:
        name = getattr(self.func, "__name__", type(self.func).__name__)
        return f"VMClosure({name}, saved={len(self.saved_args)})"


def _where(err_ctx, fallback: str) -> str:
    return str(err_ctx) if err_ctx else fallback


def _split_err_ctx(args: tuple, fixed: int):
    """Upstream's variadic convention: the last argument is an optional error context."""
    if len(args) > fixed:
        return args[:fixed], args[fixed]
    return args, None


def _type_name(value) -> str:
    if isinstance(value, tvm_ffi.Tensor):
        return "Tensor"
    if isinstance(value, tvm_ffi.Shape):
        return "Shape"
    return type(value).__name__


# ---- storage, tensors and the shape heap -------------------------------------------------


def _device_of(vm, device_index):
    devices = getattr(vm, "devices", None)
    if not devices:
        from ..device import cpu

        return cpu(0)
    index = int(device_index)
    if not -1 <= index < len(devices):
        raise ValueError(
            f"vm.builtin.alloc_storage: argument 'device_index' {index} is out of range: "
            f"the VM has {len(devices)} device(s)"
        )
    return devices[index]


@builtin("vm.builtin.alloc_storage")
def alloc_storage(vm, buffer_shape, device_index=0, dtype_hint="uint8", mem_scope="global"):
    """Storage of prod(buffer_shape) elements of dtype_hint on the VM's device_index."""
    dims = (buffer_shape,) if isinstance(buffer_shape, int) else tuple(buffer_shape)
    if any(int(d) < 0 for d in dims):
        raise ValueError(
            f"vm.builtin.alloc_storage: argument 'buffer_shape' must hold sizes >= 0, got {dims}"
        )
    nbytes = math.prod(int(d) for d in dims) * dtype_bytes(dtype_hint)
    if nbytes >= 1 << 63:
        raise ValueError(
            f"vm.builtin.alloc_storage: argument 'buffer_shape' {dims} of {dtype_hint} needs "
            f"{nbytes} bytes, more than one storage can address (2**63 - 1)"
        )
    return Storage(nbytes, _device_of(vm, device_index))


def _is_native_storage(value) -> bool:
    """A 1-d uint8 tensor: a storage the native vm.builtin.alloc_storage made."""
    return (
        isinstance(value, tvm_ffi.Tensor) and len(value.shape) == 1 and str(value.dtype) == "uint8"
    )


@builtin("vm.builtin.alloc_tensor")
def alloc_tensor(storage, offset, shape, dtype, *_device_index):
    """A tensor at byte `offset` of `storage`."""
    if _is_native_storage(storage):
        # The native alloc_tensor hands the checks it cannot pass (a negative dim, a size past
        # int64) to this function: the same errors as a Storage's.
        dims = checked_view(int(offset), shape, dtype, int(storage.shape[0]))
        return tensor_from_pointer(
            data_pointer(storage) + int(offset), dims, str(dtype), storage.device, keepalive=storage
        )
    if not isinstance(storage, Storage):
        raise TypeError(
            "vm.builtin.alloc_tensor: argument 'storage' must be a Storage from "
            f"vm.builtin.alloc_storage, got {_type_name(storage)}"
        )
    return storage.alloc_tensor(int(offset), shape, dtype)


@builtin("vm.builtin.alloc_shape_heap")
def alloc_shape_heap(vm, size):
    """The int64 tensor that holds a function's symbolic dimensions."""
    size = operator.index(size)
    if size < 0:
        raise ValueError(f"vm.builtin.alloc_shape_heap: argument 'size' must be >= 0, got {size}")
    return empty((size,), "int64")


# The ctypes view of the last few heaps, so that a shape check does not export DLPack.
_HEAP_VIEWS: list = []


def _heap_view(heap):
    for entry in _HEAP_VIEWS:
        if entry[0] is heap:
            return entry[1]
    if not isinstance(heap, tvm_ffi.Tensor) or str(heap.dtype) != "int64" or len(heap.shape) != 1:
        raise TypeError(
            "vm.builtin.match_shape: argument 'heap' must be a 1-d int64 tensor from "
            f"vm.builtin.alloc_shape_heap, got {_type_name(heap)}"
        )
    view = (ctypes.c_int64 * int(heap.shape[0])).from_address(data_pointer(heap))
    _HEAP_VIEWS.insert(0, (heap, view))
    del _HEAP_VIEWS[8:]
    return view


def _check_slot(where: str, view, slot) -> None:
    # ctypes would read view[-1] as the last slot, and the native builtins past the heap.
    if view is None or not 0 <= slot < len(view):
        size = "no heap" if view is None else f"a heap of {len(view)}"
        raise ValueError(f"{where}: shape heap slot {slot} is out of range ({size})")


def _shape_of_value(value, where):
    if isinstance(value, tvm_ffi.Tensor):
        return value.shape
    if isinstance(value, (tvm_ffi.Shape, tuple, list)):
        return tuple(value)
    raise TypeError(f"{where}: expected a Tensor or a Shape, got {_type_name(value)}")


@builtin("vm.builtin.match_shape")
def match_shape(value, heap, size, *rest):
    """Check or record each of `size` dimensions of value's shape, one (code, value) pair each.

    rest: 2*size ints, then an optional error context naming the argument being matched."""
    err_ctx = rest[2 * size] if len(rest) > 2 * size else None
    where = _where(err_ctx, "vm.builtin.match_shape")
    shape = _shape_of_value(value, where)
    if len(shape) != size:
        raise ValueError(f"{where}: expected a shape of {size} dimensions, got {tuple(shape)}")
    view = _heap_view(heap) if heap is not None else None
    for i in range(size):
        code, reg = rest[2 * i], rest[2 * i + 1]
        dim = int(shape[i])
        if code == MatchShapeCode.kNoOp:
            continue
        if code in (MatchShapeCode.kStoreToHeap, MatchShapeCode.kAssertEqualToLoad):
            _check_slot("vm.builtin.match_shape", view, reg)
        if code == MatchShapeCode.kStoreToHeap:
            view[reg] = dim
        elif code == MatchShapeCode.kAssertEqualToImm:
            if dim != reg:
                raise ValueError(
                    f"{where}: dimension {i} of the shape {tuple(shape)} is {dim}, expected {reg}"
                )
        elif code == MatchShapeCode.kAssertEqualToLoad:
            if dim != view[reg]:
                raise ValueError(
                    f"{where}: dimension {i} of the shape {tuple(shape)} is {dim}, expected "
                    f"{view[reg]} (the value bound by an earlier dimension)"
                )
        else:
            raise ValueError(f"vm.builtin.match_shape: unknown MatchShapeCode {code}")
    return None


@builtin("vm.builtin.make_shape")
def make_shape(heap, size, *pairs):
    """A Shape of `size` dimensions, each an immediate or a load from the heap."""
    if len(pairs) != 2 * size:
        raise ValueError(
            f"vm.builtin.make_shape: expected {2 * size} (code, value) items, got {len(pairs)}"
        )
    dims = []
    view = None
    for i in range(size):
        code, value = pairs[2 * i], pairs[2 * i + 1]
        if code == MakeShapeCode.kUseImm:
            dims.append(int(value))
        elif code == MakeShapeCode.kLoadShape:
            if view is None:
                view = _heap_view(heap)
            _check_slot("vm.builtin.make_shape", view, value)
            dims.append(view[value])
        else:
            raise ValueError(f"vm.builtin.make_shape: unknown MakeShapeCode {code}")
    return tvm_ffi.Shape(dims)


# ---- struct info checks ------------------------------------------------------------------


@builtin("vm.builtin.check_tensor_info")
def check_tensor_info(arg, ndim, *rest):
    """arg must be a tensor of ndim dimensions (-1: any) and, when given, that dtype."""
    dtype, err_ctx = (rest[0], rest[1]) if len(rest) >= 2 else (None, rest[0] if rest else None)
    where = _where(err_ctx, "vm.builtin.check_tensor_info")
    if not isinstance(arg, tvm_ffi.Tensor):
        raise TypeError(f"{where}: expected a Tensor, got {_type_name(arg)}")
    if ndim != -1 and len(arg.shape) != ndim:
        raise ValueError(
            f"{where}: expected a tensor of {ndim} dimensions, got {len(arg.shape)} "
            f"(shape {tuple(arg.shape)})"
        )
    if dtype is not None and str(dtype) not in ("", "void") and str(arg.dtype) != str(dtype):
        raise ValueError(f"{where}: expected a tensor of dtype {dtype}, got {arg.dtype}")


@builtin("vm.builtin.check_shape_info")
def check_shape_info(arg, ndim, err_ctx=None):
    where = _where(err_ctx, "vm.builtin.check_shape_info")
    if not isinstance(arg, tvm_ffi.Shape):
        raise TypeError(f"{where}: expected a Shape, got {_type_name(arg)}")
    if ndim != -1 and len(arg) != ndim:
        raise ValueError(f"{where}: expected a shape of {ndim} dimensions, got {tuple(arg)}")


@builtin("vm.builtin.check_prim_value_info")
def check_prim_value_info(arg, dtype, err_ctx=None):
    where = _where(err_ctx, "vm.builtin.check_prim_value_info")
    kind = str(dtype) if dtype is not None else ""
    if kind.startswith("bool"):
        ok = isinstance(arg, (bool, int))
    elif kind.startswith(("int", "uint")):
        ok = isinstance(arg, int)
    elif kind.startswith(("float", "bfloat")):
        ok = isinstance(arg, (float, int)) and not isinstance(arg, bool)
    else:
        ok = isinstance(arg, (bool, int, float))
    if not ok:
        raise TypeError(f"{where}: expected a {kind or 'primitive'} value, got {_type_name(arg)}")


@builtin("vm.builtin.check_tuple_info")
def check_tuple_info(arg, size, err_ctx=None):
    where = _where(err_ctx, "vm.builtin.check_tuple_info")
    if not isinstance(arg, (tuple, list, tvm_ffi.Array)):
        raise TypeError(f"{where}: expected a tuple, got {_type_name(arg)}")
    if len(arg) != size:
        raise ValueError(f"{where}: expected a tuple of {size} items, got {len(arg)}")


@builtin("vm.builtin.check_func_info")
def check_func_info(arg, err_ctx=None):
    if not callable(arg):
        where = _where(err_ctx, "vm.builtin.check_func_info")
        raise TypeError(f"{where}: expected a function, got {_type_name(arg)}")


# ---- values ------------------------------------------------------------------------------


@builtin("vm.builtin.shape_of")
def shape_of(tensor):
    if not isinstance(tensor, tvm_ffi.Tensor):
        raise TypeError(
            f"vm.builtin.shape_of: argument 'tensor' must be a Tensor, got {_type_name(tensor)}"
        )
    return tvm_ffi.Shape(tensor.shape)


@builtin("vm.builtin.tuple_getitem")
def tuple_getitem(tup, index):
    try:
        if index < 0:  # Python would count -1 from the end: another item, silently
            raise IndexError
        return tup[index]
    except IndexError:
        raise IndexError(
            f"vm.builtin.tuple_getitem: index {index} is out of range for a tuple of "
            f"{len(tup)} items"
        ) from None


@builtin("vm.builtin.make_tuple")
def make_tuple(*items):
    return items


@builtin("vm.builtin.null_value")
def null_value():
    return None


@builtin("vm.builtin.make_closure")
def make_closure(func, *saved_args):
    if not callable(func):
        raise TypeError(
            f"vm.builtin.make_closure: argument 'func' must be a function, got {_type_name(func)}"
        )
    return VMClosure(func, saved_args)


@builtin("vm.builtin.invoke_closure")
def invoke_closure(vm, closure, *args):
    if not callable(closure):
        raise TypeError(
            f"vm.builtin.invoke_closure: argument 'closure' must be a closure, got "
            f"{_type_name(closure)}"
        )
    return closure(*args)


@builtin("vm.builtin.copy")
def copy(value):
    return value


@builtin("vm.builtin.reshape")
def reshape(tensor, shape):
    """A view of `tensor` with the same elements in `shape`."""
    if not isinstance(tensor, tvm_ffi.Tensor):
        raise TypeError(
            f"vm.builtin.reshape: argument 'tensor' must be a Tensor, got {_type_name(tensor)}"
        )
    dims = tuple(int(d) for d in shape)
    if any(d < 0 for d in dims):  # (-2, -2) has the element count of (2, 2)
        raise ValueError(f"vm.builtin.reshape: argument 'shape' must hold sizes >= 0, got {dims}")
    if math.prod(dims) != math.prod(tensor.shape):
        raise ValueError(
            f"vm.builtin.reshape: cannot view a tensor of shape {tuple(tensor.shape)} as {dims} "
            "(the element counts differ)"
        )
    return tensor_from_pointer(
        data_pointer(tensor), dims, str(tensor.dtype), tensor.device, keepalive=tensor
    )


@builtin("vm.builtin.read_if_cond")
def read_if_cond(cond):
    """The truth of an If condition: a bool/int or a scalar tensor."""
    if isinstance(cond, tvm_ffi.Tensor):
        if math.prod(cond.shape) != 1:
            raise ValueError(
                "vm.builtin.read_if_cond: the condition must be a scalar tensor, got shape "
                f"{tuple(cond.shape)}"
            )
        host = cond
        if int(cond.device.device_type) != 1:
            from ..tensor import copy_tensor

            host = empty(tuple(cond.shape), str(cond.dtype))
            copy_tensor(host, cond)
        size = dtype_bytes(host.dtype)
        return any(ctypes.string_at(data_pointer(host), size))
    return bool(cond)


@builtin("vm.builtin.check_string_info")
def check_string_info(arg, err_ctx=None):
    if not isinstance(arg, str):
        where = _where(err_ctx, "vm.builtin.check_string_info")
        raise TypeError(f"{where}: expected a str, got {_type_name(arg)}")


@builtin("vm.builtin.match_prim_value")
def match_prim_value(value, heap, code, reg, err_ctx=None):
    """match_shape for one integer value (an R.Prim("int64") argument, say)."""
    match_shape(tvm_ffi.Shape([int(value)]), heap, 1, code, reg, err_ctx)


@builtin("vm.builtin.make_prim_value")
def make_prim_value(heap, code, value):
    return make_shape(heap, 1, code, value)[0]


@builtin("vm.builtin.tensor_to_shape")
def tensor_to_shape(tensor):
    """The Shape a 1-d integer tensor holds."""
    if not isinstance(tensor, tvm_ffi.Tensor) or len(tensor.shape) != 1:
        raise TypeError(
            "vm.builtin.tensor_to_shape: argument 'tensor' must be a 1-d integer tensor, got "
            f"{_type_name(tensor)}"
        )
    dtype = str(tensor.dtype)
    if dtype not in ("int64", "int32"):
        raise TypeError(
            f"vm.builtin.tensor_to_shape: argument 'tensor' must be int64 or int32, got {dtype}"
        )
    ctype = ctypes.c_int64 if dtype == "int64" else ctypes.c_int32
    n = int(tensor.shape[0])
    host = tensor
    if int(tensor.device.device_type) != 1:
        from ..tensor import copy_tensor

        host = empty((n,), dtype)
        copy_tensor(host, tensor)
    return tvm_ffi.Shape(list((ctype * n).from_address(data_pointer(host))))


@builtin("vm.builtin.call_tir_dyn")
def call_tir_dyn(func, *args):
    """func(*tensors, *shape): the last argument is a Shape whose values follow the tensors."""
    if not args or not isinstance(args[-1], (tvm_ffi.Shape, tuple)):
        raise TypeError("vm.builtin.call_tir_dyn: the last argument must be a Shape")
    return func(*args[:-1], *(int(d) for d in args[-1]))


@builtin("vm.builtin.ensure_zero_offset")
def ensure_zero_offset(tensor):
    # Tensors made here (and views from alloc_tensor) address their data directly.
    return tensor


@builtin("vm.builtin.to_device")
def to_device(tensor, device_type, device_id):
    from ..device import device as make_device
    from ..tensor import copy_tensor

    dev = make_device(int(device_type), int(device_id))
    out = empty(tuple(tensor.shape), str(tensor.dtype), dev)
    copy_tensor(out, tensor)
    return out


@builtin("vm.builtin.tuple_reset_item")
def tuple_reset_item(tup, index):
    # Upstream drops the item to free it early; Python tuples are immutable, so the item
    # lives as long as the tuple does.
    return None


@builtin("vm.builtin.invoke_debug_func")
def invoke_debug_func(io_effect, func_name, line_info, *args):
    """Call the global function func_name(line_info, *args) for its effect (nn.op.debug_func);
    the IO effect object passes through so the calls stay ordered."""
    func = tvm_ffi.get_global_func(str(func_name), allow_missing=True)
    if func is None:
        raise ValueError(
            f"vm.builtin.invoke_debug_func: no global function named {str(func_name)!r} "
            f"(called at {line_info})"
        )
    func(str(line_info), *args)
    return io_effect


def _debug_text(value) -> str:
    if hasattr(value, "numpy") and hasattr(value, "shape") and hasattr(value, "dtype"):
        return f"shape = {tuple(value.shape)}, dtype = {value.dtype}, data =\n{value.numpy()}"
    return str(value)


@builtin("vm.builtin.debug_print")
def debug_print(line_info, *args):
    """Print line_info and each argument (a tensor as its shape, dtype and data): nn.op.print_."""
    print(f"{line_info}: " + ", ".join(_debug_text(a) for a in args), flush=True)
