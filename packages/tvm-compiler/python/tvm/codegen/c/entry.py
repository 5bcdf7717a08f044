"""The exported entry of a PrimFunc: unpack FFI arguments, check them, bind shapes, run the body."""

from __future__ import annotations

from tvm.arith.bound import ConstIntBound
from tvm.tir import expr as E
from tvm.tir.function import PrimFunc

from .body import BodyWriter, CodegenError, Names
from .c_types import c_scalar_type, c_type, dl_dtype_check
from .minifloat import MINIFLOAT_HELPERS
from .streaming import streamed_buffers

# Helpers every generated translation unit starts with.
PRELUDE = (
    r"""
#define _GNU_SOURCE /* sched_getaffinity, for the spare-thread count (cpu_spare.py) */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tvm_ffi/c_api.h>

TVM_FFI_LIBRARY_ABI_TAG();

static int tvm_raise(const char* kind, const char* fmt, ...) {
  char message[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof(message), fmt, ap);
  va_end(ap);
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

static void tvm_abort_oom(const char* func) {
  fprintf(stderr, "%s: out of memory inside a parallel loop\n", func);
  abort();
}

static void* tvm_alloc(size_t bytes) {
  size_t rounded = (bytes + 63) / 64 * 64;
  return aligned_alloc(64, rounded ? rounded : 64);
}

/* bfloat16: the top half of a float32. Values are computed as float and rounded to the
   nearest bfloat16 (ties to even) after each operation; NaN stays a (quiet) NaN. */
static inline float tvm_bf16_to_f32(uint16_t v) {
  uint32_t u = (uint32_t)v << 16;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static inline uint16_t tvm_f32_to_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

static inline float tvm_bf16_round(float f) { return tvm_bf16_to_f32(tvm_f32_to_bf16(f)); }

"""
    + MINIFLOAT_HELPERS
    + r"""

static const char* tvm_dtype_name(DLDataType t, char* buf, size_t n) {
  static const char* codes[] = {"int", "uint", "float", "handle", "bfloat", "complex", "bool"};
  const char* code = t.code < 7 ? codes[t.code] : "code?";
  if (t.lanes == 1) snprintf(buf, n, "%s%d", code, (int)t.bits);
  else snprintf(buf, n, "%s%dx%d", code, (int)t.bits, (int)t.lanes);
  return buf;
}

/* The name of what an argument holds, for messages ("int", "str", "ffi.Array", ...). */
static TVMFFIByteArray tvm_type_name(int32_t type_index) {
  static const TVMFFIByteArray str = {"str", 3}, bytes = {"bytes", 5}, unknown = {"unknown", 7};
  if (type_index == kTVMFFIRawStr || type_index == kTVMFFISmallStr || type_index == kTVMFFIStr)
    return str;
  if (type_index == kTVMFFIByteArrayPtr || type_index == kTVMFFISmallBytes ||
      type_index == kTVMFFIBytes)
    return bytes;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  return info ? info->type_key : unknown;
}

static DLTensor* tvm_arg_tensor(const TVMFFIAny* arg) {
  if (arg->type_index == kTVMFFITensor) return TVMFFITensorGetDLTensorPtr(arg->v_obj);
  if (arg->type_index == kTVMFFIDLTensorPtr) return (DLTensor*)arg->v_ptr;
  return NULL;
}
"""
)


def _int_range(dtype):
    """(low, high) of an integer dtype narrower than 64 bits, else (None, None)."""
    bits = dtype.bits
    if dtype.is_bool or bits >= 64:
        return None, None
    if dtype.is_uint:
        return 0, (1 << bits) - 1
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


