"""LocalSession: serves session requests in this process (the end of every chain)."""

import os
import shutil
import tempfile

import tvm_ffi
from tvm import runtime

from .codec import Handle
from .protocol import DEVICE_EXISTS, HANDLE_KIND_NAMES, HandleKind
from .session import RPCSession, check_device_op
from .workspaces import WORKSPACE_ROOT_VAR

_PLAIN = (type(None), bool, int, float, str, bytes, bytearray)
_FUNCTION = HandleKind.FUNCTION


def _time_evaluator(
    module, name, device, number, repeat, min_repeat_ms, cooldown_interval_ms, repeats_to_cooldown
):
    """Remote side of RemoteModule.time_evaluator: returns a function giving seconds per run."""
    evaluate = module.time_evaluator(
        name, device, number, repeat, min_repeat_ms, cooldown_interval_ms, repeats_to_cooldown
    )
    return lambda *args: list(evaluate(*args).results)


# Functions every LocalSession serves on top of the global registry.
BUILTIN_FUNCTIONS = {
    "rpc.GetPid": os.getpid,
    "rpc.TimeEvaluator": _time_evaluator,
}


# Global functions that load a file: a confined session resolves their path argument in
# its workspace, like load_module, so no client reaches files outside it through them.
_LOADERS = ("ffi.ModuleLoadFromFile",)
_LOADER_PREFIXES = ("ffi.Module.load_from_file.",)


