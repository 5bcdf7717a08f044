"""tvm.relax.testing.vm: check_saved_func and the test.vm.* packed functions upstream's Relax
VM tests call (registered when this module is imported)."""

from __future__ import annotations

import numpy as np
import tvm_ffi


def _register(name: str):
    # override: a test file may have registered the same helper itself.
    return lambda f: tvm_ffi.register_global_func(name, f, override=True)


def _tensor(array):
    from tvm.runtime import tensor

    return tensor(np.asarray(array))


@_register("test.vm.move")
def move(src):
    return src


@_register("test.vm.add")
def add(a, b):
    return _tensor(a.numpy() + b.numpy())


@_register("test.vm.mul")
def mul(a, b):
    return _tensor(a.numpy() * b.numpy())


@_register("test.vm.equal_zero")
def equal_zero(a):
    return _tensor(np.all(a.numpy() == 0))


@_register("test.vm.subtract_one")
def subtract_one(a):
    return _tensor(np.subtract(a.numpy(), 1))


@_register("test.vm.identity")
def identity_packed(a, b):
    b.copyfrom(a.numpy())


@_register("test.vm.tile")
def tile_packed(a, b):
    b.copyfrom(np.tile(a.numpy(), (1, 2)))


@_register("test.vm.add_scalar")
def add_scalar(a, b):
    return a + b


@_register("test.vm.get_device_id")
def get_device_id(device):
    return device.index


@_register("test.vm.check_if_defined")
def check_if_defined(obj) -> bool:
    return obj is not None


def check_saved_func(vm, func_name: str, *inputs):
    """vm[func_name](*inputs), checked against the closure vm.save_function makes of the same
    call (the function must return a tensor and give the same result twice)."""
    import tvm.testing

    saved_name = f"{func_name}_saved"
    vm.save_function(func_name, saved_name, *inputs)
    res1 = vm[func_name](*inputs)
    res2 = vm[saved_name]()
    tvm.testing.assert_allclose(res1.numpy(), res2.numpy(), rtol=1e-7, atol=1e-7)
    return res1
