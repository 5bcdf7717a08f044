"""BlockBuilder: build Relax functions binding by binding (function and dataflow scopes, emit,
match_cast, emit_te/call_te), normalising as it goes; get() returns the IRModule."""

from __future__ import annotations

import threading

from tvm.ir.expr import RelaxExpr
from tvm.ir.module import BaseFunc, GlobalVar, IRModule
from tvm.ir.structural import structural_equal, structural_hash

from .analysis.struct_info_analysis import erase_to_well_defined, tir_vars_in
from .expr import (
    BindingBlock,
    DataflowBlock,
    DataflowVar,
    Function,
    MatchCast,
    PrimValue,
    SeqExpr,
    ShapeExpr,
    Tuple,
    Var,
    VarBinding,
    _sinfo_of,
)
from .normalizer import Normalizer, function_defined_tir_vars, is_leaf
from .struct_info import PrimStructInfo, ShapeStructInfo, StructInfo, TensorStructInfo

_STATE = threading.local()


def _stack() -> list:
    if not hasattr(_STATE, "stack"):
        _STATE.stack = []
    return _STATE.stack


def _python_tuples_as_relax(value):
    """A (nested) Python tuple or list of relax Exprs as a (nested) relax Tuple, as upstream's
    BlockBuilder accepts them wherever it takes an Expr."""
    if isinstance(value, (list, tuple)):
        return Tuple([_python_tuples_as_relax(v) for v in value])
    return value


class _Frame:
    """A binding block being built."""

    def __init__(self, is_dataflow: bool):
        self.is_dataflow = is_dataflow
        self.bindings: list = []

    def append(self, binding):
        self.bindings.append(binding)

    def to_block(self):
        cls = DataflowBlock if self.is_dataflow else BindingBlock
        return cls(self.bindings)


class FunctionScope:
    """`with bb.function(name, params):` ... `bb.emit_func_output(out)`."""

    def __init__(self, builder, name, params, attrs, is_pure, private):
        self._bb = builder
        self._name = name
        self._params = params
        self._attrs = attrs
        self._is_pure = is_pure
        self._private = private

    def __enter__(self):
        bb = self._bb
        if bb._func is not None:
            raise RuntimeError(
                f"BlockBuilder.function: cannot open function {self._name!r} inside function "
                f"{bb._func._name!r}; build it separately and call it through its GlobalVar"
            )
        bb._func = self
        bb._func_done = False
        bb._blocks = []
        bb._frame = _Frame(False)
        _stack().append(bb)
        return self

    def __exit__(self, exc_type, exc, tb):
        bb = self._bb
        _stack().remove(bb)
        done = bb._func_done
        bb._func, bb._frame, bb._blocks = None, None, []
        if exc_type is None and not done:
            raise RuntimeError(
                f"BlockBuilder.function: function {self._name!r} ended without "
                "emit_func_output(...)"
            )
        return False


class DataflowScope:
    """`with bb.dataflow():` a DataflowBlock; emit_output makes its results visible after."""

    def __init__(self, builder):
        self._bb = builder

    def __enter__(self):
        bb = self._bb
        if bb._frame is not None and bb._frame.is_dataflow:
            raise RuntimeError("BlockBuilder.dataflow: dataflow blocks cannot nest")
        bb._end_frame()
        bb._begin_frame(True)
        return self

    def __exit__(self, exc_type, exc, tb):
        bb = self._bb
        if exc_type is None:
            bb._end_frame()
            bb._begin_frame(False)
        return False


