"""nn.spec: how export_tvm is told each method's argument types (Tensor, Int, Tuple, Object)."""

from __future__ import annotations

import inspect
import typing


class Int:
    """A scalar int64 argument, passed to the function as a shape of one symbolic extent."""

    def __repr__(self) -> str:
        return "int"


class Tensor:
    """A tensor argument: shape entries are ints or str names of symbolic int64 extents."""

    shape: list[int | str]
    dtype: str

    def __init__(self, shape: typing.Sequence[int | str], dtype: str) -> None:
        if isinstance(shape, (int, str)) or not isinstance(shape, (list, tuple)):
            raise TypeError(
                f"nn.spec.Tensor: shape must be a list or tuple of ints and strs, got {shape!r}"
            )
        for dim in shape:
            if isinstance(dim, bool) or not isinstance(dim, (int, str)):
                raise TypeError(
                    f"nn.spec.Tensor: shape entries must be int or str, got {dim!r} in {shape!r}"
                )
            if isinstance(dim, int) and dim < 0:
                raise ValueError(f"nn.spec.Tensor: extents must be >= 0, got {dim} in {shape!r}")
        if not isinstance(dtype, str):
            raise TypeError(f"nn.spec.Tensor: dtype must be a str, got {dtype!r}")
        self.shape = list(shape)
        self.dtype = dtype

    def __repr__(self) -> str:
        shape = ", ".join(str(d) for d in self.shape)
        return f"Tensor([{shape}], '{self.dtype}')"


class Object:
    """An argument of a non-tensor nn.Object subclass (struct info Object)."""

    object_type: type

    def __init__(self, object_type: type) -> None:
        from .core import Object as _NNObject  # core imports this module

        if not (isinstance(object_type, type) and issubclass(object_type, _NNObject)):
            raise TypeError(
                f"nn.spec.Object: object_type must be a subclass of nn.Object, got {object_type!r}"
            )
        self.object_type = object_type

    def __repr__(self) -> str:
        return self.object_type.__name__


class Tuple:
    """A tuple (or list) argument of nested specs; the function takes one tuple parameter."""

    name: str
    elements: list | tuple

    def __init__(self, name: str, elements: list | tuple) -> None:
        self.name = name
        self.elements = elements

    def __repr__(self) -> str:
        return self.elements.__repr__()


ArgSpecType = typing.Union[Int, Tensor, Object, Tuple]  # noqa: UP007


