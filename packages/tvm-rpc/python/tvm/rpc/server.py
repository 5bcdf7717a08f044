"""tvm.rpc.Server: an RPC server in its own process; also `python -m tvm.rpc.server`."""

import argparse
import ipaddress
import logging
import os
import socket
import sys

from . import auth
from .client import check_ssl_context
from .handshake import HANDSHAKE_TIMEOUT
from .process import Service, ServiceProcess, bind_socket, setup_logging
from .protocol import DEFAULT_MAX_FRAME_SIZE
from .server_loop import DEFAULT_MAX_CONNECTIONS
from .session_constructors import SessionPolicy
from .tracker import DEFAULT_MATCH_TIMEOUT
from .tracker_wire import check_key

logger = logging.getLogger("tvm.rpc")


class Server(Service):
    """An RPC server listening on host:port, serving each session in its own worker process.

    A client that connects can run code here (upload a library and load it): see the
    Security section of docs/rpc-protocol.md.

    host: the address to bind (localhost by default; "0.0.0.0" only if you mean it).
    port, port_end: the first free port in [port, port_end) is used; port=0 picks any.
    key: the tracker match key clients present. tracker_addr: (host, port) of a Tracker to
    register with. use_popen: run the server as `python -m tvm.rpc.server` instead of a fork
    of this process (a fork sees functions registered here; a popen server only its imports).
    match_timeout: seconds a server waits, once the tracker has handed its match key to a
    client, for that client to connect; then it puts itself back in the queue with a new key.

    Keyword-only: secret: the shared secret clients must prove they know (str or bytes;
    None reads $TVM_RPC_SECRET; unset: no authentication). ssl_context: a server-side
    ssl.SSLContext to serve over TLS. allow_connect: (host, port) targets clients may chain
    to with rpc.Connect. allow_popen: programs clients may start with rpc.PopenSession
    (besides the default Python worker). permissive: lift those limits and the workspace
    confinement of module loading. insecure: allow binding a non-loopback address without
    a secret. max_connections: connections at once (more are refused). handshake_timeout:
    seconds a connection has to complete its handshake, in total.
    """

    def __init__(
        self,
        host="127.0.0.1",
        port=9091,
        port_end=9199,
        is_proxy=False,
        use_popen=False,
        silent=False,
        tracker_addr=None,
        key="",
        load_library=None,
        custom_addr=None,
        max_frame_size=DEFAULT_MAX_FRAME_SIZE,
        match_timeout=DEFAULT_MATCH_TIMEOUT,
        *,
        secret=None,
        ssl_context=None,
        allow_connect=(),
        allow_popen=(),
        permissive=False,
        insecure=False,
        max_connections=DEFAULT_MAX_CONNECTIONS,
        handshake_timeout=HANDSHAKE_TIMEOUT,
    ):
        if not isinstance(key, str):
            raise TypeError(
                f"tvm.rpc.Server: argument 'key' must be a str, got {type(key).__name__}"
            )
        if tracker_addr is not None or is_proxy:
            check_key(key, "tvm.rpc.Server: argument 'key' (with a tracker or proxy)")
        _check_seconds(match_timeout, "match_timeout")
        _check_seconds(handshake_timeout, "handshake_timeout")
        if type(max_connections) is not int or max_connections < 1:
            raise ValueError(
                "tvm.rpc.Server: argument 'max_connections' must be an int >= 1, "
                f"got {max_connections!r}"
            )
        secret = auth.resolve_secret(secret, "tvm.rpc.Server: argument 'secret'")
        check_ssl_context(ssl_context, "tvm.rpc.Server")
        if ssl_context is not None and use_popen:
            raise ValueError(
                "tvm.rpc.Server: argument 'ssl_context' cannot be passed to a "
                "use_popen=True server (a new process); run `python -m "
                "tvm.rpc.server --tls-cert FILE --tls-key FILE` instead"
            )
        policy = SessionPolicy(allow_connect, allow_popen, permissive)
        if not is_proxy and secret is None and not insecure and not is_loopback(host):
            raise ValueError(
                f"tvm.rpc.Server: refusing to listen on {host!r} without a secret: anyone who "
                "can reach it could run code as this user. Pass secret=... (or set "
                f"${auth.SECRET_ENV_VAR}), or insecure=True if the network is trusted"
            )
        self.host = host
        self.key = key
        self._process = None
        options = _Options(
            key,
            secret,
            ssl_context,
            policy,
            tracker_addr,
            custom_addr,
            load_library,
            max_frame_size,
            match_timeout,
            max_connections,
            handshake_timeout,
            silent,
        )
        if is_proxy:
            # Serve sessions that a Proxy relays: connect out to it instead of listening.
            self.port = port
            options.proxy = f"{host}:{port}"
            self._start(options, None, use_popen)
            return
        sock = bind_socket(host, port, port_end)
        self.port = sock.getsockname()[1]
        try:
            self._start(options, sock, use_popen)
        finally:
            sock.close()

    def _start(self, options, sock, use_popen):
        if not use_popen:
            self._process = ServiceProcess(
                lambda: _serve(sock, options), keep_fds=() if sock is None else (sock.fileno(),)
            )
            return
        cmd = [sys.executable, "-m", "tvm.rpc.server"] + options.argv()
        pass_fds = ()
        if sock is not None:
            cmd += ["--fd", str(sock.fileno())]
            pass_fds = (sock.fileno(),)
        env = dict(os.environ)
        env.pop(auth.SECRET_ENV_VAR, None)
        if options.secret is not None:  # never on the command line, where `ps` shows it
            env[auth.SECRET_ENV_VAR] = options.secret.decode("utf-8", "surrogateescape")
        self._process = ServiceProcess(cmd=cmd, pass_fds=pass_fds, env=env)


