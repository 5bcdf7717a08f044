"""Proxies for objects living on the serving side of a session: devices, tensors, functions,
modules. Remote devices are runtime Devices whose type carries the session's index (as
device_type + 128 * (index + 1)), with a DeviceAPI registered for them, so
tvm.runtime.tensor / empty / copy_tensor work on them unchanged."""

import threading
import weakref

import tvm_ffi
from tvm import runtime
from tvm.runtime.device_api import DeviceAPI, get_device_api, host_view

from .codec import Handle
from .protocol import DEVICE_EXISTS, DEVICE_SYNC, HandleKind

RPC_DEVICE_MASK = 128
# Values that cross unchanged (no proxies inside): the fast path of a call.
_PLAIN = frozenset((type(None), bool, int, float, str, bytes))

_SESSIONS = {}  # index -> weakref to the session
_SESSIONS_LOCK = threading.Lock()


def session_index(session):
    index = getattr(session, "_rpc_index", None)
    if index is not None:
        return index
    with _SESSIONS_LOCK:
        index = 0
        while index in _SESSIONS and _SESSIONS[index]() is not None:
            index += 1
        _SESSIONS[index] = weakref.ref(session)
        session._rpc_index = index
        session._rpc_device_types = set()
    return index


def remote_device(session, dev_type, dev_id=0):
    """The runtime Device naming device (dev_type, dev_id) of ``session``'s remote side."""
    base = runtime.device(dev_type, dev_id)
    base_type = int(base.device_type)
    if base_type >= RPC_DEVICE_MASK:
        raise ValueError(f"{type(session).__name__}.device: {base} is already a remote device")
    index = session_index(session)
    code = base_type + RPC_DEVICE_MASK * (index + 1)
    if code not in session._rpc_device_types:
        runtime.register_device_api(code, RemoteDeviceAPI(session, base_type), override=True)
        session._rpc_device_types.add(code)
    return runtime.Device(code, int(base.device_id))


