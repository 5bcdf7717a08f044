"""Framed byte channels over a socket or a pair of pipes, with buffered, copy-free reads."""

import os
import select
import socket
import time

try:
    import resource
except ImportError:  # not on Windows: the busy check is skipped there
    pass

from .codec import ProtocolError
from .protocol import DEFAULT_MAX_FRAME_SIZE, FRAME_FIXED, FRAME_HEADER

_HEADER_SIZE = FRAME_HEADER.size
_pack_header = FRAME_HEADER.pack_into
_unpack_header = FRAME_HEADER.unpack_from
# Reads at least this large bypass the buffer and land in the destination directly.
_DIRECT_READ = 64 << 10
_BUFFER_SIZE = 256 << 10
# How long a socket read polls before it blocks. A blocked reader on an idle core can take
# tens of microseconds to wake (measured: 68 us per Python socket round trip on an idle
# 2-core VM, 6 us with the cores busy), which would dominate every small call. Polling a
# little keeps both ends awake through a burst of calls. TVM_RPC_SPIN_US=0 turns it off.
# The poll backs off when it does not pay. When the bytes did not come within it (a pause
# between calls), the next reads block at once, twice as many after each miss in a row
# (up to _MAX_SKIP). When the process keeps being preempted and its polls wait long (a busy
# machine, where polling takes the core the peer or others need), polling stops for
# _BUSY_SKIP reads. Preemption alone does not stop it: on a nearly idle machine a stray
# task preempts a poller now and then while its polls still end within microseconds.
_SPIN_SECONDS = float(os.environ.get("TVM_RPC_SPIN_US", "100")) * 1e-6
_DONTWAIT = getattr(socket, "MSG_DONTWAIT", 0)
_MAX_SKIP = 1024
_BUSY_CHECK = 256  # polls between two looks at the preemption count
_BUSY_PREEMPTIONS = 2  # preemptions within _BUSY_CHECK polls that mean the cores are busy
_BUSY_SKIP = 4096
# Mean seconds a poll waits (misses counted as whole windows) above which preemption means
# busy cores: a poll that pays ends well within the time an idle core takes to wake.
_SLOW_POLL = 20e-6


def _preemptions():
    try:
        return resource.getrusage(resource.RUSAGE_SELF).ru_nivcsw
    except (NameError, OSError):
        return 0


class ChannelClosed(Exception):
    """The peer closed the channel (or the connection was reset)."""


class SendFailed(ChannelClosed):
    """The peer was gone before a request was sent (it may have said why first)."""


def new_frame():
    """A bytearray with room for the frame header; encode the meta section after it."""
    return bytearray(_HEADER_SIZE)


