"""Devices and the device-API registry."""

from __future__ import annotations

import pytest
import tvm
from tvm import runtime


def test_device_constructors():
    assert (tvm.cpu(0).device_type, tvm.cpu(0).device_id) == (1, 0)
    assert (tvm.cuda(1).device_type, tvm.cuda(1).device_id) == (2, 1)
    assert (tvm.device("cuda:3").device_type, tvm.device("cuda:3").device_id) == (2, 3)
    assert tvm.device("cpu", 0).device_type == 1
    assert tvm.device(2, 1).device_id == 1
    dev = tvm.cpu(0)
    assert tvm.device(dev) is dev
    assert isinstance(dev, runtime.Device)


@pytest.mark.parametrize(
    "args, exc, text",
    [
        (("not_a_device",), ValueError, "unknown device name 'not_a_device'"),
        (("cpu", -1), ValueError, "'dev_id' must be an int >= 0"),
        (("cuda:x",), ValueError, "cannot read a device id from 'cuda:x'"),
        ((1.5,), TypeError, "'dev_type' must be a str, int or Device"),
    ],
)
def test_bad_devices(args, exc, text):
    with pytest.raises(exc, match=text):
        tvm.device(*args)


def test_cpu_api_registered_and_exists():
    assert isinstance(runtime.get_device_api(tvm.cpu(0)), runtime.DeviceAPI)
    assert runtime.device_exists(tvm.cpu(0))
    assert not runtime.device_exists(tvm.cpu(3))


def test_unregistered_device_type():
    dev = tvm.device(14, 0)
    assert not runtime.device_exists(dev)
    with pytest.raises(RuntimeError, match="no device API registered for .*device type 14"):
        runtime.get_device_api(dev)


def test_register_named_device_api():
    class HostAliasAPI(runtime.DeviceAPI):
        def exists(self, device_id):
            return device_id < 2

    runtime.register_device_api(15, HostAliasAPI(), name="testalias")
    dev = tvm.device("testalias", 1)
    assert (dev.device_type, dev.device_id) == (15, 1)
    assert runtime.device_exists(dev) and not runtime.device_exists(tvm.device("testalias:2"))
    with pytest.raises(ValueError, match="device type 15 already has HostAliasAPI"):
        runtime.register_device_api(15, HostAliasAPI())
    with pytest.raises(TypeError, match="'api' must be a DeviceAPI"):
        runtime.register_device_api(16, object())
    with pytest.raises(ValueError, match="'name' must be a non-empty str without ':'"):
        runtime.register_device_name("a:b", 16)


def test_cuda_without_driver_is_not_an_error():
    # Either a driver is present (exists answers) or device_exists is simply False.
    assert runtime.device_exists(tvm.cuda(10_000)) is False
