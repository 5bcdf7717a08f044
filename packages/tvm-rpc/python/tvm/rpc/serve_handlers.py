"""How a serving endpoint answers each request code: unpack values, call the session."""

from .codec import Handle
from .protocol import BULK_CHUNK_SIZE, Code


def _expect(values, request, *types):
    """Check a request's values against ``types``; a mismatch is the requester's error."""
    if len(values) != len(types) or not all(
        isinstance(v, t) and not (t is int and isinstance(v, bool)) for v, t in zip(values, types)
    ):
        got = ", ".join(type(v).__name__ for v in values)
        want = ", ".join(
            "|".join(x.__name__ for x in (t if isinstance(t, tuple) else (t,))) for t in types
        )
        raise TypeError(f"tvm.rpc {request} request: expected values ({want}), got ({got})")
    return values


def get_function(session, values, bulk):
    (name,) = _expect(values, "get_function", str)
    return session.get_function_handle(name), None


def call(session, values, bulk):
    if not values or type(values[0]) is not int:
        raise TypeError("tvm.rpc call request: expected a function handle id first")
    return session.call_handle(values[0], values[1:]), None


def tensor_empty(session, values, bulk):
    shape, dtype, device_type, device_id = _expect(
        values, "tensor_empty", (list, tuple), str, int, int
    )
    return session.tensor_empty(tuple(shape), dtype, (device_type, device_id)), None


def copy_to_remote(session, values, bulk):
    tensor_id, offset = _expect(values, "copy_to_remote", int, int)
    view = session.tensor_bytes(tensor_id, offset, bulk.size)
    if view is not None:
        bulk.read_into(view)
    else:
        session.copy_to_remote(tensor_id, offset, memoryview(bulk.read()))
    return None, None


def copy_from_remote(session, values, bulk):
    tensor_id, offset, nbytes = _expect(values, "copy_from_remote", int, int, int)
    if not 0 <= nbytes <= BULK_CHUNK_SIZE:
        raise ValueError(
            f"copy_from_remote: {nbytes} bytes requested; at most {BULK_CHUNK_SIZE} per request"
        )
    view = session.tensor_bytes(tensor_id, offset, nbytes)
    if view is None:
        view = memoryview(bytearray(nbytes))
        session.copy_from_remote(tensor_id, offset, view)
    return None, view


def device_api(session, values, bulk):
    op, device_type, device_id = _expect(values, "device_api", str, int, int)
    return session.device_api(op, (device_type, device_id)), None


def upload(session, values, bulk):
    path, append = _expect(values, "upload", str, bool)
    session.write_file(path, memoryview(bulk.read()), append)
    return None, None


def download(session, values, bulk):
    path, offset, nbytes = _expect(values, "download", str, int, int)
    if not 0 <= nbytes <= BULK_CHUNK_SIZE:
        raise ValueError(
            f"download: {nbytes} bytes requested; at most {BULK_CHUNK_SIZE} per request"
        )
    data = session.read_file(path, offset, nbytes)
    return None, memoryview(data) if data else None


def remove(session, values, bulk):
    (path,) = _expect(values, "remove", str)
    session.remove_file(path)
    return None, None


def load_module(session, values, bulk):
    (path,) = _expect(values, "load_module", str)
    return session.load_module_handle(path), None


def module_get_function(session, values, bulk):
    module, name = _expect(values, "module_get_function", Handle, str)
    return session.module_get_function_handle(module.id, name), None


HANDLERS = {
    Code.GET_FUNCTION: get_function,
    Code.CALL: call,
    Code.FREE: None,  # served inline by the endpoint: it has no reply
    Code.TENSOR_EMPTY: tensor_empty,
    Code.COPY_TO_REMOTE: copy_to_remote,
    Code.COPY_FROM_REMOTE: copy_from_remote,
    Code.DEVICE_API: device_api,
    Code.UPLOAD: upload,
    Code.DOWNLOAD: download,
    Code.REMOVE: remove,
    Code.LOAD_MODULE: load_module,
    Code.MODULE_GET_FUNCTION: module_get_function,
}
