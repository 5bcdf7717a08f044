"""RPCEndpoint: sends session requests over a channel and serves the peer's requests."""

import logging
import struct

from tvm.error import RPCError

from . import protocol
from .channel import ChannelClosed, SendFailed, new_frame
from .codec import ProtocolError, decode_all, decode_one, encode
from .errors import describe, remote_error
from .protocol import BULK_CHUNK_SIZE, FRAME_HEADER, Code, Tag, frame_name
from .serve_handlers import HANDLERS

logger = logging.getLogger("tvm.rpc")

# A CALL frame up to its arguments: the header (filled in by send_frame), the function id.
_CALL_HEAD = struct.Struct(FRAME_HEADER.format + "Bq")
_TAGGED_ID = struct.Struct("<Bq")
_TAGGED_ID_SIZE = _TAGGED_ID.size
_unpack_tagged_id = _TAGGED_ID.unpack_from
_CALL = Code.CALL
_TAG_INT = Tag.INT
_NONE_META = bytes([Tag.NONE])
_HEADER_SIZE = FRAME_HEADER.size
_pack_header = FRAME_HEADER.pack_into
_MAX_NULLARY_FRAMES = 1024
# The reply to a call returning None, the most common one: sent as it is.
_RETURN_NONE = FRAME_HEADER.pack(FRAME_HEADER.size - 8 + 1, Code.RETURN, 1) + _NONE_META


