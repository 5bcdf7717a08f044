"""Session constructors a server can serve, chosen by a client's session_constructor_args,
and the server-side allow-list (SessionPolicy) that limits them."""

import os

from .local_session import LocalSession


class SessionPolicy:
    """What a client of a server may construct and load.

    connect: (host, port) pairs `rpc.Connect` may chain to. popen: programs (paths)
    `rpc.PopenSession` may start, besides the default Python worker. permissive: lift
    every limit (any chain target, any program, module loading from any path).
    """

    __slots__ = ("connect", "popen", "permissive")

    def __init__(self, connect=(), popen=(), permissive=False, func="tvm.rpc.Server"):
        self.connect = frozenset(_targets(connect, func))
        self.popen = frozenset(_programs(popen, func))
        self.permissive = bool(permissive)

    def check_connect(self, host, port):
        if self.permissive or (host, port) in self.connect:
            return
        raise PermissionError(
            f"session_constructor_args: rpc.Connect to {host}:{port} is not allowed by this "
            "server; start it with allow_connect=[(host, port), ...] listing the targets a "
            "client may chain to (or permissive=True)"
        )

    def check_popen(self, binary):
        if binary is None or self.permissive:
            return
        if isinstance(binary, str) and os.path.realpath(binary) in self.popen:
            return
        shown = f"{binary!r}" if isinstance(binary, str) else "uploaded bytes"
        raise PermissionError(
            f"session_constructor_args: rpc.PopenSession of {shown} is not allowed by this "
            "server; start it with allow_popen=[path, ...] listing the programs a client may "
            "start (or permissive=True)"
        )


def _targets(targets, func):
    for target in targets:
        if (
            not isinstance(target, (tuple, list))
            or len(target) != 2
            or not isinstance(target[0], str)
            or type(target[1]) is not int
        ):
            raise TypeError(
                f"{func}: argument 'allow_connect' must hold (host, port) pairs, got {target!r}"
            )
        yield target[0], target[1]


def _programs(programs, func):
    if isinstance(programs, (str, bytes)):
        raise TypeError(f"{func}: argument 'allow_popen' must be a list of paths, not one string")
    for program in programs:
        if not isinstance(program, (str, os.PathLike)):
            raise TypeError(f"{func}: argument 'allow_popen' must hold paths, got {program!r}")
        yield os.path.realpath(os.fspath(program))


# A server that was given no policy (in-process use, tests of the endpoint) allows nothing
# beyond a LocalSession and the default PopenSession worker.
DEFAULT_POLICY = SessionPolicy()


def make_session(constructor_args, policy=None, workspace=None):
    """The session a server worker serves: a LocalSession unless the client asked otherwise.

    constructor_args: [] or [name, *args], e.g. ["rpc.Connect", host, port, key] to chain
    to another server; further entries after key and timeout chain further. policy: the
    SessionPolicy deciding what is allowed. workspace: the LocalSession's upload folder.
    """
    policy = DEFAULT_POLICY if policy is None else policy
    name, *args = constructor_args or ["rpc.LocalSession"]
    if name == "rpc.LocalSession":
        if args:
            raise TypeError(
                f"session_constructor_args: rpc.LocalSession takes no arguments, got {args!r}"
            )
        return LocalSession(workspace, confined=not policy.permissive)
    if name == "rpc.Connect":
        return _connect(policy, *args)
    if name == "rpc.PopenSession":
        return _popen(policy, *args)
    raise ValueError(
        f"session_constructor_args: unknown session constructor {name!r}; "
        f"expected one of {sorted(SESSION_CONSTRUCTORS)}"
    )


def _connect(policy, host=None, port=None, key="", session_timeout=0, *next_constructor_args):
    from .client import connect

    if not isinstance(host, str) or isinstance(port, bool) or not isinstance(port, (int, str)):
        raise TypeError(
            f"session_constructor_args: rpc.Connect takes host (str), port (int), "
            f"[key, session_timeout, *next]; got {[host, port]!r}"
        )
    port = int(port)
    policy.check_connect(host, port)
    return connect(host, port, key, session_timeout, list(next_constructor_args) or None)


def _popen(policy, binary=None, *args):
    from .popen import PopenSession

    policy.check_popen(binary)
    return PopenSession(binary, list(args))


SESSION_CONSTRUCTORS = ("rpc.LocalSession", "rpc.Connect", "rpc.PopenSession")
