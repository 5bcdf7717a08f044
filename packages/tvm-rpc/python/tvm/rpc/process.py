"""Background service processes (server, tracker, proxy): start by fork or popen, stop them
with everything they started."""

import logging
import os
import signal
import subprocess
import time

logger = logging.getLogger("tvm.rpc")


class ServiceProcess:
    """A process leading its own process group, so stopping it stops its workers too."""

    def __init__(self, target=None, cmd=None, pass_fds=()):
        self._owner = os.getpid()  # forked children inherit this object; only the owner stops it
        self._popen = None
        if cmd is not None:
            self._popen = subprocess.Popen(cmd, pass_fds=pass_fds, start_new_session=True)
            self.pid = self._popen.pid
            return
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                os.setsid()
                signal.signal(signal.SIGINT, signal.SIG_IGN)
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
        from .server import bind_socket, setup_logging

        sock = bind_socket(host, port, port_end, func)
        self.host = host
        self.port = sock.getsockname()[1]

        def serve():
            setup_logging(silent)
            make_loop(sock).run()

        try:
            self._process = ServiceProcess(serve)
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