class Channel:
    """Sends and receives frames; subclasses provide raw reads and writes."""

    def __init__(self, max_frame_size=DEFAULT_MAX_FRAME_SIZE):
        self.max_frame_size = max_frame_size
        self.write_lock = None
        self._buf = bytearray(_BUFFER_SIZE)
        self._view = memoryview(self._buf)
        self._lo = 0
        self._hi = 0
        self._skip = 0  # reads left that block without polling first
        self._backoff = 1  # reads to skip after the next poll that misses
        self._polls = 0  # polls since the last look at the preemption count
        self._polled = 0.0  # seconds those polls waited
        self._preempted = _preemptions()

    def _poll_window(self):
        """Seconds to poll before this read blocks (0: block at once)."""
        if self._skip:
            self._skip -= 1
            return 0.0
        self._polls += 1
        if self._polls >= _BUSY_CHECK:
            count = _preemptions()
            busy = (
                count - self._preempted >= _BUSY_PREEMPTIONS
                and self._polled > _SLOW_POLL * self._polls
            )
            self._polls, self._polled, self._preempted = 0, 0.0, count
            if busy:
                self._skip = _BUSY_SKIP
                return 0.0
        return _SPIN_SECONDS

    def _poll_missed(self):
        self._polled += _SPIN_SECONDS
        self._skip = self._backoff
        self._backoff = min(self._backoff * 2, _MAX_SKIP)

    # -- raw I/O, provided by subclasses -------------------------------------------------
    def _recv_into(self, view):
        raise NotImplementedError

    def _send_all(self, data):
        raise NotImplementedError

    def close(self):
        raise NotImplementedError

    # -- sending -------------------------------------------------------------------------
    def send_frame(self, code, frame, bulk=None):
        """Send ``frame`` (from new_frame(), meta appended) and optional bulk bytes."""
        if bulk is None and len(frame) <= self.max_frame_size:
            _pack_header(frame, 0, len(frame) - 8, code, len(frame) - _HEADER_SIZE)
            self.send_packed(frame)  # the usual small frame: one write
            return
        bulk_len = 0 if bulk is None else bulk.nbytes
        length = len(frame) - 8 + bulk_len
        if length > self.max_frame_size:
            raise ValueError(
                f"tvm.rpc: frame of {length} bytes exceeds the maximum frame "
                f"size {self.max_frame_size}"
            )
        _pack_header(frame, 0, length, code, len(frame) - _HEADER_SIZE)
        lock = self.write_lock
        if lock is not None:
            lock.acquire()
        try:
            if bulk_len and bulk_len < _DIRECT_READ:
                self._send_all(frame + bulk)
            else:
                self._send_all(frame)
                if bulk_len:
                    self._send_all(bulk)
        finally:
            if lock is not None:
                lock.release()

    def send_packed(self, frame):
        """Send a whole frame whose header is filled in already (under the write lock)."""
        lock = self.write_lock
        if lock is None:
            self._send_all(frame)
            return
        with lock:
            self._send_all(frame)

    def transact(self, frame):
        """Send the packed request ``frame``, then read its reply as recv_frame does. A peer
        gone before the request left raises SendFailed."""
        try:
            self.send_packed(frame)
        except SendFailed:
            raise
        except ChannelClosed as err:
            raise SendFailed(str(err)) from None
        return self.recv_frame()

    # -- receiving -----------------------------------------------------------------------
    def _fill(self, n):
        """Make at least n bytes available in the buffer (n <= buffer size)."""
        if self._hi - self._lo >= n:
            return
        if self._lo == self._hi:  # empty (between frames, usually): read at the start
            self._lo = self._hi = 0
        elif self._lo + n > len(self._buf):
            remaining = self._hi - self._lo
            self._view[:remaining] = self._view[self._lo : self._hi]
            self._lo, self._hi = 0, remaining
        while self._hi - self._lo < n:
            got = self._recv_into(self._view[self._hi :] if self._hi else self._view)
            if not got:
                raise ChannelClosed(
                    "peer closed the connection"
                    if self._hi == self._lo
                    else f"connection closed inside a frame ({self._hi - self._lo} of "
                    f"{n} bytes received)"
                )
            self._hi += got

    def read_into(self, dest):
        """Fill memoryview ``dest`` completely from the channel."""
        dest = dest.cast("B") if dest.format != "B" or dest.ndim != 1 else dest
        total = dest.nbytes
        take = min(self._hi - self._lo, total)
        if take:
            dest[:take] = self._view[self._lo : self._lo + take]
            self._lo += take
        done = take
        while done < total:
            if total - done >= _DIRECT_READ:
                got = self._recv_into(dest[done:])
                if not got:
                    raise ChannelClosed(
                        f"connection closed inside a frame ({done} of {total} bulk bytes received)"
                    )
                done += got
            else:
                self._fill(1)
                take = min(self._hi - self._lo, total - done)
                dest[done : done + take] = self._view[self._lo : self._lo + take]
                self._lo += take
                done += take

    def skip(self, n):
        """Read and drop n bytes (bulk nobody wants)."""
        while n:
            self._fill(1)
            take = min(self._hi - self._lo, n)
            self._lo += take
            n -= take

    def recv_frame(self):
        """Read one frame's header and meta; returns (code, meta bytes, bulk length).

        The caller must then consume exactly ``bulk length`` bytes (read_into or skip).
        """
        if self._lo == self._hi:  # between frames, the usual case: one read at the start
            got = self._recv_into(self._view)
            if not got:
                raise ChannelClosed("peer closed the connection")
            self._lo, self._hi = 0, got
        if self._hi - self._lo < _HEADER_SIZE:
            self._fill(_HEADER_SIZE)
        lo = self._lo
        length, code, meta_len = _unpack_header(self._buf, lo)
        end = lo + _HEADER_SIZE + meta_len
        if end <= self._hi and length <= self.max_frame_size and length >= FRAME_FIXED + meta_len:
            # The usual small frame, whole in the buffer already: no further reads.
            self._lo = end
            return code, self._buf[lo + _HEADER_SIZE : end], length - FRAME_FIXED - meta_len
        if length > self.max_frame_size:
            raise ProtocolError(
                f"frame of {length} bytes exceeds the maximum frame size {self.max_frame_size}"
            )
        if length < FRAME_FIXED or meta_len > length - FRAME_FIXED:
            raise ProtocolError(f"frame length {length} cannot hold its {meta_len}-byte meta")
        self._lo += _HEADER_SIZE
        if meta_len <= len(self._buf):
            self._fill(meta_len)
            meta = bytes(self._view[self._lo : self._lo + meta_len])
            self._lo += meta_len
        else:
            meta = self.read_growing(meta_len)
        return code, meta, length - FRAME_FIXED - meta_len

    def read_growing(self, n):
        """The next n bytes as a bytearray that grows as they arrive, so a header announcing
        a large frame costs memory only once the bytes are really sent."""
        out = bytearray()
        while len(out) < n:
            start = len(out)
            step = min(n - start, max(start, _BUFFER_SIZE))
            out.extend(bytes(step))  # at most doubles what has arrived so far
            self.read_into(memoryview(out)[start:])
        return out


