"""Exporter: traces the methods an nn.spec names into Relax functions of one IRModule."""

from __future__ import annotations

import threading

from tvm import tir

from ... import expr as rx
from ...block_builder import BlockBuilder
from ...op import null_value
from ...struct_info import ObjectStructInfo, ShapeStructInfo, TupleStructInfo
from . import core
from . import spec as _spec


class IOEffect(core.Effect):
    """The IO side effect (nn.op.print_ and debug_func): an Object threaded through functions."""

    def __init__(self):
        self.effect = None

    def emit_init(self, name_hint: str, builder: BlockBuilder) -> list:
        return [builder.emit(null_value(), f"{name_hint}.io")]

    def create(self, name_hint: str) -> list:
        if self.effect is not None:
            raise RuntimeError("nn.IOEffect.create: the effect already has a state")
        return [rx.Var(f"{name_hint}.io", ObjectStructInfo())]

    def set_state(self, state_vars: list) -> None:
        (self.effect,) = state_vars

    def finalize(self) -> list:
        result, self.effect = self.effect, None
        return [result]


class Exporter:
    """Builds the IRModule of a ModuleSpec; Exporter.current() is the one exporting now."""

    _tls = threading.local()

    def __init__(self, debug: bool) -> None:
        self.builder = BlockBuilder()
        self.io_effect = IOEffect() if debug else None
        self.extern_mods: list = []

    @staticmethod
    def current() -> Exporter | None:
        """The Exporter under whose `with` the current thread runs, or None."""
        return getattr(Exporter._tls, "current", None)

    def __enter__(self) -> Exporter:
        if Exporter.current() is not None:
            raise RuntimeError("nn.Exporter: an export is already under way in this thread")
        Exporter._tls.current = self
        return self

    def __exit__(self, exc_type, exc, traceback) -> None:
        del Exporter._tls.current

    def build(self, spec: _spec.ModuleSpec):
        """(IRModule, [(name, Parameter)], extern modules) for spec."""
        module = spec.module

        def effects():
            found = [("", self.io_effect)] if self.io_effect is not None else []
            found += list(core._attribute_finder(module, "", lambda x: isinstance(x, core.Effect)))
            return found

        all_effects = effects()
        params = list(module.named_parameters())
        bb = self.builder
        with self:
            if all_effects:
                with bb.function("_initialize_effect", params=[]):
                    with bb.dataflow():
                        inits = []
                        for prefix, effect in all_effects:
                            inits.extend(effect.emit_init(prefix, bb))
                        out = bb.emit_output(bb.emit(rx.Tuple(inits)))
                    bb.emit_func_output(out)
            for name, method_spec in zip(spec.method_names, spec.method_specs):
                n_effects = {"plain": len(all_effects), "packed": 1, "none": 0}[
                    method_spec.effect_mode
                ]
                n_inputs = len(method_spec.arg_specs) + n_effects
                with bb.function(name, attrs={"num_input": n_inputs}):
                    with bb.dataflow():
                        out, inputs = _emit_method(bb, name, method_spec, params, all_effects)
                    bb.emit_func_output(out, inputs)
        return bb.get(), params, self.extern_mods


def _emit_method(bb, method_name, spec: _spec.MethodSpec, params, effects):
    """Emit one method's body; returns (its output var, its parameter list)."""
    args, inputs = _spec_inputs(spec)
    inputs += _effect_inputs(bb, spec.effect_mode, effects)
    inputs += _param_inputs(bb, spec.param_mode, params)
    for i, (arg, var) in enumerate(zip(args, inputs)):
        if isinstance(arg, _spec.Tuple):
            args[i] = _detuple(bb, arg, var)
    try:
        result = spec.method(**dict(zip(spec.arg_names, args)))
    except Exception as err:
        # The op's own message names the op and the shapes; say which traced method it was in.
        if hasattr(err, "add_note"):
            shapes = ", ".join(f"{n}: {s}" for n, s in zip(spec.arg_names, spec.arg_specs))
            err.add_note(f"while nn.Module.export_tvm traced method {method_name!r}({shapes})")
        raise
    try:
        result = _unwrap(result)
    except TypeError as err:
        raise TypeError(f"nn.Module.export_tvm: method {method_name!r}: {err}") from None
    effect_outputs = []
    for _, effect in effects:
        effect_outputs.extend(effect.finalize())
    if effect_outputs and spec.effect_mode != "none":
        result = rx.Tuple([result, rx.Tuple(effect_outputs)])
    return bb.emit_output(result), inputs