class EntryWriter:
    """Writes `int __tvm_ffi_<name>(self, args, num_args, result)` for one PrimFunc."""

    def __init__(self, func: PrimFunc, name: str):
        self.func = func
        self.name = name
        self.names = Names()
        self.body = BodyWriter(self.names, name, func.ret_type)
        self.bound_vars: dict[int, str] = {}

    def _fail(self, kind: str, fmt: str, *args: str, depth: int = 1) -> None:
        extra = "".join(f", {a}" for a in args)
        self.body.emit(f'return tvm_raise("{kind}", "{self.name}: {fmt}"{extra});', depth)

    def _fail_type(self, what: str, arg: str) -> None:
        """Raise TypeError naming what the argument should be and what it holds."""
        self.body.emit(f"TVMFFIByteArray got = tvm_type_name({arg}.type_index);", 2)
        self._fail("TypeError", f"{what}, got %.*s", "(int)got.size", "got.data", depth=2)

    def write(self) -> str:
        func, b = self.func, self.body
        params = func.params
        arg_names = ", ".join(self._param_label(p) for p in params)
        b.emit(f"if (num_args != {len(params)}) {{", 1)
        self._fail(
            "TypeError",
            f"expected {len(params)} arguments ({arg_names}), got %d",
            "(int)num_args",
            depth=2,
        )
        b.emit("}", 1)
        checks = []
        for index, param in enumerate(params):
            buf = func.buffer_map.get(param)
            if buf is None:
                self._scalar_param(index, param)
            else:
                checks.append(self._tensor_param(index, param, buf))
        for deferred in checks:
            deferred()
        b.streamed = streamed_buffers(func.body)
        b.stmt(func.body, 1)
        if b.uses_stream:
            b.emit("tvm_stream_fence();", 1)  # for the streaming stores outside parallel loops
        b.emit("return 0;", 1)
        header = (
            f"TVM_FFI_DLL_EXPORT int __tvm_ffi_{self.name}(void* self, const TVMFFIAny* args, "
            "int32_t num_args, TVMFFIAny* result) {"
        )
        return "\n".join([header, *b.lines, "}"])

    def _param_label(self, param) -> str:
        buf = self.func.buffer_map.get(param)
        return buf.name if buf is not None else param.name

    def _scalar_param(self, index, var) -> None:
        b, name = self.body, self.names.get(var)
        arg = f"args[{index}]"
        if var.dtype.is_float:
            b.emit(f"if ({arg}.type_index != kTVMFFIFloat && {arg}.type_index != kTVMFFIInt) {{", 1)
            self._fail_type(f"argument {index} ({var.name}) must be a float", arg)
            b.emit("}", 1)
            b.emit(
                f"{c_scalar_type(var.dtype)} {name} = "
                f"({c_scalar_type(var.dtype)})({arg}.type_index "
                f"== kTVMFFIFloat ? {arg}.v_float64 : (double){arg}.v_int64);",
                1,
            )
        elif var.dtype.is_integer or var.dtype.is_bool:
            b.emit(f"if ({arg}.type_index != kTVMFFIInt && {arg}.type_index != kTVMFFIBool) {{", 1)
            self._fail_type(f"argument {index} ({var.name}) must be an int", arg)
            b.emit("}", 1)
            low, high = _int_range(var.dtype)
            if low is not None:
                b.emit(f"if ({arg}.v_int64 < {low}LL || {arg}.v_int64 > {high}LL) {{", 1)
                self._fail(
                    "ValueError",
                    f"argument {index} ({var.name}) = %lld does not fit in {var.dtype}",
                    f"(long long){arg}.v_int64",
                    depth=2,
                )
                b.emit("}", 1)
            if id(var) in self.bound_vars:  # also a buffer's extent: the two must agree
                b.emit(f"if ((int64_t){arg}.v_int64 != (int64_t){name}) {{", 1)
                self._fail(
                    "ValueError",
                    f"argument {index} ({var.name}) = %lld disagrees with "
                    f"{self.bound_vars[id(var)]} = %lld",
                    f"(long long){arg}.v_int64, (long long){name}",
                    depth=2,
                )
                b.emit("}", 1)
                return
            self.bound_vars[id(var)] = f"argument {index}"
            b.emit(
                f"{c_scalar_type(var.dtype)} {name} = ({c_scalar_type(var.dtype)}){arg}.v_int64;", 1
            )
        else:
            raise CodegenError(f"codegen c: parameter {var.name} has unsupported dtype {var.dtype}")

    def _tensor_param(self, index, param, buf):
        b = self.body
        label = f"argument {index} ({buf.name})"
        dl = self.names.get(param, f"{buf.name}_dl")
        b.emit(f"DLTensor* {dl} = tvm_arg_tensor(&args[{index}]);", 1)
        b.emit(f"if ({dl} == NULL) {{", 1)
        self._fail_type(f"{label} must be a tensor", f"args[{index}]")
        b.emit("}", 1)
        ndim = len(buf.shape)
        b.emit(f"if ({dl}->ndim != {ndim}) {{", 1)
        self._fail(
            "ValueError",
            f"{label} must have {ndim} dimensions, got %d",
            f"(int){dl}->ndim",
            depth=2,
        )
        b.emit("}", 1)
        code, bits, lanes = dl_dtype_check(buf.dtype)
        b.emit(
            f"if ({dl}->dtype.code != {code} || {dl}->dtype.bits != {bits} || "
            f"{dl}->dtype.lanes != {lanes}) {{",
            1,
        )
        b.emit("char dtype_text[32];", 2)
        self._fail(
            "ValueError",
            f"{label} must have dtype {buf.dtype}, got %s",
            f"tvm_dtype_name({dl}->dtype, dtype_text, sizeof(dtype_text))",
            depth=2,
        )
        b.emit("}", 1)
        b.emit(f"if ({dl}->device.device_type != kDLCPU) {{", 1)
        self._fail(
            "ValueError",
            f"{label} must be on the CPU, got device type %d",
            f"(int){dl}->device.device_type",
            depth=2,
        )
        b.emit("}", 1)
        data = self.names.get(buf.data)
        elem = c_type(buf.dtype)
        b.emit(
            f"{elem}* __restrict__ {data} = ({elem}*)((char*){dl}->data + {dl}->byte_offset);", 1
        )
        b.emit(f"if (((uintptr_t){data}) % {buf.data_alignment} != 0) {{", 1)
        self._fail(
            "ValueError", f"{label} data must be aligned to {buf.data_alignment} bytes", depth=2
        )
        b.emit("}", 1)
        # Bind symbolic dimensions on first sight; the checks that use them run after all binds.
        for axis, extent in enumerate(buf.shape):
            if isinstance(extent, E.Var) and id(extent) not in self.bound_vars:
                name = self.names.get(extent)
                self.bound_vars[id(extent)] = f"{buf.name}.shape[{axis}]"
                b.emit(f"int64_t {name} = {dl}->shape[{axis}];", 1)
                b.bounds.var_bounds[extent] = _NONNEG

        def check():
            strides = buf.elem_strides()
            for axis, extent in enumerate(buf.shape):
                got = f"{dl}->shape[{axis}]"
                b.emit(f"if ({got} != {b.expr(extent)}) {{", 1)
                if isinstance(extent, E.IntImm):
                    self._fail(
                        "ValueError",
                        f"{label} has shape[{axis}] == %lld, expected {extent.value}",
                        f"(long long){got}",
                        depth=2,
                    )
                else:
                    self._fail(
                        "ValueError",
                        f"{label} has shape[{axis}] == %lld, expected {_describe(extent)} == %lld",
                        f"(long long){got}",
                        f"(long long)({b.expr(extent)})",
                        depth=2,
                    )
                b.emit("}", 1)
            stride_checks = " || ".join(
                f"({dl}->shape[{axis}] != 1 && {dl}->strides[{axis}] != {b.expr(stride)})"
                for axis, stride in enumerate(strides)
            )
            if stride_checks:
                # An empty tensor has nothing to lay out (NumPy gives it strides of 0).
                empty = " || ".join(f"{dl}->shape[{axis}] == 0" for axis in range(len(strides)))
                b.emit(f"if ({dl}->strides != NULL && !({empty}) && ({stride_checks})) {{", 1)
                self._fail("ValueError", f"{label} must be compact (row-major, no gaps)", depth=2)
                b.emit("}", 1)

        return check


def _describe(extent) -> str:
    return str(extent).replace('"', "'").replace("%", "%%")


_NONNEG = ConstIntBound(0, float("inf"))


def generate_function(func: PrimFunc, name: str) -> tuple[str, BodyWriter]:
    """(C text of the entry, the body writer: OpenMP use, extern functions, vector types)."""
    writer = EntryWriter(func, name)
    text = writer.write()
    return text, writer.body
