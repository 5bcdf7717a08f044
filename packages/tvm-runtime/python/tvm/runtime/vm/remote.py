"""The VM over RPC: the serving side builds a VirtualMachine on a module it loaded, and the
client's VirtualMachine(remote_module, remote_device) calls its functions through the session
(as upstream's VirtualMachine(rpc_mod, remote.cpu()))."""

from __future__ import annotations

# The global function the serving side answers with (registered by tvm.runtime at import).
LOAD_EXECUTABLE = "vm.remote.load_executable"
# tvm.rpc numbers a session's devices base_type + RPC_DEVICE_MASK * (session index + 1).
RPC_DEVICE_MASK = 128


def load_executable(module, device_type: int, device_id: int, memory_cfg: str = ""):
    """Serving side: a function name -> the function of a VM over `module` on that device."""
    from ..device import device
    from .virtual_machine import VirtualMachine

    vm = VirtualMachine(module, device(int(device_type), int(device_id)), memory_cfg or None)
    return lambda name: vm[str(name)]


def is_remote_module(rt_mod) -> bool:
    # Duck-typed: tvm-runtime cannot import tvm.rpc (it sits above the runtime).
    return hasattr(rt_mod, "_rpc_session") and hasattr(rt_mod, "get_function")


def connect_remote(rt_mod, devices, memory_cfg):
    """Client side: the serving side's function getter for a VM over rt_mod."""
    dev = devices[0]
    code = int(dev.device_type)
    if code < RPC_DEVICE_MASK:
        raise ValueError(
            "VirtualMachine: argument 'device' must be a device of the module's RPC session "
            f"(remote.cpu()), got the local {dev}"
        )
    session = rt_mod._rpc_session
    make = session.get_function(LOAD_EXECUTABLE)
    return make(rt_mod, code % RPC_DEVICE_MASK, int(dev.device_id), memory_cfg or "")