class _Options:
    """Everything a server process needs besides its socket."""

    def __init__(
        self,
        key,
        secret,
        ssl_context,
        policy,
        tracker_addr,
        custom_addr,
        load_library,
        max_frame_size,
        match_timeout,
        max_connections,
        handshake_timeout,
        silent,
        proxy=None,
    ):
        self.key = key
        self.secret = secret
        self.ssl_context = ssl_context
        self.policy = policy
        self.tracker_addr = tracker_addr
        self.custom_addr = custom_addr
        self.load_library = load_library
        self.max_frame_size = max_frame_size
        self.match_timeout = match_timeout
        self.max_connections = max_connections
        self.handshake_timeout = handshake_timeout
        self.silent = silent
        self.proxy = proxy

    def argv(self):
        """The `python -m tvm.rpc.server` arguments for these options (the secret travels
        in the environment; an ssl_context cannot travel)."""
        args = [
            "--key",
            self.key,
            "--max-frame-size",
            str(self.max_frame_size),
            "--match-timeout",
            repr(float(self.match_timeout)),
            "--max-connections",
            str(self.max_connections),
            "--handshake-timeout",
            repr(float(self.handshake_timeout)),
            "--insecure",
        ]
        if self.proxy:
            args += ["--proxy", self.proxy]
        if self.tracker_addr:
            args += ["--tracker", f"{self.tracker_addr[0]}:{self.tracker_addr[1]}"]
        if self.custom_addr:
            args += ["--custom-addr", self.custom_addr]
        for lib in self.load_library or ():
            args += ["--load-library", lib]
        for host, port in sorted(self.policy.connect):
            args += ["--allow-connect", f"{host}:{port}"]
        for program in sorted(self.policy.popen):
            args += ["--allow-popen", program]
        if self.policy.permissive:
            args.append("--permissive")
        if self.silent:
            args.append("--silent")
        return args


def is_loopback(host):
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]").partition("%")[0]).is_loopback
    except ValueError:
        return False


