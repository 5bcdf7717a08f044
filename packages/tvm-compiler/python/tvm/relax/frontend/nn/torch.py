"""Module.jit's results: a compiled nn.Module's VM with its bound parameters, called with torch
tensors (TorchModule, upstream's) or with NumPy/TVM tensors (TvmModule, torch-free)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import tvm
import tvm_ffi
from tvm.runtime.vm import VirtualMachine

from . import spec as _spec


def compile_module(module, spec, device, pipeline, debug: bool):
    """Export module's spec, build it for device's target and load it: (ModuleSpec, VM, the
    parameters' data on device, the device)."""
    from ...vm_build import build
    from .exporter import Exporter

    if isinstance(device, str):
        try:
            device = tvm.runtime.device(device)
        except Exception as err:
            raise ValueError(f"nn.Module.jit: unknown device {device!r}") from err
    if not isinstance(device, tvm.runtime.Device):
        raise TypeError(
            "nn.Module.jit: device must be a str or tvm.runtime.Device, "
            f"got {type(device).__name__}"
        )
    if device.dlpack_device_type() != tvm.cpu().dlpack_device_type():
        raise ValueError(
            f"nn.Module.jit: device {device} is not supported; this stack compiles Relax "
            "modules for the CPU (device='cpu')"
        )
    spec = _spec.ModuleSpec.from_raw(spec, module)
    mod, params, _ = Exporter(debug=debug).build(spec)
    missing = [name for name, p in params if p.data is None]
    if missing:
        raise ValueError(
            f"nn.Module.jit: parameters are not set to any concrete values: {', '.join(missing)}"
        )
    exe = build(mod, target="llvm", relax_pipeline=pipeline)
    vm = VirtualMachine(exe, device)
    data = [p.data.copyto(device) for _, p in params]
    return spec, vm, data, device


class _JitModule:
    """Calls the VM's functions by method name with the parameters (and effects) appended."""

    spec: _spec.ModuleSpec
    vm: VirtualMachine
    params: list
    effects: Any

    def __init__(self, spec: _spec.ModuleSpec, vm: VirtualMachine, params: list, device=None):
        try:
            self.effects = vm["_initialize_effect"]()
        except AttributeError:
            self.effects = None
        self.spec = spec
        self.vm = vm
        self.params = params
        self.device = device if device is not None else tvm.cpu()

    def __getitem__(self, method_name: str) -> Callable:
        specs = dict(zip(self.spec.method_names, self.spec.method_specs))
        if method_name not in specs:
            raise ValueError(f"Method `{method_name}` is not found in the module spec. {self.spec}")
        method_spec = specs[method_name]
        method = self.vm[method_name]

        def call(*args):
            if len(args) != len(method_spec.arg_names):
                raise TypeError(
                    f"{method_name}: expected {len(method_spec.arg_names)} arguments "
                    f"({', '.join(method_spec.arg_names)}), got {len(args)}. "
                    f"The spec is: {method_spec}"
                )
            converted = [
                self._to_tvm(f"{method_name}: argument `{n}`", s, a)
                for n, s, a in zip(method_spec.arg_names, method_spec.arg_specs, args)
            ]
            if self.effects is not None:
                outputs, self.effects = method(*converted, *self.effects, *self.params)
            else:
                outputs = method(*converted, *self.params)
            return self._from_tvm(outputs)

        call.__name__ = method_name
        return call

    def _to_tvm(self, where: str, arg_spec, arg):
        if isinstance(arg_spec, _spec.Tensor):
            return self._tensor_in(where, arg)
        if isinstance(arg_spec, _spec.Int):
            if isinstance(arg, bool) or not isinstance(arg, int):
                raise TypeError(f"{where} must be an int, got {type(arg).__name__}")
            return tvm_ffi.Shape([arg])
        if isinstance(arg_spec, _spec.Tuple):
            expected = len(arg_spec.elements)
            if not isinstance(arg, (tuple, list)) or len(arg) != expected:
                got = (
                    f"{type(arg).__name__} of {len(arg)}"
                    if isinstance(arg, (tuple, list))
                    else type(arg).__name__
                )
                raise TypeError(f"{where} must be a tuple or list of {expected}, got {got}")
            return [
                self._to_tvm(f"{where}[{i}]", s, arg[i]) for i, s in enumerate(arg_spec.elements)
            ]
        raise TypeError(f"{where}: unsupported spec {arg_spec!r}")

    def _from_tvm(self, value):
        if isinstance(value, (list, tuple, tvm_ffi.Array)):
            return [self._from_tvm(v) for v in value]
        if isinstance(value, tvm.runtime.Tensor):
            return self._tensor_out(value)
        if isinstance(value, tvm_ffi.Shape):
            return list(value)
        raise TypeError(f"unsupported result type {type(value).__name__}")


class TorchModule(_JitModule):
    """Methods take and return torch tensors (an int for an nn.spec.Int argument); needs torch."""

    def _tensor_in(self, where, arg):
        torch = _torch()
        if not isinstance(arg, torch.Tensor):
            raise TypeError(f"{where} must be a torch.Tensor, got {type(arg).__name__}")
        return tvm_ffi.from_dlpack(arg.contiguous())

    def _tensor_out(self, value):
        return _torch().utils.dlpack.from_dlpack(value)


class TvmModule(_JitModule):
    """Methods take numpy arrays, tvm.runtime.Tensors or DLPack tensors and return
    tvm.runtime.Tensors (a list for a tuple result): jit(..., out_format="tvm"). Calling the
    module itself runs "forward"."""

    def __call__(self, *args):
        return self["forward"](*args)

    def _tensor_in(self, where, arg):
        import numpy as np

        if isinstance(arg, tvm.runtime.Tensor):
            return arg
        if isinstance(arg, np.ndarray):
            return tvm.runtime.tensor(arg, self.device)
        if hasattr(arg, "__dlpack__"):
            return tvm_ffi.from_dlpack(arg)
        raise TypeError(
            f"{where} must be a numpy.ndarray, tvm.runtime.Tensor or DLPack tensor, "
            f"got {type(arg).__name__}"
        )

    def _tensor_out(self, value):
        return value


def _torch():
    try:
        import torch
    except ImportError as err:
        raise ImportError(
            'nn.Module.jit(out_format="torch") needs PyTorch, which is not installed; '
            'use out_format="tvm" for a module that takes NumPy arrays or tvm tensors'
        ) from err
    return torch