class BlockBuilder(Normalizer):
    """Builds Relax functions into an IRModule (tvm.relax.BlockBuilder)."""

    def __init__(self, mod: IRModule | None = None):
        if mod is not None and not isinstance(mod, IRModule):
            raise TypeError(f"BlockBuilder: mod must be an IRModule, got {type(mod).__name__}")
        self._funcs: dict = dict(mod.functions) if mod is not None else {}
        self._mod_attrs: dict = dict(mod.attrs) if mod is not None else {}
        self._global_infos = dict(mod.global_infos) if mod is not None else {}
        self._used_names: set = {gv.name_hint for gv in self._funcs}
        self._var_names: dict = {}
        self._func_hashes: dict = {}
        self._bindings: dict = {}
        self._func = None
        self._func_done = False
        self._blocks: list = []
        self._frame: _Frame | None = None
        self._outer_frames: list = []  # frames under the top one (_begin_*_block)

    def normalize(self, expr):
        return super().normalize(_python_tuples_as_relax(expr))

    @staticmethod
    def current() -> BlockBuilder | None:
        """The BlockBuilder whose function scope is innermost, or None."""
        stack = _stack()
        return stack[-1] if stack else None

    # -- scopes -----------------------------------------------------------------------------
    def function(
        self, name: str, params=None, attrs=None, pure: bool = True, private: bool = False
    ) -> FunctionScope:
        """A function scope; params are Vars with struct info (or given at emit_func_output).
        A public function gets attrs["global_symbol"] = name; a private one does not."""
        if not isinstance(name, str) or not name:
            raise ValueError(f"BlockBuilder.function: name must be a non-empty str, got {name!r}")
        if isinstance(params, Var):
            params = [params]
        if params is not None:
            params = list(params)
            for p in params:
                if not isinstance(p, Var):
                    raise TypeError(
                        f"BlockBuilder.function: params must be relax Vars, got {type(p).__name__}"
                    )
        return FunctionScope(self, name, params, dict(attrs or {}), pure, private)

    def dataflow(self) -> DataflowScope:
        """A dataflow block scope."""
        return DataflowScope(self)

    def testing_scope(self, def_vars=()):
        """A scope for emitting bindings outside any function (tests)."""
        return _TestingScope(self)

    def current_block_is_dataflow(self) -> bool:
        return self._frame is not None and self._frame.is_dataflow

    def _begin_frame(self, is_dataflow: bool) -> None:
        self._frame = _Frame(is_dataflow)

    def _end_frame(self) -> None:
        if self._frame is not None and self._frame.bindings:
            self._blocks.append(self._frame.to_block())
        self._frame = None

    def _begin_scope(self):
        saved = (self._blocks, self._frame)
        self._blocks, self._frame = [], None
        return saved

    def _end_scope(self, saved) -> None:
        self._blocks, self._frame = saved

    # Upstream's names for the block scopes.
    def begin_dataflow_block(self) -> None:
        self._end_frame()
        self._begin_frame(True)

    def begin_binding_block(self) -> None:
        self._end_frame()
        self._begin_frame(False)

    def end_block(self) -> BindingBlock:
        frame = self._frame
        if frame is None:
            raise RuntimeError("BlockBuilder.end_block: no block is open")
        self._frame = None
        return frame.to_block()

    # Upstream's low-level block API: blocks nest as a stack. A begun block sits on top of the
    # open one (which stays open), and _end_block returns the top block, not adding it to the
    # function, and reopens the one below.
    def _begin_dataflow_block(self) -> None:
        self._outer_frames.append(self._frame)
        self._begin_frame(True)

    def _begin_binding_block(self) -> None:
        self._outer_frames.append(self._frame)
        self._begin_frame(False)

    def _end_block(self) -> BindingBlock:
        if self._frame is None:
            raise RuntimeError("BlockBuilder._end_block: no block is open")
        block = self._frame.to_block()
        self._frame = self._outer_frames.pop() if self._outer_frames else None
        return block

    # -- names ------------------------------------------------------------------------------
    def get_unique_name(self, name_prefix: str) -> str:
        """name_prefix, or name_prefix1, name_prefix2, ... when taken (function names)."""
        name, k = name_prefix, 0
        while name in self._used_names:
            k += 1
            name = f"{name_prefix}{k}"
        self._used_names.add(name)
        return name

    def _var_name(self, hint: str) -> str:
        count = self._var_names.get(hint, 0)
        self._var_names[hint] = count + 1
        return hint if count == 0 else f"{hint}{count}"

    def _new_var(self, name_hint: str, sinfo: StructInfo, dataflow: bool):
        name = self._var_name(name_hint or ("lv" if dataflow else "gv"))
        return (DataflowVar if dataflow else Var)(name, sinfo)

    # -- emitting ---------------------------------------------------------------------------
    def _require_frame(self, who: str) -> _Frame:
        if self._frame is None:
            raise RuntimeError(
                f"BlockBuilder.{who}: no block is open; call it inside `with bb.function(...)`"
            )
        return self._frame

    def emit(self, expr, name_hint: str = "") -> Var:
        """Bind expr (normalised) to a new variable in the current block. A SeqExpr is
        unwrapped, as upstream's: its bindings join the current block (a non-dataflow block of
        it splits the current dataflow block around itself) and its body is bound."""
        self._require_frame("emit")
        expr = self.normalize(_python_tuples_as_relax(expr))
        if isinstance(expr, SeqExpr):
            expr = self._inline_seq(expr)
        frame = self._frame
        var = self._new_var(name_hint, expr.struct_info, frame.is_dataflow)
        frame.append(VarBinding(var, expr))
        self._bindings[var] = expr
        return var

    def _inline_seq(self, seq):
        for block in seq.blocks:
            split = self._frame.is_dataflow and not isinstance(block, DataflowBlock)
            if split:
                self._end_frame()
                self._begin_frame(False)
            for binding in block.bindings:
                self._frame.append(binding)
                self._bindings[binding.var] = binding.value
            if split:
                self._end_frame()
                self._begin_frame(True)
        return seq.body

    def emit_normalized(self, binding) -> None:
        """Append an already normalised binding."""
        frame = self._require_frame("emit_normalized")
        frame.append(binding)
        self._bindings[binding.var] = binding.value

    def match_cast(self, value, struct_info: StructInfo, name_hint: str = "") -> Var:
        """Bind value to a new variable of struct_info (checked at run time); symbolic dims
        first seen in struct_info are defined by the match."""
        frame = self._require_frame("match_cast")
        if not isinstance(struct_info, StructInfo):
            raise TypeError(
                f"BlockBuilder.match_cast: struct_info must be a StructInfo, got "
                f"{type(struct_info).__name__}"
            )
        value = self._normalize_arg(value)
        var = self._new_var(name_hint, struct_info, frame.is_dataflow)
        frame.append(MatchCast(var, value, struct_info))
        self._bindings[var] = value
        return var

    def emit_output(self, output, name_hint: str = "") -> Var:
        """Bind output to a variable visible after the dataflow block."""
        frame = self._require_frame("emit_output")
        if not frame.is_dataflow:
            raise RuntimeError("BlockBuilder.emit_output: only inside `with bb.dataflow()`")
        output = self.normalize(_python_tuples_as_relax(output))
        var = self._new_var(name_hint, output.struct_info, dataflow=False)
        frame.append(VarBinding(var, output))
        self._bindings[var] = output
        return var

    def emit_func_output(self, output, params=None) -> GlobalVar:
        """End the current function with output as its result; returns its GlobalVar."""
        scope = self._func
        if scope is None:
            raise RuntimeError("BlockBuilder.emit_func_output: not inside `with bb.function()`")
        if self._func_done:
            raise RuntimeError(
                f"BlockBuilder.emit_func_output: function {scope._name!r} already has its output"
            )
        if self.current_block_is_dataflow():
            raise RuntimeError(
                "BlockBuilder.emit_func_output: must be called outside the dataflow block"
            )
        if params is not None:
            if scope._params is not None:
                raise RuntimeError(
                    "BlockBuilder.emit_func_output: params were already given to function()"
                )
            scope._params = [params] if isinstance(params, Var) else list(params)
        if scope._params is None:
            raise RuntimeError(
                f"BlockBuilder.emit_func_output: function {scope._name!r} has no params; pass "
                "them to function() or emit_func_output()"
            )
        output = self._normalize_arg(_python_tuples_as_relax(output))
        self._end_frame()
        body = SeqExpr(self._blocks, output)
        defined = function_defined_tir_vars(scope._params)
        ret = erase_to_well_defined(
            output.struct_info, {v: v for v in defined}, {p: p for p in scope._params}
        )
        attrs = dict(scope._attrs)
        if not scope._private:
            attrs.setdefault("global_symbol", scope._name)
        func = Function(scope._params, body, ret, scope._is_pure, attrs)
        self._blocks, self._frame = [], _Frame(False)
        self._func_done = True
        return self._add_named(func, scope._name)

    # -- the module -------------------------------------------------------------------------
    def _add_named(self, func: BaseFunc, name: str) -> GlobalVar:
        for gv in self._funcs:
            if gv.name_hint == name:
                raise ValueError(f"BlockBuilder: the module already has a function {name!r}")
        self._used_names.add(name)
        gv = GlobalVar(name)
        self._store(gv, func)
        return gv

    def _store(self, gv, func) -> None:
        self._funcs[gv] = func
        sinfo = _sinfo_of(func)
        if sinfo is not None and _sinfo_of(gv) is None:
            gv._fill_late_field("struct_info_", sinfo)

    def add_func(self, func: BaseFunc, func_name: str) -> GlobalVar:
        """Add func under a unique name derived from func_name; a function structurally equal
        to one already added returns that one's GlobalVar."""
        if not isinstance(func, BaseFunc):
            raise TypeError(
                f"BlockBuilder.add_func: expected a function, got {type(func).__name__}"
            )
        key = structural_hash(func)
        for gv in self._func_hashes.get(key, []):
            if structural_equal(self._funcs.get(gv), func):
                return gv
        gv = GlobalVar(self.get_unique_name(func_name))
        self._store(gv, func)
        self._func_hashes.setdefault(key, []).append(gv)
        return gv

    def update_func(self, gv: GlobalVar, updated_func: BaseFunc) -> None:
        """Replace the function gv names."""
        if gv not in self._funcs:
            raise ValueError(f"BlockBuilder.update_func: no function {gv.name_hint!r}")
        self._funcs[gv] = updated_func

    def get(self) -> IRModule:
        """The module built so far."""
        return IRModule(dict(self._funcs), self._mod_attrs, self._global_infos)

    finalize = get

    def _lookup_function(self, gv):
        for key, func in self._funcs.items():
            if key is gv or key.name_hint == gv.name_hint:
                return func
        return None

    def lookup_binding(self, var):
        """The value var was bound to by this builder, or None."""
        return self._bindings.get(var)

    def _record_binding(self, var, value):
        self._bindings[var] = value

    # -- te ---------------------------------------------------------------------------------
    def call_te(self, func, *args, **kwargs):
        """func (a te computation) as a private PrimFunc added to the module, called through
        call_tir on args (relax tensors become te placeholders with their, possibly symbolic,
        shapes). Extra keywords: primfunc_name_hint, primfunc_attrs."""
        from tvm import te, tir

        from .op.base import call_tir

        name_hint = kwargs.pop("primfunc_name_hint", None)
        extra_attrs = kwargs.pop("primfunc_attrs", None)
        inputs: list = []  # (relax expr, placeholder)
        prim_args: list = []

        def convert(arg):
            if isinstance(arg, RelaxExpr):
                arg = self._normalize_arg(arg) if self._frame is not None else self.normalize(arg)
                sinfo = arg.struct_info
                if isinstance(sinfo, TensorStructInfo):
                    from .op._utils import dims_of

                    dims = dims_of(sinfo)
                    if dims is None:
                        raise ValueError(
                            f"call_te: argument {getattr(arg, 'name_hint', arg)!r} must have "
                            f"a known shape (symbolic dims are fine), got {sinfo}"
                        )
                    for found, ph in inputs:
                        if found is arg:
                            return ph
                    name = getattr(arg, "name_hint", None) or "rxplaceholder"
                    ph = te.placeholder(dims, sinfo.dtype, name=name)
                    inputs.append((arg, ph))
                    return ph
                if isinstance(arg, Tuple):
                    return [convert(f) for f in arg.fields]
                if isinstance(arg, ShapeExpr):
                    return list(arg.values)
                if isinstance(arg, PrimValue):
                    prim_args.append(arg.value)
                    return arg.value
                if isinstance(sinfo, ShapeStructInfo) and sinfo.values is not None:
                    return list(sinfo.values)
                if isinstance(sinfo, PrimStructInfo) and sinfo.value is not None:
                    prim_args.append(sinfo.value)
                    return sinfo.value
                raise TypeError(f"call_te: cannot pass an argument of struct info {sinfo} to te")
            if isinstance(arg, (list, tuple)):
                return type(arg)(convert(a) for a in arg)
            if isinstance(arg, dict):
                return {k: convert(v) for k, v in arg.items()}
            return arg

        te_args = [convert(a) for a in args]
        te_kwargs = {k: convert(v) for k, v in kwargs.items()}
        outs = func(*te_args, **te_kwargs)
        out_list = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        for o in out_list:
            if not isinstance(o, te.Tensor):
                raise TypeError(
                    f"call_te: {getattr(func, '__name__', func)} must return te Tensors, got "
                    f"{type(o).__name__}"
                )
        placeholders = [ph for _, ph in inputs]
        # A dim that is a bare variable defines it from the tensor; any other variable
        # (in an expression such as n - 1, or only in the outputs) is passed as a scalar.
        known = [d for ph in placeholders for d in ph.shape if isinstance(d, tir.Var)]
        used = [list(ph.shape) for ph in placeholders] + [list(o.shape) for o in out_list]
        extra = [v for v in tir_vars_in(used + prim_args) if all(v is not k for k in known)]
        prim = te.create_prim_func([*placeholders, *out_list, *extra])
        prim = prim.without_attr("global_symbol")  # private: called only from Relax
        if extra_attrs:
            prim = prim.with_attr(dict(extra_attrs))
        fname = name_hint or getattr(func, "__name__", None) or "te_func"
        fname = fname.strip("<>").replace(".", "_") or "te_func"
        gv = self.add_func(prim, fname)
        out_sinfo = [TensorStructInfo(list(o.shape), str(o.dtype)) for o in out_list]
        return call_tir(
            gv,
            [arg for arg, _ in inputs],
            out_sinfo if len(out_sinfo) > 1 else out_sinfo[0],
            tir_vars=extra or None,
        )

    def emit_te(self, func, *args, **kwargs) -> Var:
        """emit(call_te(func, *args, **kwargs)); name_hint= names the variable."""
        name_hint = kwargs.pop("name_hint", "")
        return self.emit(self.call_te(func, *args, **kwargs), name_hint)


class _TestingScope:
    def __init__(self, builder):
        self._bb = builder

    def __enter__(self):
        bb = self._bb
        bb._saved_testing = (bb._blocks, bb._frame)
        bb._blocks, bb._frame = [], _Frame(False)
        _stack().append(bb)
        return self

    def __exit__(self, *exc):
        bb = self._bb
        _stack().remove(bb)
        bb._blocks, bb._frame = bb._saved_testing
        return False


__all__ = ["BlockBuilder", "DataflowScope", "FunctionScope", "is_leaf"]
