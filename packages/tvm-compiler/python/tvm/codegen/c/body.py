"""C text of lowered TIR statements and expressions (flattened buffers, no blocks)."""

from __future__ import annotations

import keyword
import re

from tvm.arith.bound import BoundAnalyzer, ConstIntBound
from tvm.ir.functor import find_method
from tvm.ir.structural import structural_equal
from tvm.tir import expr as E
from tvm.tir import stmt as S
from tvm.tir.op import BITWISE_C, C_NAME_ATTR

from .accumulate import loop_accumulator
from .c_types import (
    c_float_literal,
    c_int_literal,
    c_scalar_type,
    c_string_literal,
    c_type,
    c_vector_type,
    dl_dtype_check,
    load_value,
    narrow_float,
    round_to,
    store_value,
    wrap_sub_byte,
)
from .cpu_spare import TEAM_THREAD
from .int_division import guarded_division, needs_guard
from .streaming import contains_stream_store
from .vector_math import SIMD_FLOAT32

_C_RESERVED = {
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "self",
    "args",
    "num_args",
    "result",
    "main",
    "NAN",
    "INFINITY",
}
_BINARY_C = {
    E.Add: "+",
    E.Sub: "-",
    E.Mul: "*",
    E.EQ: "==",
    E.NE: "!=",
    E.LT: "<",
    E.LE: "<=",
    E.GT: ">",
    E.GE: ">=",
    E.And: "&&",
    E.Or: "||",
}


_NON_FAULTING = (
    E.Var,
    E.IntImm,
    E.FloatImm,
    E.Add,
    E.Sub,
    E.Mul,
    E.Min,
    E.Max,
    E.EQ,
    E.NE,
    E.LT,
    E.LE,
    E.GT,
    E.GE,
    E.And,
    E.Or,
    E.Not,
    E.Cast,
)


def _cannot_fault(e) -> bool:
    """Whether evaluating e can neither fault nor have an effect: arithmetic without division
    on variables and constants, comparisons and logic."""
    from tvm.tir.functor import post_order_visit

    found = []
    post_order_visit(e, lambda n: found.append(n) if not isinstance(n, _NON_FAULTING) else None)
    return not found


class CodegenError(RuntimeError):
    """The program uses something the C code generator cannot express."""


class Names:
    """C identifiers for variables: sanitised, unique, never a C keyword or a reserved name."""

    def __init__(self):
        self.by_id: dict[int, str] = {}
        self.used: set[str] = set(_C_RESERVED)

    def get(self, var, hint: str | None = None) -> str:
        name = self.by_id.get(id(var))
        if name is None:
            base = re.sub(r"\W", "_", hint or var.name) or "v"
            if base[0].isdigit() or keyword.iskeyword(base) or base.startswith("tvm_"):
                base = "v_" + base
            name, n = base, 1
            while name in self.used:
                name = f"{base}_{n}"
                n += 1
            self.used.add(name)
            self.by_id[id(var)] = name
        return name


