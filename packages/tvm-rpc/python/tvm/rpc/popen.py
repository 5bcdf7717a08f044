"""PopenSession: a session served by a child process over its stdin/stdout pipes."""

import os
import select
import stat
import subprocess
import sys
import tempfile

from tvm.error import RPCError

from .channel import ChannelClosed, PipeChannel
from .client import ClientSession
from .codec import ProtocolError
from .endpoint import RPCEndpoint

STARTUP_TIMEOUT = 60.0


def _check_program(path):
    if not os.path.exists(path):
        raise RPCError(f"PopenSession: program {path!r} does not exist")
    if os.path.isdir(path):
        raise RPCError(f"PopenSession: program {path!r} is a directory, not an executable")
    if not os.access(path, os.X_OK):
        mode = stat.filemode(os.stat(path).st_mode)
        raise RPCError(
            f"PopenSession: program {path!r} is not executable (mode {mode}); "
            "make it executable (chmod +x) or pass another program"
        )


class PopenSession(ClientSession):
    """Start ``binary`` (default: a Python worker serving a LocalSession) and talk to it over
    pipes. ``binary`` may be a path or the bytes of an executable; ``args`` are passed to it.
    The child must speak the RPC protocol on its stdin/stdout. Closing kills the child.
    """

    def __init__(self, binary=None, args=(), startup_timeout=STARTUP_TIMEOUT):
        self._proc = None
        self._temp = None
        if binary is None:
            cmd = [sys.executable, "-m", "tvm.rpc.popen_worker"]
        else:
            if isinstance(binary, (bytes, bytearray)):
                fd, self._temp = tempfile.mkstemp(prefix="tvm-rpc-popen-")
                with os.fdopen(fd, "wb") as f:
                    f.write(binary)
                os.chmod(self._temp, 0o700)
                binary = self._temp
            elif not isinstance(binary, (str, os.PathLike)):
                raise TypeError(
                    f"PopenSession: argument 'binary' must be None, a path or bytes, "
                    f"got {type(binary).__name__}"
                )
            binary = os.fspath(binary)
            _check_program(binary)
            cmd = [binary, *map(str, args)]
        try:
            self._proc = subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True
            )
        except OSError as err:
            self._remove_temp()
            raise RPCError(f"PopenSession: cannot start {cmd[0]!r}: {err.strerror}") from None
        channel = PipeChannel(self._proc.stdout.fileno(), self._proc.stdin.fileno())
        endpoint = RPCEndpoint(channel, "client")
        super().__init__(endpoint, f"popen:{cmd[0]}")
        try:
            self._handshake(endpoint, startup_timeout, cmd[0])
        except BaseException:
            self.close()
            raise

    def _handshake(self, endpoint, startup_timeout, program):
        try:
            endpoint.send_init()
            ready, _, _ = select.select([self._proc.stdout], [], [], startup_timeout)
            if not ready:
                raise RPCError(
                    f"PopenSession: {program!r} sent no handshake within {startup_timeout:g} s"
                )
            endpoint.receive_init()
        except (ChannelClosed, ProtocolError) as err:
            code = self._proc.poll()
            if code is None:
                try:
                    code = self._proc.wait(timeout=1.0)
                except subprocess.TimeoutExpired:
                    code = None
            status = "is running" if code is None else f"exited with code {code}"
            raise RPCError(
                f"PopenSession: {program!r} {status} without completing the RPC "
                f"handshake ({err}); it must serve the RPC protocol on stdin/stdout"
            ) from None

    def _remove_temp(self):
        if self._temp is not None:
            try:
                os.remove(self._temp)
            except OSError:
                pass
            self._temp = None

    def close(self):
        if getattr(self, "_endpoint", None) is not None:
            super().close()
        if self._proc is not None:
            for pipe in (self._proc.stdin, self._proc.stdout):
                try:
                    pipe.close()
                except OSError:
                    pass
            if self._proc.poll() is None:
                self._proc.kill()
            self._proc.wait()
            self._proc = None
        self._remove_temp()

    def __del__(self):
        if getattr(self, "_proc", None) is not None:
            self.close()