class RPCEndpoint:
    """One side of a connection. ``name`` says which side, for error messages."""

    def __init__(self, channel, name, version=None):
        self.channel = channel
        self.name = name
        self.version = protocol.PROTOCOL_VERSION if version is None else version
        self.closed = False
        self.peer_version = None
        self._nullary_frames = {}  # function id -> its CALL frame without arguments

    # -- both sides ---------------------------------------------------------------------
    def send(self, code, values=(), bulk=None):
        frame = new_frame()
        for value in values:
            encode(value, frame)
        self.channel.send_frame(code, frame, bulk)

    def send_init(self, *extra):
        """Send INIT: our protocol version and side name, then ``extra`` handshake values."""
        self.send(Code.INIT, [self.version, self.name, *extra])

    def receive_init(self):
        """Read the peer's INIT and check its protocol version against ours; returns the
        values after version and side name (the socket handshake's nonce and key)."""
        code, meta, bulk_len = self.channel.recv_frame()
        if code != Code.INIT:
            raise ProtocolError(
                f"expected the peer's INIT frame (code {Code.INIT}), got {frame_name(code)}"
            )
        values = decode_all(meta)
        if bulk_len or not values or type(values[0]) is not int:
            raise ProtocolError(
                "malformed INIT frame: expected the protocol version (an int) "
                f"first, got ({', '.join(type(v).__name__ for v in values)})"
                + (f" and {bulk_len} bulk bytes" if bulk_len else "")
            )
        self.peer_version = values[0]
        peer_name = values[1] if len(values) > 1 else "peer"
        if self.peer_version != self.version:
            raise RPCError(
                f"tvm.rpc: protocol version mismatch: this side ({self.name}) speaks version "
                f"{self.version}, the peer ({peer_name}) speaks version "
                f"{self.peer_version}; install the same tvm-rpc version on both sides"
            )
        return values[2:]

    def close(self):
        self.closed = True
        self.channel.close()

    # -- requesting side ----------------------------------------------------------------
    def request(self, code, values, bulk=None, bulk_into=None):
        """Send one request and wait for its reply; returns the reply's values.

        ``bulk_into``: a writable memoryview the reply's bulk bytes are read into, or a
        function of the bulk size returning one.
        """
        frame = new_frame()
        for value in values:
            encode(value, frame)
        return self.exchange(code, frame, bulk, bulk_into)

    def call(self, function_id, args):
        """CALL function_id(*args) and return its one result: the hot path of every remote
        call, so it builds its frame directly and reads a plain reply without detours."""
        if self.closed:
            raise RPCError(f"tvm.rpc: the session ({self.name}) is closed")
        if args:
            frame = bytearray(_CALL_HEAD.pack(0, Code.CALL, 0, Tag.INT, function_id))
            for value in args:
                encode(value, frame)
            if len(frame) > self.channel.max_frame_size:
                return self.exchange(Code.CALL, frame, single=True)  # raises: too large
            _pack_header(frame, 0, len(frame) - 8, Code.CALL, len(frame) - _HEADER_SIZE)
        else:  # the whole frame, the same for every call of the function
            frame = self._nullary_frames.get(function_id)
            if frame is None:
                frame = self._nullary_frame(function_id)
        try:
            try:
                code, meta, bulk_len = self.channel.transact(frame)
            except SendFailed:
                self._raise_parting_notice()
                raise
            if code == Code.RETURN and not bulk_len:
                return None if meta == _NONE_META else decode_one(meta)
            return self._reply_of(code, meta, bulk_len, None, Code.RETURN, True)
        except Exception as err:  # noqa: BLE001  (sorted out by _failed)
            failure = self._failed(err, Code.CALL)
            if failure is err:
                raise
            raise failure from None

    def _nullary_frame(self, function_id):
        frame = _CALL_HEAD.pack(
            _CALL_HEAD.size - 8, Code.CALL, _CALL_HEAD.size - _HEADER_SIZE, Tag.INT, function_id
        )
        if len(self._nullary_frames) >= _MAX_NULLARY_FRAMES:
            self._nullary_frames.clear()  # ids of freed functions: do not keep them forever
        self._nullary_frames[function_id] = frame
        return frame

    def exchange(self, code, frame, bulk=None, bulk_into=None, single=False):
        """Send the request ``frame`` (from new_frame()) and read its reply (see request)."""
        if self.closed:
            raise RPCError(f"tvm.rpc: the session ({self.name}) is closed")
        try:
            try:
                self.channel.send_frame(code, frame, bulk)
            except ChannelClosed:
                self._raise_parting_notice()
                raise
            return self.read_reply(bulk_into, single=single)
        except Exception as err:  # noqa: BLE001  (sorted out by _failed)
            failure = self._failed(err, code)
            if failure is err:
                raise
            raise failure from None

    def _failed(self, err, code):
        """What a request that failed with ``err`` raises: a remote error as it is, a broken
        or malformed connection as an RPCError (the endpoint is closed then)."""
        if isinstance(err, RPCError) or not isinstance(
            err, (ChannelClosed, ProtocolError, OSError)
        ):
            return err  # the remote error itself (it may also be an OSError), or a local bug
        self.close()
        if isinstance(err, ChannelClosed):
            return RPCError(
                f"tvm.rpc: connection to the server lost during "
                f"{protocol.REQUEST_NAMES.get(code, code)} ({err})"
            )
        if isinstance(err, ProtocolError):
            return RPCError(f"tvm.rpc: malformed reply from the server ({err}); connection closed")
        return RPCError(f"tvm.rpc: connection to the server failed ({err})")

    def read_reply(self, bulk_into=None, expect=Code.RETURN, single=False):
        """The reply's values (its one value when ``single``); an EXCEPTION is raised."""
        code, meta, bulk_len = self.channel.recv_frame()
        return self._reply_of(code, meta, bulk_len, bulk_into, expect, single)

    def _reply_of(self, code, meta, bulk_len, bulk_into, expect, single):
        if code == expect:
            if single and not bulk_len:
                return decode_one(meta)
            if bulk_len:
                if callable(bulk_into):
                    bulk_into = bulk_into(bulk_len)
                if bulk_into is None or bulk_into.nbytes != bulk_len:
                    raise ProtocolError(f"reply carries {bulk_len} unexpected bulk bytes")
                self.channel.read_into(bulk_into)
            return decode_one(meta) if single else decode_all(meta)
        if code == Code.EXCEPTION:
            self.channel.skip(bulk_len)
            values = decode_all(meta)
            if (
                len(values) not in (3, 5)
                or not all(isinstance(v, str) for v in values[:3])
                or (
                    len(values) == 5
                    and not (values[3] is None or type(values[3]) is list)
                    or len(values) == 5
                    and type(values[4]) is not dict
                )
            ):
                raise ProtocolError(
                    "EXCEPTION frame must hold kind, message, traceback (and arguments, attributes)"
                )
            err = remote_error(*values)
            if isinstance(err, _session_ending_errors()):
                self.close()
            raise err
        raise ProtocolError(f"unexpected message code {code} in a reply")

    def _raise_parting_notice(self):
        """The peer hung up: raise what it said before it left (a session timeout, say)."""
        try:
            self.read_reply()
        except RPCError:
            raise
        except (ChannelClosed, ProtocolError, OSError):
            pass

    # -- serving side -------------------------------------------------------------------
    def serve(self, session):
        """Serve requests into ``session`` until SHUTDOWN or the peer goes away."""
        channel = self.channel
        recv_frame = channel.recv_frame
        call_handle = session.call_handle
        while True:
            try:
                code, meta, bulk_len = recv_frame()
            except ChannelClosed:
                return
            except ProtocolError as err:
                logger.warning("tvm.rpc: closing connection: malformed frame: %s", err)
                return
            try:
                if code == _CALL and not bulk_len:
                    if len(meta) == _TAGGED_ID_SIZE and meta[0] == _TAG_INT:  # no arguments
                        served = self._serve_call(call_handle, _unpack_tagged_id(meta)[1], ())
                    else:
                        served = self._serve_call(call_handle, *_call_of(meta))
                    if served:
                        continue
                    return
                if code == Code.SHUTDOWN:
                    return
                handler = HANDLERS.get(code)
                if code not in HANDLERS:
                    raise ProtocolError(f"unknown request code {code}")
                values = decode_all(meta)
                if code == Code.FREE:
                    session.free_handles(_handle_pairs(values))
                    continue
                bulk = _Bulk(channel, bulk_len) if bulk_len else _NO_BULK
                try:
                    reply, reply_bulk = handler(session, values, bulk)
                except (ProtocolError, ChannelClosed):
                    raise  # this connection's own failures (a remote BrokenPipeError is not one)
                except BaseException as err:  # noqa: BLE001  (SystemExit too: the session survives)
                    bulk.skip_rest()
                    self.send(Code.EXCEPTION, describe(err))
                    continue
                bulk.skip_rest()
                frame = new_frame()
                try:
                    encode(reply, frame)
                except Exception as err:  # noqa: BLE001  (a result the protocol cannot carry)
                    self.send(Code.EXCEPTION, describe(err))
                    continue
                channel.send_frame(Code.RETURN, frame, reply_bulk)
            except ProtocolError as err:
                logger.warning("tvm.rpc: closing connection: malformed frame: %s", err)
                return
            except ChannelClosed:
                return

    def _serve_call(self, call_handle, function_id, args):
        """Serve one CALL (the hot path of serve); False when the peer has gone."""
        try:
            if type(function_id) is not int:
                raise TypeError("tvm.rpc call request: expected a function handle id first")
            reply = call_handle(function_id, args)
            if reply is None:
                frame = None
            else:
                frame = new_frame()
                encode(reply, frame)
        except (ProtocolError, ChannelClosed):
            raise  # this connection's own failures (a remote BrokenPipeError is not one)
        except BaseException as err:  # noqa: BLE001  (SystemExit too: the session survives)
            return self._send_error(err)
        try:
            if frame is None:
                self.channel.send_packed(_RETURN_NONE)
            else:
                self.channel.send_frame(Code.RETURN, frame)
        except ChannelClosed:
            return False
        return True

    def _send_error(self, err):
        frame = new_frame()
        for value in describe(err):
            encode(value, frame)
        return self._send_frame(Code.EXCEPTION, frame)

    def _send_frame(self, code, frame):
        try:
            self.channel.send_frame(code, frame)
        except ChannelClosed:
            return False
        return True