class BodyWriter:
    """Appends C lines for a function body; raise_error(msg) gives the C of raising msg."""

    def __init__(self, names: Names, func_name: str, ret_type):
        self.names = names
        self.func_name = func_name
        self.ret_type = ret_type
        self.lines: list[str] = []
        self.bounds = BoundAnalyzer({})
        self.in_parallel = 0
        self.uses_openmp = False
        self.externs: dict[str, str] = {}
        self.vector_typedefs: dict[str, str] = {}
        self.uses_packed = False
        # Data vars whose vector stores stream past the cache (streaming.streamed_buffers).
        self.streamed: set = set()
        self.uses_stream = False
        self.uses_cpu_spare = False
        self.in_simd = 0  # depth of vectorised (omp simd) loops around what is written
        self.uses_vector_math = False
        # (data var, index, C local) of the elements serial loops keep in locals (accumulate.py)
        self.accumulators: list | None = []
        self.accumulator_vars: list = []
        self._fresh = 0

    def ctype(self, dtype) -> str:
        """The C type of a value of dtype; a vector dtype's typedef is recorded for the prelude."""
        if dtype.lanes == 1:
            return c_type(dtype)
        try:
            name, typedef = c_vector_type(dtype)
        except NotImplementedError as err:
            raise CodegenError(str(err)) from None
        self.vector_typedefs[name] = typedef
        return name

    # -- expressions ----------------------------------------------------------------------
    def expr(self, e) -> str:
        method = find_method(type(self), type(e), "_e_", "tir")
        if method is not None:
            return method(self, e)
        if type(e) in _BINARY_C:
            return self._binary(e, _BINARY_C[type(e)])
        raise CodegenError(f"codegen c: cannot generate C for expression {type(e).__name__}: {e!r}")

    def _binary(self, e, operator: str) -> str:
        a, b = self._operand(e.a, e.b), self._operand(e.b, e.a)
        text = f"({a} {operator} {b})"
        if e.dtype.lanes == 1 and e.dtype.is_integer and e.dtype.bits < 32:
            # C computes int8/int16 arithmetic in int; TIR's value wraps to the dtype.
            return wrap_sub_byte(e.dtype, text) or f"(({c_type(e.dtype)}){text})"
        return round_to(e.dtype, text)

    def _e_Var(self, e):
        return self.names.get(e)

    def _e_IntImm(self, e):
        return c_int_literal(e.value)

    def _e_FloatImm(self, e):
        return c_float_literal(e.value, e.dtype)

    def _e_StringImm(self, e):
        return c_string_literal(e.value)

    def _e_Cast(self, e):
        if e.dtype.lanes != 1:
            return f"__builtin_convertvector({self.expr(e.value)}, {self.ctype(e.dtype)})"
        if narrow_float(e.dtype):
            if e.dtype.type_code == "float":  # one rounding from any source, doubles included
                return f"((_Float16)({self.expr(e.value)}))"
            return round_to(e.dtype, f"(float)({self.expr(e.value)})")
        if e.dtype.is_bool:  # nonzero (NaN included) is true, as C's _Bool and NumPy have it
            return f"((int64_t)(({self.expr(e.value)}) != 0))"
        cast = f"(({c_scalar_type(e.dtype)})({self.expr(e.value)}))"
        wrapped = wrap_sub_byte(e.dtype, f"(int64_t){cast}" if e.value.dtype.is_float else cast)
        return f"(({c_scalar_type(e.dtype)}){wrapped})" if wrapped else cast

    def _operand(self, e, other) -> str:
        # GCC and Clang widen a scalar operand of a vector operation to every lane; written so,
        # a broadcast load stays one instruction (a load-and-broadcast) instead of two.
        if isinstance(e, E.Broadcast) and e.dtype.is_float and not isinstance(other, E.Broadcast):
            return self.expr(e.value)
        return self.expr(e)

    def _e_Broadcast(self, e):
        element = c_type(e.dtype.element_of())
        return f"(({self.ctype(e.dtype)}){{}} + ({element})({self.expr(e.value)}))"

    def _e_Ramp(self, e):
        steps = ", ".join(str(i) for i in range(e.lanes))
        vtype, element = self.ctype(e.dtype), c_type(e.dtype.element_of())
        # Scalars mix with a vector only when their C type is no wider than its elements (index
        # variables are int64_t in C), so base and stride are cast like a Broadcast's value.
        return (
            f"(({vtype}){{{steps}}} * ({element})({self.expr(e.stride)}) + "
            f"({element})({self.expr(e.base)}))"
        )

    def _vector_access(self, buffer, index, dtype) -> str | None:
        """The C lvalue of a contiguous vector access (index a Ramp) to buffer, else None."""
        if not isinstance(index, E.Ramp):
            if index.dtype.lanes != 1:
                raise CodegenError(
                    f"codegen c: vector index into {buffer.name!r} must be a "
                    f"Ramp, got {type(index).__name__}"
                )
            return None
        if not (isinstance(index.stride, E.IntImm) and index.stride.value == 1):
            raise CodegenError(f"codegen c: strided vector access to {buffer.name!r}")
        address = f"&{self.names.get(buffer.data)}[{self.expr(index.base)}]"
        return f"(*({self.ctype(dtype)}_mem*)({address}))"

    def _nonneg(self, *exprs) -> bool:
        return all(self.bounds.bound(x).min_value >= 0 for x in exprs)

    def _e_FloorDiv(self, e):
        if e.dtype.is_float:
            suffix = "" if e.dtype.bits == 64 else "f"
            return round_to(e.dtype, f"floor{suffix}({self.expr(e.a)} / {self.expr(e.b)})")
        return self._integer_division(e, "/", floor=True)

    def _e_FloorMod(self, e):
        if e.dtype.is_float:
            raise CodegenError("codegen c: floating-point floormod is not supported")
        return self._integer_division(e, "%", floor=True)

    def _e_Div(self, e):
        if e.dtype.is_float:
            return self._binary(e, "/")
        return self._integer_division(e, "/", floor=False)

    def _e_Mod(self, e):
        if e.dtype.is_float:
            raise CodegenError("codegen c: floating-point truncmod is not supported")
        return self._integer_division(e, "%", floor=False)

    def _integer_division(self, e, operator: str, floor: bool) -> str:
        # floor and trunc agree on a nonnegative dividend and a positive divisor
        truncating = not floor or self._nonneg(e.a)
        if truncating and self.bounds.bound(e.b).min_value > 0:
            return self._binary(e, operator)
        if not needs_guard(self, e) and not floor:
            return self._binary(e, operator)
        if not truncating and e.dtype.lanes != 1:
            raise CodegenError(f"codegen c: vector floor division or remainder of {e.dtype}")
        return guarded_division(self, e, self.expr(e.a), self.expr(e.b), truncating)

    def fresh_index(self) -> int:
        """A number not used before in this function, for the names of C temporaries."""
        self._fresh += 1
        return self._fresh

    def _e_Min(self, e):
        a, b = self.expr(e.a), self.expr(e.b)
        return f"(({a}) < ({b}) ? ({a}) : ({b}))"

    def _e_Max(self, e):
        a, b = self.expr(e.a), self.expr(e.b)
        return f"(({a}) > ({b}) ? ({a}) : ({b}))"

    def _e_And(self, e):
        return self._logical(e, "&&", "&")

    def _e_Or(self, e):
        return self._logical(e, "||", "|")

    def _logical(self, e, short_circuit, bitwise):
        # Both sides are evaluated in TIR; C's && and || branch, and a branch in a loop body
        # keeps the C compiler from vectorising it (a conditional load under a padding test
        # ran scalar). When neither side can fault (no load, call or division), the bitwise
        # operator on the 0/1 comparison results is the same value without the branch.
        a, b = self._operand(e.a, e.b), self._operand(e.b, e.a)
        pure = e.dtype.lanes == 1 and _cannot_fault(e.a) and _cannot_fault(e.b)
        return f"({a} {bitwise if pure else short_circuit} {b})"

    def _e_Not(self, e):
        return f"(!{self.expr(e.a)})"

    def _e_Select(self, e):
        return (
            f"({self.expr(e.condition)} ? {self.expr(e.true_value)} : {self.expr(e.false_value)})"
        )

    def _e_Let(self, e):
        name = self.names.get(e.var)
        return (
            f"({{ {c_scalar_type(e.var.dtype)} {name} = {self.expr(e.value)}; "
            f"{self.expr(e.body)}; }})"
        )

    def _e_BufferLoad(self, e):
        if len(e.indices) != 1:
            raise CodegenError(f"codegen c: load of {e.buffer.name!r} is not flattened")
        held = self._accumulator(e.buffer, e.indices) if self.accumulators else None
        if held is not None:
            return held
        vector = self._vector_access(e.buffer, e.indices[0], e.dtype)
        if vector is not None:
            return vector
        return load_value(e.dtype, f"{self.names.get(e.buffer.data)}[{self.expr(e.indices[0])}]")

    def _e_Call(self, e):
        name = e.op.name
        if name == "tir.rsqrt":  # libm has none: 1 / sqrt(x), upstream's default legalisation
            return self.expr(_rsqrt_expansion(e))
        args = [self.expr(a) for a in e.args]
        c_name = e.op.get_attr(C_NAME_ATTR)
        if c_name is not None:
            if not e.dtype.is_float:
                raise CodegenError(f"codegen c: {name} needs a float argument, got {e.dtype}")
            simd = SIMD_FLOAT32.get(name) if self.in_simd and e.dtype == "float32" else None
            if simd is not None:  # vectorisable where libm's function is not
                self.uses_vector_math = True
                return f"{simd}({', '.join(args)})"
            if narrow_float(e.dtype):  # the float function, rounded back (as NumPy does)
                call = f"{c_name}f({', '.join(f'(float)({a})' for a in args)})"
                return round_to(e.dtype, call)
            return f"{c_name}{'f' if e.dtype.bits == 32 else ''}({', '.join(args)})"
        if name in ("tir.call_extern", "tir.call_pure_extern"):
            callee = e.args[0].value
            # A prototype from the call's argument types: unprototyped, C would pass a float
            # argument as a double.
            params = [c_type(a.dtype) if a.dtype.lanes == 1 else "?" for a in e.args[1:]]
            if "?" in params:
                raise CodegenError(f"codegen c: call_extern {callee!r} takes a vector argument")
            if callee in (S.CPU_SPARE, S.SPARE_THREADS):  # defined in the module (cpu_spare.py)
                self.uses_cpu_spare = True
                return f"{callee}()"
            self.externs[callee] = (c_type(e.dtype) if not e.dtype.is_handle else "void*", params)
            return f"{callee}({', '.join(args[1:])})"
        if name == "tir.if_then_else":
            return f"({args[0]} ? {args[1]} : {args[2]})"
        if name == "tir.reinterpret":
            return self._reinterpret(e.args[0].dtype, e.dtype, args[0])
        if name == "tir.tvm_stack_make_shape":
            return f"((int64_t[]){{{', '.join(args) or '0'}}})"
        if name == "tir.tvm_stack_make_array":
            return self._dl_tensor(e)
        if name == "tir.tvm_call_packed":
            raise CodegenError("codegen c: tir.call_packed must be a statement of its own")
        c_op = BITWISE_C.get(name[len("tir.") :]) if name.startswith("tir.") else None
        if c_op is not None:
            return f"({c_op}{args[0]})" if len(args) == 1 else f"({args[0]} {c_op} {args[1]})"
        if name == "tir.prefetch":
            load = e.args[0]
            if not isinstance(load, E.BufferLoad) or len(load.indices) != 1:
                raise CodegenError("codegen c: tir.prefetch takes one flattened buffer load")
            return f"__builtin_prefetch(&{self.expr(load)})"
        if name == "tir.likely":
            return f"__builtin_expect(!!({args[0]}), 1)"
        if name == "tir.ret":
            raise CodegenError("codegen c: T.ret(...) must be a statement of its own")
        raise CodegenError(f"codegen c: no C lowering for op {name!r}")

    def _reinterpret(self, src, dst, value: str) -> str:
        """The bits of value (of dtype src) as dst: each in its storage form (a bfloat16 or a
        float8 computed as float is first encoded to its bits), copied with memcpy."""
        if src.lanes != 1 or dst.lanes != 1:
            raise CodegenError(f"codegen c: reinterpret of vector dtype {src} to {dst}")
        bits = f"(({c_type(src)}){store_value(src, value)})"
        copied = (
            f"({{ {c_type(src)} tvm_rs = {bits}; {c_type(dst)} tvm_rd; "
            f"memcpy(&tvm_rd, &tvm_rs, sizeof tvm_rd); tvm_rd; }})"
        )
        return load_value(dst, copied)

    def _dl_tensor(self, e) -> str:
        """A DLTensor* (a compound literal living to the end of the block) over a buffer."""
        data, shape, _, ndim, like, offset = e.args
        code, bits, lanes = dl_dtype_check(like.dtype)
        return (
            f"(&(DLTensor){{.data = (void*)({self.expr(data)}), .device = {{kDLCPU, 0}}, "
            f".ndim = {self.expr(ndim)}, .dtype = {{{code}, {bits}, {lanes}}}, "
            f".shape = {self.expr(shape)}, .strides = NULL, "
            f".byte_offset = (uint64_t)({self.expr(offset)}) * {like.dtype.bytes}}})"
        )

    def _call_packed(self, call, depth):
        """Look the global function up once, call it with the arguments, propagate errors."""
        if self.in_parallel:
            raise CodegenError("codegen c: tir.call_packed inside a parallel loop is not supported")
        name = call.args[0].value
        self.uses_packed = True
        self.emit("{", depth)
        inner = depth + 1
        self.emit("static TVMFFIObjectHandle fn = NULL;", inner)
        self.emit("if (fn == NULL) {", inner)
        self.emit(
            f"TVMFFIByteArray fn_name = {{{c_string_literal(name)}, {len(name.encode())}}};",
            inner + 1,
        )
        self.emit("if (TVMFFIFunctionGetGlobal(&fn_name, &fn) != 0) return -1;", inner + 1)
        self.emit("if (fn == NULL) {", inner + 1)
        self.emit(
            f'return tvm_raise("RuntimeError", "{self.func_name}: call_packed: no global '
            f'function %s is registered", {c_string_literal(name)});',
            inner + 2,
        )
        self.emit("}", inner + 1)
        self.emit("}", inner)
        values = call.args[1:]
        self.emit(f"TVMFFIAny call_args[{max(1, len(values))}];", inner)
        for k, v in enumerate(values):
            slot = f"call_args[{k}]"
            self.emit(f"{slot}.zero_padding = 0;", inner)
            if v.dtype.is_handle:
                kind = "kTVMFFIDLTensorPtr" if isinstance(v, E.Call) else "kTVMFFIOpaquePtr"
                self.emit(f"{slot}.type_index = {kind}; {slot}.v_ptr = {self.expr(v)};", inner)
            elif v.dtype.is_float:
                self.emit(
                    f"{slot}.type_index = kTVMFFIFloat; {slot}.v_float64 = {self.expr(v)};", inner
                )
            elif isinstance(v, E.StringImm):
                self.emit(
                    f"{slot}.type_index = kTVMFFIRawStr; {slot}.v_c_str = {self.expr(v)};", inner
                )
            else:
                kind = "kTVMFFIBool" if v.dtype.is_bool else "kTVMFFIInt"
                self.emit(f"{slot}.type_index = {kind}; {slot}.v_int64 = {self.expr(v)};", inner)
        self.emit("TVMFFIAny call_result;", inner)
        self.emit("call_result.type_index = kTVMFFINone; call_result.v_int64 = 0;", inner)
        self.emit(
            f"if (TVMFFIFunctionCall(fn, call_args, {len(values)}, &call_result) != 0) {{", inner
        )
        self.emit("return -1;", inner + 1)
        self.emit("}", inner)
        self.emit(
            "if (call_result.type_index >= kTVMFFIStaticObjectBegin) "
            "TVMFFIObjectDecRef(call_result.v_obj);",
            inner,
        )
        self.emit("}", depth)

    # -- statements -----------------------------------------------------------------------
    def emit(self, line: str, depth: int) -> None:
        self.lines.append("  " * depth + line)

    def stmt(self, s, depth: int) -> None:
        method = find_method(type(self), type(s), "_s_", "tir")
        if method is None:
            raise CodegenError(
                f"codegen c: cannot generate C for {type(s).__name__}; run the lowering passes "
                "first"
            )
        method(self, s, depth)

    def _s_SeqStmt(self, s, depth):
        for item in s.seq:
            self.stmt(item, depth)

    def _s_BufferStore(self, s, depth):
        if len(s.indices) != 1:
            raise CodegenError(f"codegen c: store to {s.buffer.name!r} is not flattened")
        held = self._accumulator(s.buffer, s.indices) if self.accumulators else None
        if held is not None:
            self.emit(f"{held} = {self.expr(s.value)};", depth)
            return
        target = self._vector_access(s.buffer, s.indices[0], s.value.dtype)
        value = self.expr(s.value)
        if target is not None and s.buffer.data in self.streamed:
            address = f"&{self.names.get(s.buffer.data)}[{self.expr(s.indices[0].base)}]"
            vtype = self.ctype(s.value.dtype)
            stream = f"tvm_stream_store({address}, &tvm_v, sizeof tvm_v);"
            self.emit(f"{{ {vtype} tvm_v = {value}; {stream} }}", depth)
            self.uses_stream = True
            return
        if target is None:
            target = f"{self.names.get(s.buffer.data)}[{self.expr(s.indices[0])}]"
            value = store_value(s.buffer.dtype, value)
        self.emit(f"{target} = {value};", depth)

    def _s_For(self, s, depth):
        found = loop_accumulator(s) if self.accumulators is not None else None
        if found is not None and any(found[0].data is data for data, _, _ in self.accumulators):
            found = None  # an enclosing loop already holds it
        if found is None:
            self._for(s, depth)
            return
        buffer, index = found
        local = E.Var("acc", buffer.dtype)
        self.accumulator_vars.append(local)  # Names keys by id(): the var must outlive it
        name = self.names.get(local, f"{buffer.name}_acc")
        element = f"{self.names.get(buffer.data)}[{self.expr(index)}]"
        self.emit("{", depth)
        self.emit(f"{c_type(buffer.dtype)} {name} = {element};", depth + 1)
        self.accumulators.append((buffer.data, index, name))
        self._for(s, depth + 1)
        self.accumulators.pop()
        self.emit(f"{element} = {name};", depth + 1)
        self.emit("}", depth)

    def _accumulator(self, buffer, indices) -> str | None:
        for data, index, name in self.accumulators or ():
            if buffer.data is data and structural_equal(indices[0], index):
                return name
        return None

    def _for(self, s, depth):
        if s.kind == S.ForKind.THREAD_BINDING:
            raise CodegenError(
                f"codegen c: loop {s.loop_var.name!r} is bound to GPU thread axis "
                f"{s.thread_binding!r} (Schedule.bind); the C target runs on the CPU, which has "
                "no thread axes: build for a GPU target or leave the loop unbound"
            )
        var = self.names.get(s.loop_var)
        lo, ext = self.expr(s.min), self.expr(s.extent)
        end = ext if isinstance(s.min, E.IntImm) and s.min.value == 0 else f"{lo} + {ext}"
        kind = s.kind
        region = fenced = False
        if kind == S.ForKind.PARALLEL and not self.in_parallel:
            region = True
            fenced = bool(self.streamed) and contains_stream_store(s.body, self.streamed)
            condition = s.annotations.get(S.PARALLEL_IF) if s.annotations else None
            clause = "" if condition is None else f" if({self.expr(condition)})"
            clause += f" num_threads({S.SPARE_THREADS}())"
            self.uses_cpu_spare = True
            # Each thread of the team makes itself known to the spare-thread count (its CPU
            # time is the module's own, not contention), and fences its streaming stores
            # before the region's closing barrier.
            self.emit(f"#pragma omp parallel{clause}", depth)
            self.emit("{", depth)
            self.emit(f"{TEAM_THREAD}();", depth)
            self.emit("#pragma omp for schedule(static) nowait", depth)
            self.uses_openmp = True
        elif kind == S.ForKind.VECTORIZED:
            self.emit("#pragma omp simd", depth)
        elif kind == S.ForKind.UNROLLED:
            self.emit("#pragma GCC unroll 16", depth)
        self.emit(f"for (int64_t {var} = {lo}; {var} < {end}; ++{var}) {{", depth)
        lo_b, ext_b = self.bounds.bound(s.min), self.bounds.bound(s.extent)
        self.bounds.var_bounds[s.loop_var] = ConstIntBound(
            lo_b.min_value, lo_b.max_value + ext_b.max_value - 1
        )
        self.in_parallel += kind == S.ForKind.PARALLEL
        self.in_simd += kind == S.ForKind.VECTORIZED
        self.stmt(s.body, depth + 1)
        self.in_simd -= kind == S.ForKind.VECTORIZED
        self.in_parallel -= kind == S.ForKind.PARALLEL
        self.bounds.var_bounds.pop(s.loop_var, None)
        self.emit("}", depth)
        if fenced:
            self.emit("tvm_stream_fence();", depth)
        if region:
            self.emit("}", depth)

    def _s_IfThenElse(self, s, depth):
        self.emit(f"if ({self.expr(s.condition)}) {{", depth)
        self.stmt(s.then_case, depth + 1)
        if s.else_case is not None:
            self.emit("} else {", depth)
            self.stmt(s.else_case, depth + 1)
        self.emit("}", depth)

    def _s_While(self, s, depth):
        self.emit(f"while ({self.expr(s.condition)}) {{", depth)
        self.stmt(s.body, depth + 1)
        self.emit("}", depth)

    def _s_LetStmt(self, s, depth):
        self.emit("{", depth)
        self.emit(
            f"{c_scalar_type(s.var.dtype)} {self.names.get(s.var)} = {self.expr(s.value)};",
            depth + 1,
        )
        self.bounds.var_bounds[s.var] = self.bounds.bound(s.value)
        self.stmt(s.body, depth + 1)
        self.emit("}", depth)

    def _s_Allocate(self, s, depth):
        name = self.names.get(s.buffer_var)
        elem = self.ctype(s.dtype)
        count = None
        if all(isinstance(x, E.IntImm) for x in s.extents):
            count = 1
            for x in s.extents:
                count *= x.value
        self.emit("{", depth)
        if count is not None and count * s.dtype.bytes <= 64 * 1024:
            self.emit(f"{elem} {name}[{max(count, 1)}] __attribute__((aligned(64)));", depth + 1)
            self.stmt(s.body, depth + 1)
        else:
            size = " * ".join(f"(size_t)({self.expr(x)})" for x in s.extents) or "1"
            self.emit(f"{elem}* {name} = ({elem}*)tvm_alloc({size} * sizeof({elem}));", depth + 1)
            if self.in_parallel:
                # No error can travel out of a parallel region: stop with a message instead.
                self.emit(f'if ({name} == NULL) tvm_abort_oom("{self.func_name}");', depth + 1)
            else:
                self.emit(
                    f'if ({name} == NULL) return tvm_raise("MemoryError", '
                    f'"{self.func_name}: out of memory allocating {name}");',
                    depth + 1,
                )
            self.stmt(s.body, depth + 1)
            self.emit(f"free({name});", depth + 1)
        self.emit("}", depth)

    def _s_AllocateConst(self, s, depth):
        name = self.names.get(s.buffer_var)
        if not (s.dtype.is_int or s.dtype.is_uint or s.dtype.type_code == "float"):
            raise CodegenError(f"codegen c: constant data of dtype {s.dtype} is not supported")
        values = s.data.numpy().reshape(-1).tolist()
        if s.dtype.is_float:
            items = [c_float_literal(v, s.dtype) for v in values]
        elif s.dtype.is_uint:
            items = [f"{v}ULL" if v >= 2**31 else str(v) for v in values]
        else:
            items = [c_int_literal(v) for v in values]
        self.emit("{", depth)
        self.emit(
            f"static const {self.ctype(s.dtype)} {name}[{max(len(items), 1)}] "
            f"__attribute__((aligned(64))) = {{{', '.join(items) or '0'}}};",
            depth + 1,
        )
        self.stmt(s.body, depth + 1)
        self.emit("}", depth)

    def _s_DeclBuffer(self, s, depth):
        self.stmt(s.body, depth)

    def _s_AssertStmt(self, s, depth):
        if self.in_parallel:
            raise CodegenError("codegen c: an assertion inside a parallel loop is not supported")
        self.emit(f"if (!({self.expr(s.condition)})) {{", depth)
        self.emit(
            f'return tvm_raise("ValueError", "%s", {c_string_literal(s.message)});', depth + 1
        )
        self.emit("}", depth)
        self.stmt(s.body, depth)

    def _s_Evaluate(self, s, depth):
        value = s.value
        if isinstance(value, (E.IntImm, E.FloatImm)):
            return
        if isinstance(value, E.Call) and value.op.name == "tir.ret":
            self._return_value(value.args[0], depth)
            return
        if isinstance(value, E.Call) and value.op.name == "tir.tvm_call_packed":
            self._call_packed(value, depth)
            return
        self.emit(f"(void)({self.expr(value)});", depth)

    def _return_value(self, value, depth):
        if self.in_parallel:
            raise CodegenError("codegen c: T.ret inside a parallel loop is not supported")
        if value.dtype.is_float:
            kind, field, cast = "kTVMFFIFloat", "v_float64", "double"
        elif value.dtype.is_bool:
            kind, field, cast = "kTVMFFIBool", "v_int64", "int64_t"
        else:
            kind, field, cast = "kTVMFFIInt", "v_int64", "int64_t"
        self.emit("result->zero_padding = 0;", depth)
        self.emit(f"result->{field} = ({cast})({self.expr(value)});", depth)
        self.emit(f"result->type_index = {kind};", depth)
        self.emit("return 0;", depth)


def _rsqrt_expansion(call):
    """tir.rsqrt(x) as 1 / tir.sqrt(x), in x's dtype (a vector one broadcasts the 1)."""
    dtype = call.dtype
    one = E.const(1.0, dtype.with_lanes(1) if dtype.lanes > 1 else dtype)
    if dtype.lanes > 1:
        one = E.Broadcast(one, dtype.lanes)
    return E.Div(one, E.Call(dtype, "tir.sqrt", [call.args[0]]))
