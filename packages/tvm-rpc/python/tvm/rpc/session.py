"""RPCSession: the session interface every transport implements, plus the user-facing API.

Handles (codec.Handle) name objects that live on the serving side of a session. A session's
wire-level methods take and return "wire values": plain values, Handles and NumPy arrays.
The user-facing methods (get_function, device, upload, load_module, ...) wrap Handles into
remote proxies (see remote.py) and unwrap them again on the way out.
"""

import os
import threading

import tvm_ffi

from . import remote
from .codec import Handle
from .protocol import BULK_CHUNK_SIZE, DEVICE_EXISTS, DEVICE_SYNC


class RPCSession:
    """Interface of a session plus the user API built on it."""

    def __init__(self):
        # Handles of proxies that died; freed before the next request (never re-entrantly).
        self._pending_lock = threading.Lock()
        self._pending_frees = []

    # -- the session interface (wire values) --------------------------------------------
    def get_function_handle(self, name):
        """Handle of the global function ``name`` on the serving side, or None."""
        raise NotImplementedError

    def call_handle(self, function_id, args):
        """Call the function behind ``function_id`` with wire-value ``args``."""
        raise NotImplementedError

    def free_handles(self, handles):
        """Release (kind, id) pairs; no reply is awaited."""
        raise NotImplementedError

    def tensor_empty(self, shape, dtype, device):
        """Allocate a tensor on ``device`` ((device_type, device_id)); returns its Handle."""
        raise NotImplementedError

    def copy_to_remote(self, tensor_id, offset, data):
        """Write bytes ``data`` (a memoryview) into the tensor at byte ``offset``."""
        raise NotImplementedError

    def copy_from_remote(self, tensor_id, offset, out):
        """Fill the writable memoryview ``out`` from the tensor's bytes at ``offset``."""
        raise NotImplementedError

    def tensor_bytes(self, tensor_id, offset, nbytes):
        """A memoryview straight onto the tensor's bytes, or None when there is no such view
        (the endpoint then moves data through copy_to_remote / copy_from_remote)."""
        return None

    def device_api(self, op, device):
        """Device query ``op`` (protocol.DEVICE_*) on (device_type, device_id)."""
        raise NotImplementedError

    def write_file(self, path, data, append):
        raise NotImplementedError

    def read_file(self, path, offset, nbytes):
        """Up to ``nbytes`` bytes of the file from ``offset`` (fewer at its end)."""
        raise NotImplementedError

    def remove_file(self, path):
        raise NotImplementedError

    def load_module_handle(self, path):
        raise NotImplementedError

    def module_get_function_handle(self, module_id, name):
        raise NotImplementedError

    def close(self):
        """End the session; further calls raise."""

    # -- user API -----------------------------------------------------------------------
    def get_function(self, name, allow_missing=False):
        """The remote global function ``name`` as a callable."""
        if not isinstance(name, str):
            raise TypeError(
                f"{type(self).__name__}.get_function: argument 'name' must be a str, "
                f"got {type(name).__name__}"
            )
        handle = self.get_function_handle(name)
        if handle is None:
            if allow_missing:
                return None
            from .errors import raised_class

            raise raised_class("ValueError")(
                f"{type(self).__name__}.get_function: no function named {name!r} on the remote side"
            )
        return self._wrap(handle)

    def device(self, dev_type, dev_id=0):
        """A Device on the remote side, usable with tvm.runtime.tensor/empty."""
        return remote.remote_device(self, dev_type, dev_id)

    def cpu(self, dev_id=0):
        return self.device("cpu", dev_id)

    def cuda(self, dev_id=0):
        return self.device("cuda", dev_id)

    def upload(self, data, target=None):
        """Write ``data`` (a local file path, bytes or bytearray) to ``target`` in the remote
        workspace (default: the local file's name)."""
        if isinstance(data, (str, os.PathLike)):
            path = os.fspath(data)
            target = os.path.basename(path) if target is None else target
            with open(path, "rb") as f:
                data = f.read()
        elif not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(
                f"{type(self).__name__}.upload: argument 'data' must be a path, bytes "
                f"or bytearray, got {type(data).__name__}"
            )
        if not isinstance(target, str) or not target:
            raise ValueError(
                f"{type(self).__name__}.upload: argument 'target' must be a "
                f"non-empty str when 'data' holds bytes, got {target!r}"
            )
        view = memoryview(data).cast("B")
        self.write_file(target, view[:BULK_CHUNK_SIZE], False)
        for start in range(BULK_CHUNK_SIZE, view.nbytes, BULK_CHUNK_SIZE):
            self.write_file(target, view[start : start + BULK_CHUNK_SIZE], True)

    def download(self, path):
        """The contents of the remote workspace file ``path`` as a bytearray."""
        out = bytearray()
        while True:
            chunk = self.read_file(path, len(out), BULK_CHUNK_SIZE)
            out += chunk
            if len(chunk) < BULK_CHUNK_SIZE:
                return out

    def remove(self, path):
        """Remove a file of the remote workspace."""
        self.remove_file(path)

    def load_module(self, path):
        """Load the uploaded library ``path`` (relative to the remote workspace)."""
        return self._wrap(self.load_module_handle(path))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- wrapping handles into proxies --------------------------------------------------
    def _wrap(self, value):
        """Wire value -> user value: Handles become remote proxies."""
        t = type(value)
        if t is Handle:
            return remote.make_proxy(self, value)
        if t is list:
            return [self._wrap(v) for v in value]
        if t is dict:
            return {k: self._wrap(v) for k, v in value.items()}
        if isinstance(value, tvm_ffi.Device):
            return remote.remote_device(self, int(value.device_type), int(value.device_id))
        return value

    def _unwrap(self, value):
        """User value -> wire value: proxies of this session become Handles."""
        handle = getattr(value, "_rpc_handle", None)
        if handle is not None:
            if value._rpc_session is not self:
                raise ValueError(
                    "tvm.rpc: a remote object of another session cannot be passed to this session"
                )
            return handle
        t = type(value)
        if t is list or t is tuple:
            return [self._unwrap(v) for v in value]
        if t is dict:
            return {self._unwrap(k): self._unwrap(v) for k, v in value.items()}
        if isinstance(value, tvm_ffi.Device) and int(value.device_type) >= remote.RPC_DEVICE_MASK:
            return tvm_ffi.Device(*remote.base_device(self, value, "tvm.rpc call"))
        return value

    def _release(self, handle):
        """Called when a proxy dies: free its handle (never from inside another request)."""
        with self._pending_lock:
            self._pending_frees.append((handle.kind, handle.id))

    def _take_pending_frees(self):
        with self._pending_lock:
            pending, self._pending_frees = self._pending_frees, []
        return pending


def check_device_op(op):
    if op not in (DEVICE_EXISTS, DEVICE_SYNC):
        raise ValueError(
            f"device_api: unknown operation {op!r}; expected {DEVICE_EXISTS!r} or {DEVICE_SYNC!r}"
        )
