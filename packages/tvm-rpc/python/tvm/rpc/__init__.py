"""tvm.rpc: run functions, tensors and modules in another process or on another machine."""

from tvm._version_guard import require as _require

_require("tvm-runtime", needed_by="tvm-rpc")  # the range in pyproject.toml

from .client import ClientSession, connect  # noqa: E402
from .endpoint import RPCEndpoint  # noqa: E402
from .local_session import LocalSession  # noqa: E402
from .popen import PopenSession  # noqa: E402
from .proxy import Proxy  # noqa: E402
from .remote import RemoteFunction, RemoteModule, RemoteTensor  # noqa: E402
from .session import RPCSession  # noqa: E402
from .tracker import Tracker, TrackerSession, connect_tracker  # noqa: E402


def __getattr__(name):
    # Imported on first use so that `python -m tvm.rpc.server` runs a fresh module.
    if name == "Server":
        from .server import Server

        return Server
    raise AttributeError(f"module 'tvm.rpc' has no attribute {name!r}")


__all__ = [
    "ClientSession",
    "LocalSession",
    "PopenSession",
    "Proxy",
    "RPCEndpoint",
    "RPCSession",
    "RemoteFunction",
    "RemoteModule",
    "RemoteTensor",
    "Server",
    "Tracker",
    "TrackerSession",
    "connect",
    "connect_tracker",
]