def _unwrap(value):
    if isinstance(value, (core.Tensor, core.Object)):
        return value._expr
    if isinstance(value, (tuple, list)):
        return rx.Tuple([_unwrap(v) for v in value])
    raise TypeError(
        f"it returned a {type(value).__name__}; expected an nn.Tensor, nn.Object or a "
        "tuple/list of them"
    )


def _spec_inputs(spec: _spec.MethodSpec):
    """The traced arguments (nn.Tensor, tir.Var, nn.Object, nn.spec.Tuple) and their relax Vars;
    a str extent names one int64 tir.Var shared by every argument of the method."""
    sym: dict[str, tir.Var] = {}

    def var_of(name: str) -> tir.Var:
        if name not in sym:
            sym[name] = tir.Var(name, "int64")
        return sym[name]

    def arg_of(name, arg_spec):
        if isinstance(arg_spec, _spec.Int):
            return var_of(name)
        if isinstance(arg_spec, _spec.Tensor):
            shape = [var_of(d) if isinstance(d, str) else d for d in arg_spec.shape]
            return core.Tensor.placeholder(shape, arg_spec.dtype, name)
        if isinstance(arg_spec, _spec.Object):
            return arg_spec.object_type(_expr=rx.Var(name, ObjectStructInfo()), _name=name)
        if isinstance(arg_spec, _spec.Tuple):
            items = [arg_of(f"{name}_{i}", s) for i, s in enumerate(arg_spec.elements)]
            return _spec.Tuple(name, type(arg_spec.elements)(items))
        raise TypeError(f"nn.Module.export_tvm: invalid spec for argument {name!r}: {arg_spec}")

    def var_for(arg):
        if isinstance(arg, tir.Var):
            return rx.Var(arg.name, ShapeStructInfo([arg]))
        if isinstance(arg, (core.Tensor, core.Object)):
            return arg._expr
        return rx.Var(arg.name, TupleStructInfo([var_for(a).struct_info for a in arg.elements]))

    args = [arg_of(n, s) for n, s in zip(spec.arg_names, spec.arg_specs)]
    return args, [var_for(a) for a in args]


def _detuple(bb, arg: _spec.Tuple, var):
    items = []
    for i, item in enumerate(arg.elements):
        field = bb.emit(rx.TupleGetItem(var, i), f"{arg.name}_{i}")
        if isinstance(item, _spec.Tuple):
            items.append(_detuple(bb, item, field))
        elif isinstance(item, core.Tensor):
            items.append(core.Tensor(_expr=field))
        else:
            items.append(item)
    return type(arg.elements)(items)


def _effect_inputs(bb, mode: str, effects) -> list:
    groups = []
    for name, effect in effects:
        state = effect.create(name)
        effect.set_state(state)
        groups.append(state)
    flat = [v for group in groups for v in group]
    if mode == "none":
        return []
    if mode == "plain":
        return flat
    packed = rx.Var("packed_effects", TupleStructInfo([v.struct_info for v in flat]))
    i = 0
    for state, (_, effect) in zip(groups, effects):
        fields = []
        for v in state:
            fields.append(bb.emit(rx.TupleGetItem(packed, i), v.name_hint))
            i += 1
        effect.set_state(fields)
    return [packed]


def _param_inputs(bb, mode: str, params) -> list:
    """A fresh Var per parameter (named by its dotted name) so each function gets its own; str
    extents of parameters share one tir.Var per name within the function."""
    sym: dict[str, tir.Var] = {}
    fresh = []
    for name, param in params:
        shape = []
        for d in param.shape:
            if isinstance(d, tir.Var):
                d = sym.setdefault(d.name, tir.Var(d.name, "int64"))
            shape.append(d)
        var = core.Tensor.placeholder(shape, param.dtype, name)._expr
        param._expr = var
        fresh.append(var)
    if mode == "none":
        return []
    if mode == "plain":
        return fresh
    packed = rx.Var("packed_params", TupleStructInfo([v.struct_info for v in fresh]))
    for i, (name, param) in enumerate(params):
        param._expr = bb.emit(rx.TupleGetItem(packed, i), name)
    return [packed]
