"""nn.Tensor, nn.Parameter, nn.Object, nn.Effect, nn.Module and its containers: the traced state."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import tvm
import tvm_ffi
from tvm import tir

from ... import expr as rx
from ...block_builder import BlockBuilder
from ...struct_info import ObjectStructInfo, TensorStructInfo, TupleStructInfo
from ._tensor_op import _TensorOp

_DEFAULT_DTYPE = "float32"


def get_default_dtype() -> str:
    """The dtype a Parameter gets when none is given ("float32" unless set_default_dtype)."""
    return _DEFAULT_DTYPE


def set_default_dtype(dtype: str) -> None:
    """Set the dtype a Parameter gets when none is given."""
    global _DEFAULT_DTYPE
    if not isinstance(dtype, str):
        raise TypeError(f"nn.set_default_dtype: dtype must be a str, got {type(dtype).__name__}")
    _DEFAULT_DTYPE = dtype


def _check_shape_and_dtype(who: str, shape, dtype) -> None:
    if isinstance(shape, (str, int)) or not isinstance(shape, Sequence):
        raise TypeError(f"{who}: shape must be a list or tuple of extents, got {shape!r}")
    if not isinstance(dtype, str):
        raise TypeError(f"{who}: dtype must be a str such as 'float32', got {dtype!r}")


def _shape_of(expr) -> list:
    """The symbolic shape of a tensor-valued relax expression, or an error naming what it is."""
    sinfo = expr.struct_info
    if not isinstance(sinfo, TensorStructInfo) or sinfo.ndim < 0 or sinfo.shape is None:
        raise TypeError(
            f"nn.Tensor: the expression must be a tensor of known rank and shape, got {sinfo}"
        )
    return sinfo.shape.struct_info.values


class Tensor(_TensorOp):
    """A symbolic tensor: a relax expression of tensor struct info whose shape and dtype are known
    as soon as an operator builds it."""

    _expr: rx.Expr

    def __init__(self, *, _expr: rx.Expr) -> None:
        """Private: tensors come from placeholders, parameters and nn.op functions."""
        _shape_of(_expr)
        self._expr = _expr

    @staticmethod
    def from_const(data) -> Tensor:
        """A tensor holding a NumPy constant."""
        return Tensor(_expr=rx.const(data))

    @staticmethod
    def from_scalar(data: int | float, dtype: str) -> Tensor:
        """A 0-d tensor holding a scalar of dtype."""
        return Tensor(_expr=rx.const(data, dtype=dtype))

    @staticmethod
    def from_struct_info(struct_info: TensorStructInfo, name: str = "tensor") -> Tensor:
        """A placeholder tensor (a relax.Var) of the given struct info."""
        return Tensor(_expr=rx.Var(name, struct_info))

    from_ty = from_struct_info

    @staticmethod
    def placeholder(
        shape: Sequence[int | str | tir.PrimExpr], dtype: str, name: str = "tensor"
    ) -> Tensor:
        """A placeholder tensor (a relax.Var); a str extent becomes tir.Var(name, "int64")."""
        _check_shape_and_dtype("nn.Tensor.placeholder", shape, dtype)
        dims = []
        for dim in shape:
            if isinstance(dim, tir.IntImm):
                dim = int(dim.value)
            if isinstance(dim, bool):
                raise TypeError(f"nn.Tensor.placeholder: invalid extent {dim!r} in shape {shape}")
            if isinstance(dim, int):
                if dim < 0:
                    raise ValueError(
                        f"nn.Tensor.placeholder: extents must be >= 0, got {dim} in shape {shape}"
                    )
                dims.append(dim)
            elif isinstance(dim, str):
                dims.append(tir.Var(dim, "int64"))
            elif isinstance(dim, tir.PrimExpr) and str(dim.dtype) == "int64":
                dims.append(dim)
            else:
                raise TypeError(
                    f"nn.Tensor.placeholder: extents must be int, str or int64 PrimExpr, got "
                    f"{dim!r} ({type(dim).__name__}) in shape {list(shape)}"
                )
        return Tensor(_expr=rx.Var(name, TensorStructInfo(dims, dtype)))

    @property
    def shape(self) -> list[int | tir.PrimExpr]:
        """The shape: Python ints for static extents, tir expressions for symbolic ones."""
        return [d.value if isinstance(d, tir.IntImm) else d for d in _shape_of(self._expr)]

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return self._expr.struct_info.ndim

    @property
    def dtype(self) -> str:
        """The element type, as a str."""
        return str(self._expr.struct_info.dtype)

    def __repr__(self) -> str:
        return f'Tensor({self.shape}, "{self.dtype}")'


class Parameter(Tensor):
    """A weight of a layer: a tensor that may be bound to concrete data (param.data)."""

    _data: Any
    attrs: dict[str, Any]

    def __init__(self, shape: Sequence[int | str | tir.PrimExpr], dtype: str | None = None) -> None:
        """An unbound parameter of shape and dtype (get_default_dtype() when dtype is None)."""
        if dtype is None:
            dtype = get_default_dtype()
        _check_shape_and_dtype("nn.Parameter", shape, dtype)
        super().__init__(_expr=Tensor.placeholder(shape, dtype=dtype, name="param")._expr)
        self._data = None
        self.attrs = OrderedDict()

    @property
    def data(self):
        """The bound tvm.runtime.Tensor, or None."""
        return self._data

    @data.setter
    def data(self, data) -> None:
        if data is None:
            self._data = None
            return
        import numpy as np

        if isinstance(data, tvm.runtime.Tensor):
            pass
        elif isinstance(data, np.ndarray):
            data = tvm.runtime.tensor(data)
        elif hasattr(data, "__dlpack__"):
            data = tvm_ffi.from_dlpack(data)
        else:
            raise TypeError(
                "nn.Parameter.data: expected a tvm.runtime.Tensor, numpy.ndarray or a DLPack "
                f"tensor, got {type(data).__name__}"
            )
        if tuple(data.shape) != tuple(self.shape):
            raise ValueError(
                f"nn.Parameter.data: shape mismatch: expected {tuple(self.shape)}, "
                f"got {tuple(data.shape)}"
            )
        if str(data.dtype) != self.dtype:
            raise ValueError(
                f"nn.Parameter.data: dtype mismatch: expected {self.dtype}, got {data.dtype}"
            )
        self._data = data

    def to(self, dtype: str | None = None) -> None:  # noqa: A003
        """Change the dtype of an unbound parameter (a bound one refuses: it would lose data)."""
        if dtype is None:
            return
        _check_shape_and_dtype("nn.Parameter.to", self.shape, dtype)
        if self._data is not None:
            raise ValueError(
                "nn.Parameter.to: cannot change the dtype of a parameter bound to data "
                f"(bound as {self.dtype}, asked for {dtype}); unbind it (param.data = None) first"
            )
        self._expr = Tensor.placeholder(self.shape, dtype=dtype, name="param")._expr


class Object:
    """A non-tensor value (struct info Object) traced through a module, e.g. a cache handle."""

    _expr: rx.Var

    def __init__(self, *, _expr: rx.Expr, _name: str) -> None:
        if not isinstance(_expr, rx.Var):
            _expr = BlockBuilder.current().emit(_expr, _name)
        if not isinstance(_expr.struct_info, ObjectStructInfo):
            raise TypeError(f"nn.Object: expected Object struct info, got {_expr.struct_info}")
        self._expr = _expr


class Effect:
    """A side effect (e.g. printing) threaded through exported functions as extra inputs and
    outputs; subclasses say how it is created, initialised and finalised."""

    def emit_init(self, name_hint: str, builder: BlockBuilder) -> list:
        """Emit the effect's initial state in _initialize_effect."""
        raise NotImplementedError

    def create(self, name_hint: str) -> list:
        """The implicit function inputs that carry the effect."""
        raise NotImplementedError

    def set_state(self, state_vars: list) -> None:
        """Set the variables that hold the effect's current state."""
        raise NotImplementedError

    def finalize(self) -> list:
        """The effect's final state, returned beside the function's result."""
        raise NotImplementedError

    def to(self, dtype: str | None = None) -> None:  # noqa: A003
        """Effects carry no dtype: a no-op."""


