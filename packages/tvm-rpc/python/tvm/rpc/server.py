"""tvm.rpc.Server: an RPC server in its own process; also `python -m tvm.rpc.server`."""

import argparse
import logging
import socket
import sys

from .process import Service, ServiceProcess, bind_socket, setup_logging
from .protocol import DEFAULT_MAX_FRAME_SIZE
from .tracker import DEFAULT_MATCH_TIMEOUT
from .tracker_wire import check_key

logger = logging.getLogger("tvm.rpc")


class Server(Service):
    """An RPC server listening on host:port, serving each session in its own worker process.

    host: the address to bind (localhost by default; "0.0.0.0" only if you mean it).
    port, port_end: the first free port in [port, port_end) is used; port=0 picks any.
    key: clients must present it. tracker_addr: (host, port) of a Tracker to register with.
    use_popen: run the server as `python -m tvm.rpc.server` instead of a fork of this
    process (a fork sees functions registered here; a popen server only its imports).
    match_timeout: seconds a server waits, once the tracker has handed its match key to a
    client, for that client to connect; then it puts itself back in the queue with a new key.
    """

    def __init__(self, host="127.0.0.1", port=9091, port_end=9199, is_proxy=False,
                 use_popen=False, silent=False, tracker_addr=None, key="", load_library=None,
                 custom_addr=None, max_frame_size=DEFAULT_MAX_FRAME_SIZE,
                 match_timeout=DEFAULT_MATCH_TIMEOUT):
        if not isinstance(key, str):
            raise TypeError(f"tvm.rpc.Server: argument 'key' must be a str, got {type(key).__name__}")
        if tracker_addr is not None or is_proxy:
            check_key(key, "tvm.rpc.Server: argument 'key' (with a tracker or proxy)")
        if isinstance(match_timeout, bool) or not isinstance(match_timeout, (int, float)):
            raise TypeError("tvm.rpc.Server: argument 'match_timeout' must be a number of "
                            f"seconds, got {type(match_timeout).__name__}")
        if not 0 < match_timeout < float("inf"):
            raise ValueError("tvm.rpc.Server: argument 'match_timeout' must be a positive, "
                             f"finite number of seconds, got {match_timeout!r}")
        self.host = host
        self.key = key
        self._process = None
        if is_proxy:
            # Serve sessions that a Proxy relays: connect out to it instead of listening.
            self.port = port
            self._start(["--proxy", f"{host}:{port}"], None, use_popen, silent, tracker_addr,
                        key, load_library, custom_addr, max_frame_size, match_timeout)
            return
        sock = bind_socket(host, port, port_end)
        self.port = sock.getsockname()[1]
        try:
            self._start([], sock, use_popen, silent, tracker_addr, key, load_library,
                        custom_addr, max_frame_size, match_timeout)
        finally:
            sock.close()

    def _start(self, extra, sock, use_popen, silent, tracker_addr, key, load_library,
               custom_addr, max_frame_size, match_timeout):
        if not use_popen:
            proxy = extra[1] if extra else None
            self._process = ServiceProcess(lambda: _serve(
                sock, key, tracker_addr, custom_addr, load_library, max_frame_size, silent, proxy,
                match_timeout),
                keep_fds=() if sock is None else (sock.fileno(),))
            return
        cmd = [sys.executable, "-m", "tvm.rpc.server", "--key", key,
               "--max-frame-size", str(max_frame_size),
               "--match-timeout", repr(float(match_timeout))] + extra
        pass_fds = ()
        if sock is not None:
            cmd += ["--fd", str(sock.fileno())]
            pass_fds = (sock.fileno(),)
        if tracker_addr:
            cmd += ["--tracker", f"{tracker_addr[0]}:{tracker_addr[1]}"]
        if custom_addr:
            cmd += ["--custom-addr", custom_addr]
        for lib in load_library or ():
            cmd += ["--load-library", lib]
        if silent:
            cmd.append("--silent")
        self._process = ServiceProcess(cmd=cmd, pass_fds=pass_fds)


def _serve(sock, key, tracker_addr, custom_addr, load_library, max_frame_size, silent, proxy=None,
           match_timeout=DEFAULT_MATCH_TIMEOUT):
    setup_logging(silent)
    if load_library:
        from tvm.base import load_backend_libs

        load_backend_libs(load_library)
    if proxy is not None:
        from .proxy import serve_through_proxy

        serve_through_proxy(proxy, key, max_frame_size)
        return
    from .server_loop import ServerLoop

    ServerLoop(sock, key, tracker_addr, custom_addr, max_frame_size, match_timeout).run()


def _host_port(text):
    host, sep, port = text.rpartition(":")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    return host.strip("[]"), int(port)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tvm.rpc.server",
                                     description="Serve RPC sessions on this machine.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1; 0.0.0.0 exposes the server)")
    parser.add_argument("--port", type=int, default=9091)
    parser.add_argument("--port-end", type=int, default=9199)
    parser.add_argument("--key", default="")
    parser.add_argument("--tracker", type=_host_port, help="HOST:PORT of a tracker to join")
    parser.add_argument("--custom-addr", help="address the tracker hands out for this server")
    parser.add_argument("--load-library", action="append", help="shared library to load first")
    parser.add_argument("--max-frame-size", type=int, default=DEFAULT_MAX_FRAME_SIZE)
    parser.add_argument("--match-timeout", type=float, default=DEFAULT_MATCH_TIMEOUT,
                        help="seconds to wait for the client the tracker matched this server to")
    parser.add_argument("--proxy", type=_host_port, help="serve through the proxy at HOST:PORT")
    parser.add_argument("--fd", type=int, help=argparse.SUPPRESS)  # an inherited listening socket
    parser.add_argument("--silent", action="store_true")
    args = parser.parse_args(argv)
    if args.proxy is not None:
        sock = None
    elif args.fd is not None:
        sock = socket.socket(fileno=args.fd)
    else:
        sock = bind_socket(args.host, args.port, args.port_end)
        print(f"tvm.rpc.server: listening on {args.host}:{sock.getsockname()[1]}", flush=True)
    try:
        _serve(sock, args.key, args.tracker, args.custom_addr, args.load_library,
               args.max_frame_size, args.silent, proxy=args.proxy and f"{args.proxy[0]}:{args.proxy[1]}",
               match_timeout=args.match_timeout)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
