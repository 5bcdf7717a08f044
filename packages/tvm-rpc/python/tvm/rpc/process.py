"""Background service processes (server, tracker, proxy): start by fork or popen, stop them
with everything they started."""

import logging
import os
import signal
import socket
import subprocess
import time

logger = logging.getLogger("tvm.rpc")


def bind_socket(host, port, port_end, func="tvm.rpc.Server"):
    """A listening socket on the first free port in [port, port_end); port 0: any free port."""
    if not isinstance(host, str) or not host:
        raise TypeError(f"{func}: argument 'host' must be a non-empty str, got {host!r}")
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port < 65536:
        raise ValueError(f"{func}: argument 'port' must be an int in 0..65535, got {port!r}")
    ports = [0] if port == 0 else range(port, max(port + 1, min(port_end, 65536)))
    last_error = None
    for candidate in ports:
        try:
            infos = socket.getaddrinfo(host, candidate, type=socket.SOCK_STREAM)
        except socket.gaierror as err:
            raise ValueError(f"{func}: cannot resolve host {host!r}: {err}") from None
        family, _, _, _, addr = infos[0]
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(addr)
            sock.listen(128)
            return sock
        except OSError as err:
            sock.close()
            last_error = err
    raise OSError(f"{func}: no free port on {host} in [{port}, {port_end}): {last_error}")


def setup_logging(silent):
    """Server processes log to stderr (reasons for closed connections, timeouts)."""
    if logger.handlers:
        return
    # Straight to descriptor 2: sys.stderr may be a wrapper of the forking process's.
    handler = logging.StreamHandler(open(2, "w", buffering=1, closefd=False))
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.WARNING if silent else logging.INFO)
    logger.propagate = False


def _release_inherited_fds(keep_fds):
    """Let go of every connection the forking process had open (its RPC sessions, say), so
    that closing them there really closes them. Each descriptor is pointed at /dev/null
    rather than closed: a Python object inherited with it may still close it later, and it
    must not close a descriptor the service opened since."""
    try:
        fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:  # no /proc: leave the descriptors alone
        return
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in fds:
        if fd > 2 and fd != devnull and fd not in keep_fds:
            try:
                os.dup2(devnull, fd)
            except OSError:
                pass
    os.close(devnull)


class ServiceProcess:
    """A process leading its own process group, so stopping it stops its workers too."""

    def __init__(self, target=None, cmd=None, pass_fds=(), keep_fds=(), env=None):
        self._owner = os.getpid()  # forked children inherit this object; only the owner stops it
        self._popen = None
        if cmd is not None:
            self._popen = subprocess.Popen(cmd, pass_fds=pass_fds, start_new_session=True, env=env)
            self.pid = self._popen.pid
            return
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                os.setsid()
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                _release_inherited_fds(keep_fds)
                target()
            except SystemExit:
                pass
            except BaseException:  # noqa: BLE001  (a forked service must not return into the caller)
                logger.exception("tvm.rpc: service process failed")
                code = 1
            finally:
                os._exit(code)
        self.pid = pid

    def alive(self):
        return self.pid is not None and not self._reaped(0)

    def _reaped(self, timeout):
        end = time.monotonic() + timeout
        while True:
            try:
                if self._popen is not None:
                    done = self._popen.poll() is not None
                else:
                    done = os.waitpid(self.pid, os.WNOHANG)[0] != 0
            except ChildProcessError:
                done = True
            if done or time.monotonic() >= end:
                return done
            time.sleep(0.01)

    def stop(self, sig=signal.SIGTERM):
        """Signal the whole process group, escalating to SIGKILL after 5 s."""
        if self.pid is None or os.getpid() != self._owner:
            return
        for signum in (sig, signal.SIGKILL):
            try:
                os.killpg(self.pid, signum)
            except (ProcessLookupError, PermissionError):
                pass
            if self._reaped(5.0):
                break
        self.pid = None

    def kill(self):
        """SIGKILL the service process alone (its workers die with it, see server_loop)."""
        if self.pid is not None and os.getpid() == self._owner:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._reaped(5.0)
            self.stop()


class Service:
    """Base of Server, Tracker and Proxy: a ServiceProcess, stopped on terminate or exit."""

    _process = None

    def _listen_and_start(self, host, port, port_end, func, silent, make_loop):
        """Bind host:port, then run make_loop(sock).run() in a forked service process."""
        sock = bind_socket(host, port, port_end, func)
        self.host = host
        self.port = sock.getsockname()[1]

        def serve():
            setup_logging(silent)
            make_loop(sock).run()

        try:
            self._process = ServiceProcess(serve, keep_fds=(sock.fileno(),))
        finally:
            sock.close()

    @property
    def pid(self):
        return self._process.pid

    def terminate(self):
        """Stop the service process and every process it started."""
        if self._process is not None:
            self._process.stop()

    def kill(self):
        """SIGKILL the service process (its workers die with it)."""
        self._process.kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.terminate()

    def __del__(self):
        self.terminate()