def _check_seconds(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(
            f"tvm.rpc.Server: argument '{name}' must be a number of seconds, got "
            f"{type(value).__name__}"
        )
    if not 0 < value < float("inf"):
        raise ValueError(
            f"tvm.rpc.Server: argument '{name}' must be a positive, finite "
            f"number of seconds, got {value!r}"
        )


def _serve(sock, options):
    setup_logging(options.silent)
    if options.load_library:
        from tvm.base import load_backend_libs

        load_backend_libs(options.load_library)
    if options.proxy is not None:
        from .proxy import serve_through_proxy

        serve_through_proxy(
            options.proxy,
            options.key,
            options.max_frame_size,
            secret=options.secret,
            policy=options.policy,
        )
        return
    from .server_loop import ServerLoop

    ServerLoop(
        sock,
        options.key,
        options.tracker_addr,
        options.custom_addr,
        options.max_frame_size,
        options.match_timeout,
        secret=options.secret,
        ssl_context=options.ssl_context,
        policy=options.policy,
        max_connections=options.max_connections,
        handshake_timeout=options.handshake_timeout,
    ).run()


def _host_port(text):
    host, sep, port = text.rpartition(":")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    return host.strip("[]"), int(port)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m tvm.rpc.server", description="Serve RPC sessions on this machine."
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to bind (default 127.0.0.1; 0.0.0.0 exposes the server)",
    )
    parser.add_argument("--port", type=int, default=9091)
    parser.add_argument("--port-end", type=int, default=9199)
    parser.add_argument("--key", default="")
    parser.add_argument("--tracker", type=_host_port, help="HOST:PORT of a tracker to join")
    parser.add_argument("--custom-addr", help="address the tracker hands out for this server")
    parser.add_argument("--load-library", action="append", help="shared library to load first")
    parser.add_argument("--max-frame-size", type=int, default=DEFAULT_MAX_FRAME_SIZE)
    parser.add_argument(
        "--match-timeout",
        type=float,
        default=DEFAULT_MATCH_TIMEOUT,
        help="seconds to wait for the client the tracker matched this server to",
    )
    parser.add_argument("--proxy", type=_host_port, help="serve through the proxy at HOST:PORT")
    parser.add_argument(
        "--secret-file",
        help="file holding the shared secret (default: "
        f"${auth.SECRET_ENV_VAR}; never pass the secret itself as an argument)",
    )
    parser.add_argument("--tls-cert", help="certificate chain (PEM) to serve over TLS")
    parser.add_argument("--tls-key", help="private key (PEM) of --tls-cert")
    parser.add_argument(
        "--allow-connect",
        type=_host_port,
        action="append",
        default=[],
        help="HOST:PORT a client may chain to with rpc.Connect",
    )
    parser.add_argument(
        "--allow-popen",
        action="append",
        default=[],
        help="program a client may start with rpc.PopenSession",
    )
    parser.add_argument(
        "--permissive",
        action="store_true",
        help="let clients construct any session and load from any path",
    )
    parser.add_argument(
        "--insecure", action="store_true", help="allow a non-loopback --host without a secret"
    )
    parser.add_argument("--max-connections", type=int, default=DEFAULT_MAX_CONNECTIONS)
    parser.add_argument("--handshake-timeout", type=float, default=HANDSHAKE_TIMEOUT)
    parser.add_argument("--fd", type=int, help=argparse.SUPPRESS)  # an inherited listening socket
    parser.add_argument("--silent", action="store_true")
    args = parser.parse_args(argv)
    secret = None
    if args.secret_file:
        with open(args.secret_file, "rb") as f:
            secret = f.read().strip()
    secret = auth.resolve_secret(secret, "python -m tvm.rpc.server: the secret")
    ssl_context = None
    if args.tls_cert:
        import ssl

        ssl_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ssl_context.load_cert_chain(args.tls_cert, args.tls_key)
    if (
        args.proxy is None
        and args.fd is None
        and secret is None
        and not args.insecure
        and not is_loopback(args.host)
    ):
        parser.error(
            f"refusing to listen on {args.host!r} without a secret (--secret-file or "
            f"${auth.SECRET_ENV_VAR}); pass --insecure if the network is trusted"
        )
    if args.proxy is not None:
        sock = None
    elif args.fd is not None:
        sock = socket.socket(fileno=args.fd)
    else:
        sock = bind_socket(args.host, args.port, args.port_end)
        print(f"tvm.rpc.server: listening on {args.host}:{sock.getsockname()[1]}", flush=True)
    options = _Options(
        args.key,
        secret,
        ssl_context,
        SessionPolicy(args.allow_connect, args.allow_popen, args.permissive),
        args.tracker,
        args.custom_addr,
        args.load_library,
        args.max_frame_size,
        args.match_timeout,
        args.max_connections,
        args.handshake_timeout,
        args.silent,
        proxy=args.proxy and f"{args.proxy[0]}:{args.proxy[1]}",
    )
    try:
        _serve(sock, options)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
