"""tvm.relax.testing.nn: small neural networks built into a BlockBuilder function, as upstream."""

from __future__ import annotations

import tvm
from tvm import relax, topi


def emit(expr, name_hint: str = "") -> relax.Var:
    """Bind expr in the current BlockBuilder."""
    return _builder("emit").emit(expr, name_hint=name_hint)


def emit_te(func, *args, **kwargs) -> relax.Var:
    """Bind func (a te computation) called on args in the current BlockBuilder."""
    return _builder("emit_te").emit_te(func, *args, **kwargs)


def _builder(who: str) -> relax.BlockBuilder:
    builder = relax.BlockBuilder.current()
    if builder is None:
        raise RuntimeError(
            f"tvm.relax.testing.nn.{who}: no BlockBuilder function is being built "
            "(use it inside `with bb.function(...)`)"
        )
    return builder


def _tensor_var(cls, shape, dtype, name):
    if not isinstance(shape, (list, tuple)):
        raise TypeError(
            f"tvm.relax.testing.nn.{cls}: the shape is expected to be a list or a tuple, got "
            f"{type(shape).__name__}"
        )
    return _builder(cls).get_unique_name(name), relax.TensorStructInfo(list(shape), dtype)


class Placeholder(relax.Var):
    """A function input: a tensor of shape and dtype."""

    _type_key = "relax.Var"  # a Var to every pass, printer and serializer

    def __init__(self, shape, dtype="float32", name="data"):
        super().__init__(*_tensor_var("Placeholder", shape, dtype, name))


class Parameter(relax.Var):
    """A trainable parameter of a Module: a tensor of shape and dtype."""

    _type_key = "relax.Var"

    def __init__(self, shape, dtype="float32", name="param"):
        super().__init__(*_tensor_var("Parameter", shape, dtype, name))


class Module:
    """The base of the layers: parameters() lists the Parameters it holds (its sub-modules'
    too); calling it calls forward."""

    def parameters(self) -> list[Parameter]:
        return _unpack_params(self.__dict__)

    def forward(self, input):  # noqa: A002  (upstream's name)
        raise NotImplementedError(f"{type(self).__name__}.forward is not defined")

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)


def _unpack_params(value) -> list:
    if isinstance(value, Parameter):
        return [value]
    if isinstance(value, Module):
        return value.parameters()
    if isinstance(value, dict):
        return [p for item in value.values() for p in _unpack_params(item)]
    if isinstance(value, (list, tuple)):
        return [p for item in value for p in _unpack_params(item)]
    return []


def init_params(mod: tvm.IRModule) -> list:
    """Zero tensors for the parameters of mod["main"] (every parameter but those named
    data...), in order."""
    import numpy as np

    params = []
    for var in mod["main"].params:
        if var.name_hint.startswith("data"):
            continue
        shape = getattr(var.struct_info, "shape", None)
        values = getattr(shape, "values", None)
        if values is None or not all(isinstance(v, tvm.tir.IntImm) for v in values):
            raise TypeError(
                f"init_params: cannot initialize the parameter {var.name_hint!r} of unknown shape"
            )
        dims = [int(v.value) for v in values]
        params.append(tvm.runtime.tensor(np.zeros(dims, dtype=var.struct_info.dtype)))
    return params


class Sequential(Module):
    """The modules applied one after another."""

    def __init__(self, *modules: Module):
        self.modules = modules

    def forward(self, input):  # noqa: A002
        for module in self.modules:
            input = module(input)  # noqa: A001
        return input


class ReLU(Module):
    def forward(self, input):  # noqa: A002
        return emit(relax.op.nn.relu(input))


class LogSoftmax(Module):
    def forward(self, input):  # noqa: A002
        return emit(relax.op.nn.log_softmax(input))


class Linear(Module):
    """y = x W^T + b, W of shape (out_features, in_features)."""

    def __init__(self, in_features: int, out_features: int, dtype: str = "float32", bias=True):
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter((out_features, in_features), dtype, name="linear_weight")
        self.bias = Parameter((out_features,), dtype, name="linear_bias") if bias else None

    def forward(self, input):  # noqa: A002
        y = emit_te(topi.nn.dense, input, self.weight)  # x W^T
        if self.bias is not None:
            y = emit_te(topi.add, y, self.bias)
        return y


__all__ = [
    "Linear",
    "LogSoftmax",
    "Module",
    "Parameter",
    "Placeholder",
    "ReLU",
    "Sequential",
    "emit",
    "emit_te",
    "init_params",
]