def _call_of(meta):
    """(function id, arguments) of a CALL request's meta."""
    values = decode_all(meta)
    return (values[0] if values else None), values[1:]


def _handle_pairs(values):
    pairs = values[0] if values else None
    if not isinstance(pairs, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(type(x) is int for x in p) for p in pairs
    ):
        raise ProtocolError("FREE frame must hold a list of [kind, id] pairs")
    return pairs


class _Bulk:
    """The bulk section of the request being served: read once, the rest skipped."""

    __slots__ = ("channel", "remaining")

    def __init__(self, channel, size):
        self.channel = channel
        self.remaining = size

    @property
    def size(self):
        return self.remaining

    def read_into(self, view):
        if view.nbytes != self.remaining:
            raise ValueError(f"request carries {self.remaining} bulk bytes, {view.nbytes} expected")
        self.channel.read_into(view)
        self.remaining = 0

    def read(self):
        if self.remaining > BULK_CHUNK_SIZE:
            raise ProtocolError(f"bulk section of {self.remaining} bytes exceeds {BULK_CHUNK_SIZE}")
        data = self.channel.read_growing(self.remaining)
        self.remaining = 0
        return data

    def skip_rest(self):
        if self.remaining:
            self.channel.skip(self.remaining)
            self.remaining = 0


_NO_BULK = _Bulk(None, 0)


def _session_ending_errors():
    from tvm.error import RPCSessionTimeoutError

    return (RPCSessionTimeoutError,)
