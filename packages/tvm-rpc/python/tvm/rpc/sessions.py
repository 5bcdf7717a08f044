"""Session constructors a server can serve, chosen by a client's session_constructor_args."""

from .local_session import LocalSession


def _connect(host, port, key="", session_timeout=0, *next_constructor_args):
    from .client import connect

    return connect(host, int(port), key, session_timeout, list(next_constructor_args) or None)


def _popen(binary=None, *args):
    from .popen import PopenSession

    return PopenSession(binary, list(args))


SESSION_CONSTRUCTORS = {
    "rpc.LocalSession": LocalSession,
    "rpc.Connect": _connect,
    "rpc.PopenSession": _popen,
}


def make_session(constructor_args):
    """The session a server worker serves: a LocalSession unless the client asked otherwise.

    constructor_args: [] or [name, *args], e.g. ["rpc.Connect", host, port, key] to chain
    to another server; further entries after key and timeout chain further.
    """
    if not constructor_args:
        return LocalSession()
    name, *args = constructor_args
    constructor = SESSION_CONSTRUCTORS.get(name)
    if constructor is None:
        raise ValueError(f"session_constructor_args: unknown session constructor {name!r}; "
                         f"expected one of {sorted(SESSION_CONSTRUCTORS)}")
    try:
        return constructor(*args)
    except TypeError as err:
        raise TypeError(f"session_constructor_args: bad arguments {args!r} for {name}: {err}") from None