def split_remote_device(dev):
    """(session, (base device_type, device_id)) of a remote Device, or (None, None)."""
    code = int(dev.device_type)
    if code < RPC_DEVICE_MASK:
        return None, None
    ref = _SESSIONS.get(code // RPC_DEVICE_MASK - 1)
    session = ref() if ref is not None else None
    return session, (code % RPC_DEVICE_MASK, int(dev.device_id))


def base_device(session, dev, func):
    """The session-side (device_type, device_id) of remote Device ``dev`` of ``session``."""
    owner, base = split_remote_device(dev)
    if owner is None:
        raise ValueError(f"{func}: {dev} is not a remote device (use sess.cpu(), sess.device())")
    if owner is not session:
        raise ValueError(f"{func}: {dev} belongs to another RPC session")
    return base


class RemoteDeviceAPI(DeviceAPI):
    """Memory of one device type of one session, reached over the session."""

    def __init__(self, session, base_type):
        self._session = weakref.ref(session)
        self._base_type = base_type

    def session(self):
        session = self._session()
        if session is None:
            from tvm.error import RPCError

            raise RPCError("tvm.rpc: the session of this remote device is gone")
        return session

    def exists(self, device_id):
        return bool(self.session().device_api(DEVICE_EXISTS, (self._base_type, device_id)))

    def empty(self, shape, dtype, device):
        session = self.session()
        handle = session.tensor_empty(
            tuple(shape), str(dtype), (self._base_type, int(device.device_id))
        )
        return session._wrap(handle)

    def copy(self, dst, src):
        if isinstance(dst, RemoteTensor):
            dst.copyfrom(src)
        else:
            src.copyto(dst)

    def sync(self, device):
        self.session().device_api(DEVICE_SYNC, (self._base_type, int(device.device_id)))


class RemoteObject:
    """An object of the serving side; released when the last proxy dies."""

    __slots__ = ("_rpc_session", "_rpc_handle", "__weakref__")

    def __init__(self, session, handle):
        self._rpc_session = session
        self._rpc_handle = handle

    def __del__(self):
        session = getattr(self, "_rpc_session", None)
        if session is not None:
            session._release(self._rpc_handle)

    def __repr__(self):
        return f"<{type(self).__name__} handle={self._rpc_handle.id}>"


class RemoteFunction(RemoteObject):
    """A function of the serving side; calling it runs it there."""

    __slots__ = ()

    def __call__(self, *args):
        session = self._rpc_session
        if args:
            args = [a if type(a) in _PLAIN else session._unwrap(a) for a in args]
        result = session.call_handle(self._rpc_handle.id, args)
        return result if type(result) in _PLAIN else session._wrap(result)


class RemoteModule(RemoteObject):
    """A module loaded on the serving side."""

    __slots__ = ()

    def get_function(self, name, allow_missing=False):
        session = self._rpc_session
        handle = session.module_get_function_handle(self._rpc_handle.id, name)
        if handle is None:
            if allow_missing:
                return None
            raise AttributeError(f"RemoteModule.get_function: the module has no function {name!r}")
        return session._wrap(handle)

    def __getitem__(self, name):
        return self.get_function(name)

    entry_name = "main"

    def __call__(self, *args):
        """Run the module's entry function (`main`), as a local runtime Module does."""
        entry = self.get_function(self.entry_name, allow_missing=True)
        if entry is None:
            raise AttributeError(
                f"RemoteModule.__call__: the module has no entry function "
                f"{self.entry_name!r}; call one by name, mod['name'](...)"
            )
        return entry(*args)

    def time_evaluator(
        self,
        func_name,
        dev,
        number=10,
        repeat=1,
        min_repeat_ms=0,
        cooldown_interval_ms=0,
        repeats_to_cooldown=1,
    ):
        """A callable that times self[func_name] on the remote side; returns a ProfileResult."""
        session = self._rpc_session
        dev_type, dev_id = base_device(session, dev, "RemoteModule.time_evaluator")
        make = session.get_function("rpc.TimeEvaluator")
        remote_eval = make(
            self,
            func_name,
            runtime.Device(dev_type, dev_id),
            number,
            repeat,
            min_repeat_ms,
            cooldown_interval_ms,
            repeats_to_cooldown,
        )
        return lambda *args: runtime.ProfileResult(remote_eval(*args))


class RemoteTensor(RemoteObject):
    """A tensor on the serving side; .numpy() and .copyfrom() move its bytes."""

    __slots__ = ("shape", "dtype", "device")

    def __init__(self, session, handle):
        super().__init__(session, handle)
        self.shape = tuple(handle.shape)
        self.dtype = tvm_ffi.dtype(handle.dtype)
        self.device = remote_device(session, *handle.device)

    @property
    def ndim(self):
        return len(self.shape)

    def _numpy_dtype(self):
        import numpy as np

        try:
            return np.dtype(str(self.dtype))
        except TypeError:
            raise TypeError(f"RemoteTensor: dtype {self.dtype} has no NumPy equivalent") from None

    def numpy(self):
        """A local NumPy copy of the contents."""
        import numpy as np

        out = np.empty(self.shape, self._numpy_dtype())
        if out.nbytes:
            self._rpc_session.copy_from_remote(self._rpc_handle.id, 0, _bytes_of(out))
        return out

    def copyfrom(self, source):
        """Copy ``source`` (NumPy array, local tensor, nested lists, RemoteTensor) into self."""
        import numpy as np

        if isinstance(source, RemoteTensor):
            source = source.numpy()
        elif isinstance(source, tvm_ffi.Tensor):
            if int(source.device.device_type) != runtime.device_api.CPU:
                source = source.copyto(runtime.cpu(0))
            source = host_view(source)
        # Arrays keep their dtype (a mismatch is an error, as for local tensors, never a silent
        # cast); lists and scalars are read as this tensor's dtype. asarray keeps 0-d data 0-d.
        wanted = self._numpy_dtype()
        array = np.asarray(
            source, dtype=None if isinstance(source, np.ndarray) else wanted, order="C"
        )
        if array.dtype != wanted:
            raise ValueError(
                f"RemoteTensor.copyfrom: dtype mismatch, destination {self.dtype} "
                f"vs source {array.dtype}"
            )
        if array.shape != self.shape:
            raise ValueError(
                f"RemoteTensor.copyfrom: shape mismatch, destination {self.shape} "
                f"vs source {array.shape}"
            )
        if array.nbytes:
            self._rpc_session.copy_to_remote(self._rpc_handle.id, 0, _bytes_of(array))
        return self

    def copyto(self, target):
        """Copy into a Device (returns a new tensor there) or a tensor (returns it)."""
        if isinstance(target, tvm_ffi.Device):
            out = runtime.empty(self.shape, str(self.dtype), target)
            return self.copyto(out)
        if isinstance(target, RemoteTensor):
            return target.copyfrom(self)
        if isinstance(target, tvm_ffi.Tensor):
            if int(target.device.device_type) == runtime.device_api.CPU:
                view = host_view(target)
                if view.shape != self.shape:
                    raise ValueError(
                        f"RemoteTensor.copyto: shape mismatch, destination "
                        f"{view.shape} vs source {self.shape}"
                    )
                self._rpc_session.copy_from_remote(self._rpc_handle.id, 0, _bytes_of(view))
            else:
                get_device_api(target.device).copy(target, runtime.tensor(self.numpy()))
            return target
        raise TypeError(
            f"RemoteTensor.copyto: argument 'target' must be a Device or tensor, "
            f"got {type(target).__name__}"
        )

    def __repr__(self):
        return f"RemoteTensor(shape={self.shape}, dtype={self.dtype}, device={self.device})"


def _bytes_of(array):
    import numpy as np

    return memoryview(array.reshape(-1).view(np.uint8))


_PROXIES = {
    HandleKind.FUNCTION: RemoteFunction,
    HandleKind.MODULE: RemoteModule,
    HandleKind.TENSOR: RemoteTensor,
    HandleKind.OBJECT: RemoteObject,
}


def make_proxy(session, handle: Handle):
    return _PROXIES[handle.kind](session, handle)