class Module:
    """Base class of network components: attributes that are Parameters, Modules, ModuleLists
    or ModuleDicts form the tree that named_parameters and export_tvm walk."""

    def named_parameters(self, prefix: str = "") -> Iterator[tuple[str, Parameter]]:
        """(dotted name, Parameter) for every parameter, in attribute order."""
        yield from _attribute_finder(self, prefix, lambda x: isinstance(x, Parameter))

    def parameters(self) -> Iterator[Parameter]:
        """Every parameter, in attribute order."""
        for _, param in self.named_parameters():
            yield param

    def state_dict(
        self, *, prefix: str = "", destination: dict[str, Parameter] | None = None
    ) -> dict[str, Parameter]:
        """An ordered dict from dotted name to Parameter (references, not copies)."""
        if destination is None:
            destination = OrderedDict()
        for name, param in self.named_parameters(prefix):
            destination[name] = param
        return destination

    def load_state_dict(
        self, state_dict: dict[str, Parameter], strict: bool = True
    ) -> tuple[list[str], list[str]]:
        """Bind this module's parameters to the data of state_dict's; returns (missing keys,
        unexpected keys) and, with strict, raises KeyError if either is non-empty."""
        if not isinstance(state_dict, dict):
            raise TypeError(
                "nn.Module.load_state_dict: state_dict must be a dict from parameter name to "
                f"nn.Parameter, got {type(state_dict).__name__}"
            )
        own = self.state_dict()
        unexpected = []
        for key, value in state_dict.items():
            if key not in own:
                unexpected.append(key)
                continue
            if not isinstance(value, Parameter):
                # a numpy array's .data is a memoryview: say what was wrong, not that
                raise TypeError(
                    f"nn.Module.load_state_dict: the value of {key!r} must be an nn.Parameter, "
                    f"got {type(value).__name__}; bind arrays with param.data = array"
                )
            if value.data is None:
                raise ValueError(
                    f"nn.Module.load_state_dict: parameter {key!r} is not bound to any data"
                )
            try:
                own.pop(key).data = value.data
            except ValueError as err:  # a shape or dtype mismatch: say which parameter
                raise ValueError(f"nn.Module.load_state_dict: parameter {key!r}: {err}") from None
        missing = list(own)
        if strict and (missing or unexpected):
            raise KeyError(f"Missing keys: {missing}, Unexpected keys: {unexpected}")
        return missing, unexpected

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run forward."""
        if not hasattr(self, "forward"):
            raise NotImplementedError(f"Module {type(self)} does not have a `forward` method")
        return self.forward(*args, **kwargs)

    def to(self, dtype: str | None = None) -> None:  # noqa: A003
        """Change the dtype of every parameter (and a str `dtype` attribute) recursively."""
        for _ in _attribute_finder(self, "", lambda x: False):
            pass  # a module that contains itself is a ValueError here, not endless recursion
        for item in self.__dict__.values():
            if hasattr(item, "to") and callable(item.to):
                item.to(dtype=dtype)
        if dtype is not None and isinstance(getattr(self, "dtype", None), str):
            self.dtype = dtype

    def export_tvm(self, spec, debug: bool = False, allow_extern: bool = False):
        """Trace the methods that spec names into an IRModule.

        spec maps method name to {argument name: nn.spec.Tensor | nn.spec.Int | int | "int"}.
        Each function takes its inputs in the method's argument order, then (debug=True) the
        effect states, then every parameter; attrs num_input counts inputs and effects.
        Returns (IRModule, [(name, Parameter)]), and a third item, the extern modules (always
        empty here), when allow_extern."""
        from . import spec as _spec
        from .exporter import Exporter

        spec = _spec.ModuleSpec.from_raw(spec, self)
        mod, params, ext_mods = Exporter(debug=debug).build(spec)
        if allow_extern:
            return mod, params, ext_mods
        return mod, params

    def jit(
        self,
        spec,
        device: str | tvm.runtime.Device = "cpu",
        pipeline: Any = "default_build",
        out_format: str = "torch",
        debug: bool = False,
    ) -> Any:
        """Export, compile for device and wrap the VM with the bound parameters.

        out_format "torch" returns a TorchModule (methods take and return torch tensors;
        needs torch); "tvm" (this project's torch-free form) returns a TvmModule whose methods
        take numpy arrays or tvm.runtime.Tensors and return tvm.runtime.Tensors."""
        from .torch import TorchModule, TvmModule, _torch, compile_module

        if out_format not in ("torch", "tvm"):
            raise ValueError(
                f'nn.Module.jit: out_format must be "torch" or "tvm", got {out_format!r}'
            )
        if out_format == "torch":
            _torch()  # fail before compiling when torch is missing
        spec, vm, params, device = compile_module(self, spec, device, pipeline, debug)
        cls = TorchModule if out_format == "torch" else TvmModule
        return cls(spec=spec, vm=vm, params=params, device=device)


class ModuleList(Module):
    """A list of submodules named 0, 1, ... in parameter names."""

    def __init__(self, modules: list[Module]):
        self.modules = list(modules)

    def __iter__(self):
        return iter(self.modules)

    def __getitem__(self, idx: int) -> Module:
        return self.modules[idx]

    def __setitem__(self, idx: int, module: Module) -> None:
        self.modules[idx] = module

    def __len__(self):
        return len(self.modules)

    def append(self, module: Module):
        """Add module at the end."""
        self.modules.append(module)

    def to(self, dtype: str | None = None) -> None:  # noqa: A003
        for module in self.modules:
            module.to(dtype=dtype)

    def forward(self, x):
        """Apply each module in turn."""
        for module in self.modules:
            x = module(x)
        return x


class ModuleDict(Module):
    """A dict of submodules named by key in parameter names."""

    def __init__(self, modules: dict[str, Module] | None = None):
        self.modules = OrderedDict(modules or {})

    def __iter__(self):
        return iter(self.modules.values())

    def __getitem__(self, key: str) -> Module:
        return self.modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.modules[key] = module

    def __len__(self) -> int:
        return len(self.modules)

    def __contains__(self, key: str) -> bool:
        return key in self.modules

    def keys(self):
        """The keys, in insertion order."""
        return self.modules.keys()

    def values(self):
        """The modules, in insertion order."""
        return self.modules.values()

    def items(self):
        """(key, module) pairs, in insertion order."""
        return self.modules.items()

    def get(self, key: str, default: Module | None = None) -> Module | None:
        """The module under key, or default."""
        return self.modules.get(key, default)

    def to(self, dtype: str | None = None) -> None:  # noqa: A003
        for module in self.modules.values():
            module.to(dtype=dtype)


class ParameterList(Module):
    """A list of parameters named 0, 1, ... in parameter names."""

    def __init__(self, params: list[Parameter] | None = None):
        self.params: list[Parameter] = []
        for param in params or []:
            self.append(param)

    def __iter__(self) -> Iterator[Parameter]:
        return iter(self.params)

    def __getitem__(self, idx: int) -> Parameter:
        return self.params[idx]

    def __setitem__(self, idx: int, param: Parameter) -> None:
        self.params[idx] = _check_param("ParameterList", param)

    def __len__(self) -> int:
        return len(self.params)

    def append(self, param: Parameter) -> None:
        """Add param at the end."""
        self.params.append(_check_param("ParameterList", param))

    def extend(self, params: list[Parameter]) -> None:
        """Add params at the end."""
        for param in params:
            self.append(param)

    def to(self, dtype: str | None = None) -> None:  # noqa: A003
        for param in self.params:
            param.to(dtype=dtype)


class ParameterDict(Module):
    """A dict of parameters named by key in parameter names."""

    def __init__(self, params: dict[str, Parameter] | None = None):
        self.params: OrderedDict[str, Parameter] = OrderedDict()
        for key, param in (params or {}).items():
            self[key] = param

    def __iter__(self) -> Iterator[str]:
        return iter(self.params)

    def __getitem__(self, key: str) -> Parameter:
        return self.params[key]

    def __setitem__(self, key: str, param: Parameter) -> None:
        if not isinstance(key, str):
            raise TypeError(f"ParameterDict keys must be strings, but got {type(key).__name__}")
        self.params[key] = _check_param("ParameterDict", param)

    def __len__(self) -> int:
        return len(self.params)

    def __contains__(self, key: str) -> bool:
        return key in self.params

    def keys(self):
        """The keys, in insertion order."""
        return self.params.keys()

    def values(self):
        """The parameters, in insertion order."""
        return self.params.values()

    def items(self):
        """(key, parameter) pairs, in insertion order."""
        return self.params.items()

    def to(self, dtype: str | None = None) -> None:  # noqa: A003
        for param in self.params.values():
            param.to(dtype=dtype)


def _check_param(container: str, param):
    if not isinstance(param, Parameter):
        raise TypeError(
            f"{container} elements must be nn.Parameter, but got {type(param).__name__}"
        )
    return param


def wrap_nested(expr: rx.Expr, name: str) -> Tensor | Sequence[Tensor]:
    """Emit expr in the current BlockBuilder under name; a tensor result becomes a Tensor, a
    tuple result a tuple of them (fields named name.0, name.1, ...)."""
    bb = BlockBuilder.current()
    if bb is None:
        raise RuntimeError(
            f"nn.op: {name!r} must be called while a module is being exported "
            "(inside export_tvm/jit), where a BlockBuilder is active"
        )
    if not isinstance(expr, rx.DataflowVar):
        expr = bb.emit(expr, name)
    sinfo = expr.struct_info
    if isinstance(sinfo, TensorStructInfo):
        if sinfo.ndim < 0 or sinfo.shape is None:
            # e.g. a broadcast of two different symbolic dims: a parameter's str dim is not the
            # same variable as an argument's dim of the same name
            raise TypeError(
                f"nn.op: the result of {name!r} has no known shape ({sinfo}); its operands' "
                "shapes do not determine it (are two symbolic dims different variables?)"
            )
        return Tensor(_expr=expr)
    if isinstance(sinfo, TupleStructInfo):
        return tuple(
            wrap_nested(rx.TupleGetItem(expr, i), name=f"{name}.{i}")
            for i in range(len(sinfo.fields))
        )
    raise TypeError(f"nn.wrap_nested: unsupported result struct info {sinfo} for {name!r}")


def _attribute_finder(
    root: Module, prefix: str, condition_yield: Callable[[Any], bool], _above: tuple = ()
):
    """(dotted name, item) for every item under root (recursively) that condition_yield accepts.
    A module shared by two attributes is visited under each name (as upstream); a module that
    contains itself is a ValueError, not endless recursion."""
    if any(root is m for m in _above):
        raise ValueError(
            f"nn.Module: submodule {prefix.rstrip('.')!r} ({type(root).__name__}) contains "
            "itself; a module tree cannot have cycles"
        )
    _above = (*_above, root)
    if isinstance(root, ParameterList):
        for i, param in enumerate(root):
            if condition_yield(param):
                yield f"{prefix}{i}", param
        return
    if isinstance(root, ParameterDict):
        for key, param in root.items():
            if condition_yield(param):
                yield prefix + key, param
        return
    if isinstance(root, ModuleList):
        for i, sub in enumerate(root):
            yield from _attribute_finder(sub, f"{prefix}{i}.", condition_yield, _above)
    elif isinstance(root, ModuleDict):
        for key, sub in root.items():
            yield from _attribute_finder(sub, f"{prefix}{key}.", condition_yield, _above)
    for name, item in root.__dict__.items():
        if condition_yield(item):
            yield prefix + name, item
        elif isinstance(item, Module):
            yield from _attribute_finder(item, f"{prefix}{name}.", condition_yield, _above)