class SocketChannel(Channel):
    """A channel over a socket (plain or TLS). ``deadline`` (time.monotonic() seconds), while
    set, bounds the total time of every read and write, not each byte's wait."""

    def __init__(self, sock, max_frame_size=DEFAULT_MAX_FRAME_SIZE):
        super().__init__(max_frame_size)
        self.sock = sock
        self.deadline = None
        # TLS sockets take no recv flags, and their buffered bytes are invisible to a poll.
        self._can_spin = type(sock) is socket.socket
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _arm_deadline(self):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("tvm.rpc: the handshake ran past its time limit")
        self.sock.settimeout(left)

    def _recv_into(self, view):
        sock = self.sock
        if self.deadline is not None:
            self._arm_deadline()
        try:
            if self._skip and self._can_spin:  # polling is off for this read: block now
                self._skip -= 1
                return sock.recv_into(view)
            if self._can_spin and sock.gettimeout() is None and self._poll_window():
                try:  # the bytes are often there already: no clock reads then
                    got = sock.recv_into(view, 0, _DONTWAIT)
                    self._backoff = 1
                    return got
                except BlockingIOError:
                    pass
                start = time.perf_counter()
                deadline = start + _SPIN_SECONDS
                while True:
                    try:
                        got = sock.recv_into(view, 0, _DONTWAIT)
                        self._backoff = 1
                        self._polled += time.perf_counter() - start
                        return got
                    except BlockingIOError:
                        if time.perf_counter() > deadline:
                            break
                self._poll_missed()
            return sock.recv_into(view)
        except (ConnectionResetError, ConnectionAbortedError):
            return 0

    def _send_all(self, data):
        if self.deadline is not None:
            self._arm_deadline()
        try:
            self.sock.sendall(data)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError) as err:
            raise _peer_closed(err) from None

    def send_packed(self, frame):
        if self.write_lock is not None or self.deadline is not None:
            Channel.send_packed(self, frame)
            return
        try:  # the hot path of every call: one sendall, nothing around it
            self.sock.sendall(frame)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError) as err:
            raise _peer_closed(err) from None

    def transact(self, frame):
        # The hot path of every call: one send, one read that usually brings the whole
        # reply, parsed in place (any other case goes through recv_frame's checks).
        if self.write_lock is not None or self.deadline is not None or self._lo != self._hi:
            return Channel.transact(self, frame)
        try:
            self.sock.sendall(frame)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError) as err:
            raise SendFailed(_peer_closed(err)) from None
        got = self._recv_into(self._view)
        if not got:
            raise ChannelClosed("peer closed the connection")
        if got > _HEADER_SIZE:
            length, code, meta_len = _unpack_header(self._buf, 0)
            if got == _HEADER_SIZE + meta_len == length + 8 and length <= self.max_frame_size:
                # exactly one whole frame without bulk
                return code, self._buf[_HEADER_SIZE:got], 0
        self._lo, self._hi = 0, got
        return self.recv_frame()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def _peer_closed(err):
    return ChannelClosed(f"peer closed the connection ({err.strerror})")


class PipeChannel(Channel):
    def __init__(self, read_fd, write_fd, max_frame_size=DEFAULT_MAX_FRAME_SIZE):
        super().__init__(max_frame_size)
        self.read_fd = read_fd
        self.write_fd = write_fd
        for fd in (read_fd, write_fd):
            _grow_pipe(fd)

    def _recv_into(self, view):
        try:
            window = self._poll_window()
            if window > 0:  # see _SPIN_SECONDS: poll a little before blocking
                start = time.perf_counter()
                deadline = start + window
                while not select.select([self.read_fd], [], [], 0)[0]:
                    if time.perf_counter() > deadline:
                        self._poll_missed()
                        break
                else:
                    self._backoff = 1
                    self._polled += time.perf_counter() - start
            return os.readv(self.read_fd, [view])
        except OSError:
            return 0

    def _send_all(self, data):
        view = memoryview(data).cast("B")
        try:
            while view:
                view = view[os.write(self.write_fd, view) :]
        except (BrokenPipeError, OSError) as err:
            raise ChannelClosed(f"peer closed the pipe ({err.strerror})") from None

    def close(self):
        for fd in {self.read_fd, self.write_fd}:
            try:
                os.close(fd)
            except OSError:
                pass


def _grow_pipe(fd):
    """Larger pipe buffers cut the context switches of bulk copies (Linux only)."""
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 1 << 20)
    except (ImportError, AttributeError, OSError):
        pass