class MethodSpec:
    """The argument specs of one exported method."""

    method: typing.Callable
    arg_names: list[str]
    arg_specs: list[ArgSpecType]
    param_mode: str
    effect_mode: str

    def __init__(
        self,
        method: typing.Callable,
        arg_names: list[str],
        arg_specs: list[ArgSpecType],
        param_mode: str,
        effect_mode: str,
    ):
        if param_mode not in ("plain", "packed", "none"):
            raise ValueError(f"Invalid param_mode: {param_mode}")
        if effect_mode not in ("plain", "packed", "none"):
            raise ValueError(f"Invalid effect_mode: {effect_mode}")
        self.method = method
        self.arg_names = arg_names
        self.arg_specs = arg_specs
        self.param_mode = param_mode
        self.effect_mode = effect_mode

    def _repr(self, name: str) -> str:
        args = ", ".join(f"{n}: {s}" for n, s in zip(self.arg_names, self.arg_specs))
        return f"{name}({args})"

    def __repr__(self) -> str:
        return self._repr(name="MethodSpec")

    @staticmethod
    def from_raw(spec: dict, method: typing.Callable) -> MethodSpec:
        """A MethodSpec from {argument name: spec}; the optional "$" entry holds
        {"param_mode": ..., "effect_mode": ...} ("plain", "packed" or "none")."""
        if isinstance(spec, MethodSpec):
            return spec
        name = getattr(method, "__name__", None) or type(method).__name__
        if not isinstance(spec, dict):
            raise TypeError(
                f"nn.spec.MethodSpec: the spec of method {name!r} must be a dict from argument "
                f"name to spec, got {type(spec).__name__}"
            )
        spec = dict(spec)
        config = spec.pop("$", {})
        if not isinstance(config, dict):
            raise TypeError(
                f'nn.spec.MethodSpec: the "$" entry of the spec of method {name!r} must be a dict '
                f'of "param_mode" and "effect_mode", got {config!r}'
            )
        unknown_config = [k for k in config if k not in ("param_mode", "effect_mode")]
        if unknown_config:
            raise ValueError(
                f'nn.spec.MethodSpec: the "$" entry of the spec of method {name!r} has unknown '
                f'key(s) {unknown_config}; expected "param_mode" and "effect_mode"'
            )
        params = inspect.signature(method).parameters
        unknown = [a for a in spec if a not in params]
        if unknown:
            raise ValueError(
                f"nn.spec.MethodSpec: the spec of method {name!r} names argument(s) {unknown} "
                f"that it does not take; its arguments are {list(params)}"
            )
        variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        starred = [a for a in spec if params[a].kind in variadic]
        if starred:  # each argument is passed by name: M.f() got an unexpected keyword 'xs'
            raise ValueError(
                f"nn.spec.MethodSpec: the spec of method {name!r} names its variadic "
                f"argument(s) {starred} (*args / **kwargs); export_tvm passes each argument by "
                "name, so give the method one named parameter per input"
            )
        if params and all(p.kind in variadic for p in params.values()):
            # e.g. a submodule, whose __call__(*args, **kwargs) names no input
            raise ValueError(
                f"nn.spec.MethodSpec: the spec of method {name!r} gives no spec for any named "
                f"argument: it takes only {list(params)} (*args / **kwargs); export a method "
                "with named parameters"
            )
        missing = [
            a
            for a, p in params.items()
            if a not in spec and p.default is inspect.Parameter.empty and p.kind not in variadic
        ]
        if missing:
            raise ValueError(
                f"nn.spec.MethodSpec: the spec of method {name!r} gives no spec for argument(s) "
                f"{missing}; expected nn.spec.Tensor, nn.spec.Int, int or 'int' for each"
            )
        # Arguments with defaults may be left out; the method is then called by keyword.
        arg_names = [a for a in params if a in spec]

        def convert(arg_spec, arg_name):
            if (
                arg_spec is Int
                or arg_spec is int
                or (isinstance(arg_spec, str) and arg_spec == "int")
            ):
                return Int()
            if isinstance(arg_spec, (Int, Tensor, Object)):
                return arg_spec
            if isinstance(arg_spec, (tuple, list, Tuple)):
                items = arg_spec.elements if isinstance(arg_spec, Tuple) else arg_spec
                converted = [convert(s, f"{arg_name}_{i}") for i, s in enumerate(items)]
                return Tuple(arg_name, type(items)(converted))
            raise TypeError(
                f"nn.spec.MethodSpec: invalid spec for argument {arg_name!r} of method {name!r}: "
                f"{arg_spec!r}; expected nn.spec.Tensor, nn.spec.Int, int, 'int' or a tuple/list"
            )

        arg_specs = [convert(spec[a], a) for a in arg_names]
        return MethodSpec(
            method,
            arg_names,
            arg_specs,
            param_mode=config.get("param_mode", "plain"),
            effect_mode=config.get("effect_mode", "plain"),
        )


class ModuleSpec:
    """The specs of every exported method of a module, in the order given."""

    module: typing.Any
    method_names: list[str]
    method_specs: list[MethodSpec]

    def __init__(self, module, method_names: list[str], method_specs: list[MethodSpec]) -> None:
        self.module = module
        self.method_names = method_names
        self.method_specs = method_specs

    @staticmethod
    def from_raw(spec: dict, module) -> ModuleSpec:
        """A ModuleSpec from {method name: {argument name: spec}}."""
        if isinstance(spec, ModuleSpec):
            return spec
        if not isinstance(spec, dict) or not spec:
            raise TypeError(
                "nn.Module.export_tvm: spec must be a non-empty dict from method name to "
                f"{{argument name: spec}}, got {spec!r}"
            )
        names = list(spec)
        specs = []
        for name in names:
            method = getattr(module, name, None)
            if not callable(method):
                raise ValueError(
                    f"nn.Module.export_tvm: spec names method {name!r}, which "
                    f"{type(module).__name__} does not have"
                )
            specs.append(MethodSpec.from_raw(spec[name], method))
        return ModuleSpec(module, names, specs)

    def __repr__(self) -> str:
        return "ModuleSpec:\n" + "\n".join(
            "  " + s._repr(n) for n, s in zip(self.method_names, self.method_specs)
        )