class LocalSession(RPCSession):
    """A session whose objects live in this process.

    ``workspace`` is the folder uploads go to (a new temporary folder by default, removed
    on close; a given folder is made on first use and left in place). ``confined``: what a
    server serves to its clients; functions that load files (ffi.ModuleLoadFromFile) then
    take paths inside the workspace only, as load_module does.
    """

    def __init__(self, workspace=None, *, confined=False):
        super().__init__()
        self._objects = {}
        # Global functions are looked up once: a name keeps its handle while any reference
        # to it is alive (each GET_FUNCTION reply is one reference, each FREE drops one).
        self._named = {}  # name -> handle id
        self._refs = {}  # handle id -> references handed out
        self._next_id = 1
        self._workspace = workspace
        self._own_workspace = workspace is None
        self._confined = confined

    @property
    def workspace(self):
        """The folder uploads go to; a temporary one is made on first use (it costs ms)."""
        if self._workspace is None:
            # Under a server's root when a server started us, so the server removes it even
            # if this process is killed.
            root = os.environ.get(WORKSPACE_ROOT_VAR)
            self._workspace = tempfile.mkdtemp(
                prefix="tvm-rpc-", dir=root if root and os.path.isdir(root) else None
            )
        elif not self._own_workspace and not os.path.isdir(self._workspace):
            os.makedirs(self._workspace, exist_ok=True)
        return self._workspace

    # -- handles ------------------------------------------------------------------------
    def _new_handle(self, kind, obj):
        hid = self._next_id
        self._next_id += 1
        self._objects[hid] = (kind, obj)
        if kind != HandleKind.TENSOR:
            return Handle(kind, hid)
        dev = obj.device
        return Handle(
            kind, hid, tuple(obj.shape), str(obj.dtype), (int(dev.device_type), int(dev.device_id))
        )

    def _lookup(self, hid, kind, func):
        entry = self._objects.get(hid)
        if entry is None or entry[0] != kind:
            raise ValueError(
                f"{func}: no {HANDLE_KIND_NAMES[kind]} with handle {hid} in this "
                "session (freed, or from another session)"
            )
        return entry[1]

    def _resolve(self, value):
        """Wire value -> local object (Handles looked up)."""
        t = type(value)
        if t is Handle:
            return self._lookup(value.id, value.kind, "LocalSession.call")
        if t is list:
            return [self._resolve(v) for v in value]
        if t is dict:
            return {self._resolve(k): self._resolve(v) for k, v in value.items()}
        return value

    def _export(self, value):
        """Local object -> wire value (functions, modules, tensors and objects get Handles)."""
        t = type(value)
        if t in _PLAIN:
            return value
        if t is list or t is tuple:
            return [self._export(v) for v in value]
        if t is dict:
            return {self._export(k): self._export(v) for k, v in value.items()}
        if isinstance(value, (tvm_ffi.dtype, tvm_ffi.Device, tvm_ffi.Shape)):
            return value
        if isinstance(value, tvm_ffi.Array):
            return [self._export(v) for v in value]
        if isinstance(value, tvm_ffi.Map):
            return {self._export(k): self._export(v) for k, v in value.items()}
        if isinstance(value, tvm_ffi.Tensor):
            return self._new_handle(HandleKind.TENSOR, value)
        if isinstance(value, tvm_ffi.Module):
            return self._new_handle(HandleKind.MODULE, value)
        if callable(value):
            return self._new_handle(HandleKind.FUNCTION, value)
        if isinstance(value, tvm_ffi.Object):
            return self._new_handle(HandleKind.OBJECT, value)
        return value  # NumPy arrays travel inline; anything else fails in the encoder

    # -- the session interface ----------------------------------------------------------
    def get_function_handle(self, name):
        hid = self._named.get(name)
        if hid is not None:
            self._refs[hid] += 1
            return Handle(HandleKind.FUNCTION, hid)
        func = BUILTIN_FUNCTIONS.get(name) or tvm_ffi.get_global_func(name, allow_missing=True)
        if func is None:
            return None
        if self._confined and (name in _LOADERS or name.startswith(_LOADER_PREFIXES)):
            func = self._confine_path(func, name)
        handle = self._new_handle(HandleKind.FUNCTION, func)
        self._named[name] = handle.id
        self._refs[handle.id] = 1
        self._objects[handle.id] = (HandleKind.FUNCTION, func, name)
        return handle

    def call_handle(self, function_id, args):
        entry = self._objects.get(function_id)
        if entry is None or entry[0] != _FUNCTION:
            self._lookup(function_id, HandleKind.FUNCTION, "LocalSession.call")  # raises
        if args:
            args = [a if type(a) in _PLAIN else self._resolve(a) for a in args]
        result = entry[1](*args)
        return result if result is None or type(result) in _PLAIN else self._export(result)

    def free_handles(self, handles):
        for _, hid in handles:
            self._free(hid)

    def _free(self, hid):
        refs = self._refs.get(hid)
        if refs is not None:
            if refs > 1:
                self._refs[hid] = refs - 1
                return
            del self._refs[hid]
            entry = self._objects.get(hid)
            self._named.pop(entry[2] if entry is not None else None, None)
        self._objects.pop(hid, None)

    def _release(self, handle):
        self._free(handle.id)  # in-process: nothing to send, free at once

    def tensor_empty(self, shape, dtype, device):
        dev = runtime.device(*device)
        return self._new_handle(HandleKind.TENSOR, runtime.empty(shape, dtype, dev))

    def _tensor(self, tensor_id, func):
        return self._lookup(tensor_id, HandleKind.TENSOR, func)

    def tensor_bytes(self, tensor_id, offset, nbytes):
        tensor = self._tensor(tensor_id, "LocalSession.tensor_bytes")
        if int(tensor.device.device_type) != runtime.device_api.CPU:
            return None
        return _byte_window(runtime.device_api.host_view(tensor), offset, nbytes)

    def copy_to_remote(self, tensor_id, offset, data):
        tensor = self._tensor(tensor_id, "LocalSession.copy_to_remote")
        host = _host_copy(tensor)
        _byte_window(runtime.device_api.host_view(host), offset, data.nbytes)[:] = data
        if host is not tensor:
            runtime.copy_tensor(tensor, host)

    def copy_from_remote(self, tensor_id, offset, out):
        tensor = self._tensor(tensor_id, "LocalSession.copy_from_remote")
        host = _host_copy(tensor)
        out[:] = _byte_window(runtime.device_api.host_view(host), offset, out.nbytes)

    def device_api(self, op, device):
        check_device_op(op)
        dev = runtime.device(*device)
        if op == DEVICE_EXISTS:
            return runtime.device_exists(dev)
        runtime.get_device_api(dev).sync(dev)
        return None

    def _path(self, path, func):
        if not isinstance(path, str) or not path:
            raise ValueError(f"{func}: argument 'path' must be a non-empty str, got {path!r}")
        normal = os.path.normpath(path)
        if os.path.isabs(normal) or normal == ".." or normal.startswith(".." + os.sep):
            raise ValueError(f"{func}: path {path!r} must stay inside the session workspace")
        return os.path.join(self.workspace, normal)

    def _confine_path(self, func, name):
        def load_in_workspace(path, *args):
            return func(self._path(path, name), *args)

        return load_in_workspace

    def write_file(self, path, data, append):
        full = self._path(path, "upload")
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "ab" if append else "wb") as f:
            f.write(data)

    def read_file(self, path, offset, nbytes):
        full = self._path(path, "download")
        if not os.path.isfile(full):
            raise FileNotFoundError(f"download: no file {path!r} in the session workspace")
        with open(full, "rb") as f:
            f.seek(offset)
            return f.read(nbytes)

    def remove_file(self, path):
        full = self._path(path, "remove")
        if os.path.isdir(full):
            shutil.rmtree(full)
        elif os.path.exists(full):
            os.remove(full)
        else:
            raise FileNotFoundError(f"remove: no file {path!r} in the session workspace")

    def load_module_handle(self, path):
        module = runtime.load_module(self._path(path, "load_module"))
        return self._new_handle(HandleKind.MODULE, module)

    def module_get_function_handle(self, module_id, name):
        module = self._lookup(module_id, HandleKind.MODULE, "Module.get_function")
        func = module.get_function(name, allow_missing=True)
        return None if func is None else self._new_handle(HandleKind.FUNCTION, func)

    def close(self):
        self._objects.clear()
        self._named.clear()
        self._refs.clear()
        if self._own_workspace and self._workspace is not None:
            shutil.rmtree(self._workspace, ignore_errors=True)
            self._workspace = None


def _host_copy(tensor):
    if int(tensor.device.device_type) == runtime.device_api.CPU:
        return tensor
    host = runtime.empty(tuple(tensor.shape), str(tensor.dtype), runtime.cpu(0))
    runtime.copy_tensor(host, tensor)
    return host


def _byte_window(array, offset, nbytes):
    """The bytes [offset, offset + nbytes) of a C-contiguous NumPy array, as a memoryview."""
    if not array.flags.c_contiguous:
        raise ValueError("tensor copy: only C-contiguous tensors can be copied over RPC")
    import numpy as np

    flat = memoryview(array.reshape(-1).view(np.uint8))
    if offset < 0 or nbytes < 0 or offset + nbytes > flat.nbytes:
        raise ValueError(
            f"tensor copy: bytes [{offset}, {offset + nbytes}) are outside the "
            f"tensor's {flat.nbytes} bytes"
        )
    return flat[offset : offset + nbytes]
